"""What a paused game takes. A pause halts the day: nobody's turn ends, nobody nominates,
seconds or votes, and no vote starts, until the host resumes (the organiser's evening
trial heard the game go on under a pause that stopped only the timers). The host's
corrections (foul, its taking back, removal, forfeit, added time, repeat) and the resume
are taken as ever; so is the close of a window (the box's own timer: one that ran out just
as the pause came must still end its moment).

At night the pause stops the call-out's beat and nothing else: a tap or a typed number at
the number being called counts as it did, since refusing it would lose a shot or a check
its player believes given, and no answer at night may tell them (DESIGN.md, invariant 3).
"""

from __future__ import annotations

from narrator.engine.state import State


def halted(state: State) -> bool:
    """Whether the table's actions that move the game on are refused now."""
    return state.paused and state.phase == "day"
