"""The win checks of a lone killer (club maniac, boxed serial killer): team "maniac".

While the maniac lives neither side can win (wins.py: the general checks wait while a
third team lives). `maniac` (club): the maniac wins when no black player is left and at
most one red one, the next night would end it anyway; left alone with a single black
player the game is a draw. `maniac_alone` (boxed): «побеждает, если убивает всех
остальных игроков», only the killer is left.
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


def _maniac_alone(ctx: Ctx) -> Outcome | None:
    count = sides(ctx)
    if count.get(TEAM, 0) == 1 and sum(count.values()) == 1:
        return Outcome("the maniac is the last player left", TEAM)
    return None


WINS: dict[str, WinCheck] = {"maniac": _maniac, "maniac_alone": _maniac_alone}
