"""The JSON protocol as a typed value: every bundled rule set's protocol, as a box writes
it, reads into `Protocol` and writes back the same JSON; a damaged one is refused with one
error naming the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from narrator.errors import RecordError
from narrator.records.protocol_value import Protocol
from narrator.sim.recorded import record_game

TABLES = {"sport": 10, "classic": 8, "boxed": 8, "club": 9}


@pytest.mark.parametrize("rules", sorted(TABLES))
def test_every_rule_sets_protocol_round_trips(tmp_path: Path, rules: str) -> None:
    seats = TABLES[rules]
    names = [f"Игрок {n}" for n in range(1, seats + 1)]
    event = {"tournament": "Cup", "table": 2, "round": 1, "game": 1}
    game = record_game(tmp_path, rules, 4, names, event, seats=seats)
    data = json.loads(game.protocol.read_text(encoding="utf-8"))
    protocol = Protocol.from_json(data, str(game.protocol))
    assert protocol.to_json() == data
    assert Protocol.from_json(json.loads(json.dumps(protocol.to_json()))) == protocol
    assert protocol.finished and protocol.names == tuple(names) and protocol.event.round == 1
    assert len(protocol.roles) == seats and protocol.winner == data["winner"]
    # A game outside any event writes no event keys: written back so.
    bare = {**data, "game": {**data["game"], "event": {}}}
    assert Protocol.from_json(bare).to_json() == bare


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d["game"].update(seats=11), "seats"),
        (lambda d: d["extra"].update({"11": 0.5}), "extra.11"),
        (lambda d: d["extra"].update({"3": "lots"}), "extra.3"),
        (lambda d: d["seats"][2].update(fouls=-1), "seats[2].fouls"),
        (lambda d: d.update(over="yes"), "over"),
        (lambda d: d["game"]["event"].update(round="2"), "game.event.round"),
        (lambda d: d.pop("game"), "(top)"),
    ],
)
def test_a_damaged_protocol_is_one_error_naming_the_field(tmp_path: Path, change: object, where: str) -> None:
    game = record_game(tmp_path, "sport", 1, event={"tournament": "Cup"})
    data = json.loads(game.protocol.read_text(encoding="utf-8"))
    change(data)  # type: ignore[operator]
    with pytest.raises(RecordError) as caught:
        Protocol.from_json(data, "p.json")
    assert caught.value.path == "p.json" and caught.value.where == where and "\n" not in str(caught.value)
