"""The win check of a lone killer (club maniac, boxed serial killer): team "maniac".

While the maniac lives neither side can win (wins.py: the general checks wait while a
third team lives). The maniac wins when no black player is left and at most one red
one: the next night would end it anyway. Left alone with a single black player the game
is a draw: each kills the other at night, and a vote of two is a tie.
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
    if not red and black == 1 and maniac == 1:
        return Outcome("the maniac is left alone with one black player", "draw")
    return None


WINS: dict[str, WinCheck] = {"maniac": _maniac}
