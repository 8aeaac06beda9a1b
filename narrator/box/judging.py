"""A judge at the table: whose night choices a game takes.

With the set-up's `judge` on, a tournament judge enters every night step on the judge's
signed-in page (narrator.web.judge), as the action of that step, from the source
"judge". The players show their choices to the judge as at a tournament; a pad or the
keypad at night would be a second voice for the same step (a stray tap could break a
meeting's count or the mafia's unanimity), so their night choices are not taken. They
are dropped as silently as a refused tap: nothing at night may answer an input. The
day is the same with or without a judge (pads, keypad, voice and page).
"""

from __future__ import annotations

from typing import Final

from narrator.box.referee import Box
from narrator.engine.actions import Action

# The actions that make a night choice, whoever gives them (narrator.engine.night).
NIGHT_CHOICES = frozenset({"tap", "entry", "choose"})
JUDGE: Final = "judge"  # the judge's page, as a source of actions (narrator.box.referee.SOURCES)


def judged(box: Box) -> bool:
    """Whether a judge enters this game's nights (its journal header says so)."""
    # A game the card can't keep (records: Unrecorded) has no header: played without one.
    header = box.session.header
    return header is not None and header.judge


def judge_takes_it(box: Box, action: Action, source: str) -> bool:
    """True for a night choice from a device in a game whose nights the judge enters."""
    return (source != JUDGE and action.kind in NIGHT_CHOICES
            and box.game.state.phase == "night" and judged(box))
