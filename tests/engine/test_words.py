"""The engine's vocabularies (narrator.engine.words) hold where a state is read back: a
word outside its type is refused with the word and the ones allowed, and the JSON of the
words is the plain strings it always was."""

from __future__ import annotations

import json
from typing import get_args

import pytest

from narrator.engine.cues import REASON_CUES
from narrator.engine.effects import Outcome
from narrator.engine.game import Game
from narrator.engine.state import State
from narrator.engine.words import Reason, RecordEvent
from narrator.errors import RecordError, RuleError
from narrator.rules.loader import load_bundled


def test_a_state_with_a_phase_outside_the_vocabulary_is_refused() -> None:
    data = Game(load_bundled("sport"), 10, seed=1).state.to_json()
    assert State.from_json(data).to_json() == data
    with pytest.raises(RuleError, match=r"'dusk' is not one of night, day, over"):
        State.from_json({**data, "phase": "dusk"})


def test_a_record_event_is_its_string_in_json_and_repr() -> None:
    assert json.dumps({"event": RecordEvent.LIFT_VOTE}) == '{"event": "lift_vote"}'
    assert repr(RecordEvent.LIFT_VOTE) == "'lift_vote'" and f"{RecordEvent.COIN}" == "coin"


def test_every_reason_a_game_ends_for_is_said_with_its_cue() -> None:
    # A forfeit's why is its own cue, said just before the end ("forfeit", with the seat).
    assert set(get_args(Reason)) - set(REASON_CUES) == {"forfeit"}


def test_a_journal_end_line_with_a_reason_outside_the_vocabulary_is_refused() -> None:
    from narrator.records import journal

    good = {"reason": "black equal or outnumber red", "winner": "black"}
    assert journal._outcome_from_json(good, "j.jsonl", "line 9") == Outcome(
        "black equal or outnumber red", "black")
    with pytest.raises(RecordError, match="line 9"):
        journal._outcome_from_json({"reason": "bored", "winner": "red"}, "j.jsonl", "line 9")
