"""The host takes back a foul given by mistake: one fewer, the lost speech given back with
the third, a removal final; the protocol keeps only the fouls that stand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from narrator.engine.actions import Foul, Unfoul, action_from_json
from narrator.engine.deal import deal
from narrator.engine.game import Game
from narrator.errors import RuleError
from narrator.records.journal import GameHeader
from narrator.records.session import GameSession
from narrator.rules.loader import load_bundled


def game() -> Game:
    rules = load_bundled("sport")
    return Game(rules, 10, 3, deal(rules, 10, 3))


def test_a_foul_taken_back_counts_one_fewer_and_is_said() -> None:
    g = game()
    g.apply(Foul(2))
    g.apply(Foul(2))
    effects = g.apply(Unfoul(2))
    assert g.state.fouls[2] == 1
    said = [e.to_json() for e in effects if e.kind == "say"]
    assert said == [{"kind": "say", "cue": "foul_taken_back", "params": {"seat": 2, "count": 1}}]
    assert action_from_json({"kind": "unfoul", "seat": 2}) == Unfoul(2)


def test_taking_back_the_third_foul_gives_the_speech_back() -> None:
    g = game()
    for _ in range(3):
        g.apply(Foul(5))
    assert g.state.silenced[5]
    g.apply(Unfoul(5))
    assert not g.state.silenced[5] and g.state.fouls[5] == 2


def test_nothing_to_take_back_and_a_removal_is_final() -> None:
    g = game()
    with pytest.raises(RuleError, match="no foul to take back"):
        g.apply(Unfoul(1))
    for _ in range(4):
        g.apply(Foul(7))
    assert not g.state.alive[7]
    with pytest.raises(RuleError, match="out of the game"):
        g.apply(Unfoul(7))


def test_the_protocol_keeps_the_fouls_that_stand(tmp_path: Path) -> None:
    rules = load_bundled("sport")
    header = GameHeader(rules="sport", seats=10, seed=3, roles=tuple(deal(rules, 10, 3)))
    session, _ = GameSession.start(tmp_path, header)
    for action in (Foul(4), Foul(6), Foul(4), Unfoul(4)):
        session.apply(action, 0.0)
    session.abandon()
    assert session.files is not None
    data = json.loads(session.files.json.read_text())
    assert [f["seat"] for f in data["fouls"]] == [4, 6]
    assert data["seats"][3]["fouls"] == 1
