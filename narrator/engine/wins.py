"""Win checks a rule set names in `win:`, tried in order after every elimination.

Each returns the Outcome when the game is over, or None. The two general checks weigh red
against black; while a player of any other team lives (a lone killer: narrator.engine.
maniac) neither side can win, and that team's own check decides.
"""

from __future__ import annotations

from typing import Final

from narrator.engine.context import Ctx, WinCheck
from narrator.engine.effects import Outcome

_SIDES: Final = ("red", "black")


def sides(ctx: Ctx) -> dict[str, int]:
    """Living players by the team they count for (a seat not known yet counts red). Not
    to be changed: while the win checks run, all of them get the same count (they only
    read the state, and each rule set has two or more)."""
    counted = ctx.counted
    if counted is not None:
        return counted
    st = ctx.state
    teams = ctx.rules.count_teams
    alive = st.alive
    roles = st.roles
    count: dict[str, int] = {}
    for seat in range(1, st.seats + 1):
        if alive[seat]:
            role = roles[seat]
            team = teams[role] if role else "red"
            count[team] = count.get(team, 0) + 1
    if ctx.checking_win:
        ctx.counted = count
    return count


def _third_party(count: dict[str, int]) -> bool:
    return any(n for team, n in count.items() if team not in _SIDES)


def _no_black(ctx: Ctx) -> Outcome | None:
    count = sides(ctx)
    if count.get("black", 0) == 0 and not _third_party(count):
        return Outcome("all black players eliminated", "red")
    return None


def _black_parity(ctx: Ctx) -> Outcome | None:
    count = sides(ctx)
    black = count.get("black", 0)
    if black and not _third_party(count) and black >= sum(count.values()) - black:
        return Outcome("black equal or outnumber red", "black")
    return None


def _nobody_left(ctx: Ctx) -> Outcome | None:
    # The last players killed each other (the boxed booklet has no outcome for that).
    if not ctx.state.living():
        return Outcome("nobody is left at the table", "draw")
    return None


WINS: dict[str, WinCheck] = {
    "no_black": _no_black,
    "black_parity": _black_parity,
    "nobody_left": _nobody_left,
}
