"""Win checks a rule set names in `win:`, tried in order after every elimination.

Each returns (reason, winner) when the game is over, or None.
"""

from __future__ import annotations

from collections.abc import Callable

from narrator.engine.context import Ctx

Verdict = tuple[str, str] | None


def sides(ctx: Ctx) -> dict[str, int]:
    st = ctx.state
    count: dict[str, int] = {}
    for seat in st.living():
        team = ctx.role(seat).count_team if st.roles[seat] else "red"
        count[team] = count.get(team, 0) + 1
    return count


def _no_black(ctx: Ctx) -> Verdict:
    count = sides(ctx)
    if count.get("black", 0) == 0 and count.get("maniac", 0) == 0:
        return ("all black players eliminated", "red")
    return None


def _black_parity(ctx: Ctx) -> Verdict:
    count = sides(ctx)
    black = count.get("black", 0)
    if black and count.get("maniac", 0) == 0 and black >= sum(count.values()) - black:
        return ("black equal or outnumber red", "black")
    return None


WINS: dict[str, Callable[[Ctx], Verdict]] = {
    "no_black": _no_black,
    "black_parity": _black_parity,
}
