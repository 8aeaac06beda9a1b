"""The win checks of a lone killer (club maniac, boxed serial killer): team "maniac".

While the maniac lives neither side can win (wins.py: the general checks wait while a
third team lives). `maniac` (club, 004: "wins only if he is left one on one with a single
red card"): the maniac wins when no black player is left and at most one red one. Left
with a single black player nobody has won yet: the game goes on (004 has no draw), and
the next kill or vote decides it. `maniac_alone` (boxed: «побеждает, если убивает всех
остальных игроков»; club's setting `maniac_wins: alone`, 000: "He can only win if there
is only one left"): only the killer is left.
"""

from __future__ import annotations

from narrator.engine.context import Ctx, WinCheck
from narrator.engine.effects import Outcome
from narrator.engine.wins import sides

TEAM = "maniac"


def _maniac(ctx: Ctx) -> Outcome | None:
    count = sides(ctx)
    maniac = count.get(TEAM, 0)
    if not maniac:
        return None
    black = count.get("black", 0)
    red = sum(count.values()) - maniac - black
    if not black and red <= 1:
        return Outcome("the maniac is left with at most one red player", TEAM)
    return None


def _maniac_alone(ctx: Ctx) -> Outcome | None:
    count = sides(ctx)
    if count.get(TEAM, 0) == 1 and sum(count.values()) == 1:
        return Outcome("the maniac is the last player left", TEAM)
    return None


WINS: dict[str, WinCheck] = {"maniac": _maniac, "maniac_alone": _maniac_alone}
