"""Journals and states written before the engine's state had named values still load
(tests/data/engine-v1, written by the engine of that time)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from narrator.engine.effects import Outcome
from narrator.engine.state import LIFT, State
from narrator.engine.tasks import task_from_json
from narrator.records.journal import Journal, journal_dir, read

DATA = Path(__file__).parent.parent / "data" / "engine-v1"
OLD_STATES: list[dict[str, Any]] = json.loads((DATA / "states.json").read_text())


# sport's defaults when these files were written; issue 10 made the documents' rules the
# defaults (a journal's header then named only the settings a game was given; headers
# written since name every setting's value, so a default that changes later changes no
# journal).
SPORT_THEN = {"fouls.cancel_vote": "nearest", "fouls.short_when_alive_at_most": 4,
              "day.lift_two_of_four": False, "day.lift_three_of_nine": False,
              "draw_after_idle_rounds": 3, "day.silent_turn": 10, "day.revote_tie_fewer": "revote"}


def test_a_finished_journal_replays_to_its_recorded_end() -> None:
    contents = read(DATA / "sport-finished.jsonl")
    kinds = {e.action.kind for e in contents.entries}
    assert {"undo", "foul", "remove", "pause", "resume"} <= kinds
    assert not contents.header.settings
    game = dataclasses.replace(contents.header, settings=SPORT_THEN).new_game()
    for entry in contents.entries:
        game.apply(entry.action)
    assert game.over
    assert game.state.outcome == contents.end == Outcome("all black players eliminated", "red")


def test_an_unfinished_journal_resumes_where_it_stopped(tmp_path: Path) -> None:
    # The club rules changed with issue 10 (004's re-vote, the lover's guest...): the
    # journal resumes with the rule file it was started with (club-3791c03.yaml, the
    # bundled club.yaml of that time), named in its header as a box would name a file.
    lines = (DATA / "club-unfinished.jsonl").read_text().splitlines(keepends=True)
    first = json.loads(lines[0])
    assert first["header"]["rules"] == "club"
    first["header"]["rules"] = str(DATA / "club-3791c03.yaml")
    folder = journal_dir(tmp_path)
    folder.mkdir(parents=True, mode=0o700)
    (folder / "current.jsonl").write_text(json.dumps(first) + "\n" + "".join(lines[1:]))
    resumed = Journal.resume(tmp_path)
    assert resumed is not None
    journal, game = resumed
    journal.close()
    assert not game.over and game.state.phase_label() == "day-2"
    contents = read(DATA / "club-unfinished.jsonl")
    again = dataclasses.replace(contents.header, rules=str(DATA / "club-3791c03.yaml")).new_game()
    for entry in contents.entries:
        again.apply(entry.action)
    assert game.state == again.state


@pytest.mark.parametrize("old", OLD_STATES, ids=lambda s: f"{s['rules']}-{s['current']}")
def test_a_version_1_state_loads_with_the_same_meaning(old: dict[str, Any]) -> None:
    st = State.from_json(old)
    assert State.from_json(json.loads(json.dumps(st.to_json()))) == st
    assert st.current == (task_from_json(old["current"]) if old["current"] else None)
    assert st.agenda == [task_from_json(t) for t in old["agenda"]]
    assert [t.to_json() for t in st.agenda] == old["agenda"]
    assert [e.to_json() for e in st.eliminations] == old["eliminations"]
    assert [n.to_json() for n in st.nominations] == old["nominations"]
    assert [p.to_json() for p in st.taps] == old["taps"]
    assert {k: [p.to_json() for p in v] for k, v in st.night.items()} == old["night"]
    assert [list(p) for p in st.possible] == old["possible"]
    assert (st.open.purpose, st.open.seconds, st.open.seat) == tuple(old["open"]) if st.open \
        else old["open"] == []
    assert st.best_move == tuple(old["best_move"][1:])
    assert st.outcome == (Outcome(*old["outcome"]) if old["outcome"] else None)
    if old["last_say"]:
        assert st.last_say is not None
        assert [st.last_say.cue, {k: list(v) if isinstance(v, tuple) else v
                                  for k, v in st.last_say.params.items()}] == old["last_say"]
    ballot = old["ballot"]
    if ballot:
        assert st.ballot is not None
        assert (st.ballot.kind, st.ballot.round) == (ballot["kind"], ballot["round"])
        assert list(st.ballot.candidates) == ballot["candidates"]
        assert list(st.ballot.prev) == ballot["prev"]
        assert st.ballot.voters() == ballot["voters"]
        for key, voters in ballot["votes"].items():
            assert st.ballot.votes_for(LIFT if key == "lift" else int(key)) == voters
    else:
        assert st.ballot is None
    extra = old["extra"]
    assert st.visit.blocked == extra.get("blocked", [])
    assert st.visit.immune == extra.get("immune", [])
    assert st.picks.last_pick == extra.get("last_pick", {})
    assert st.protection.self_healed == extra.get("self_healed", [])
    assert st.judge.verdict_used == extra.get("verdict_used", False)
    assert {k: v.to_json() for k, v in st.visit.visits.items()} == extra.get("visits", {})
    assert st.turncoat.turned == extra.get("turned", [])
    plain = ("rules", "seats", "roles", "deck", "alive", "gone", "fouls", "silenced", "phase",
             "number", "window", "windows", "tapped", "speaker", "nominated", "first_speaker",
             "idle_rounds", "elims_at_dawn", "cancel_vote_day", "voting_started",
             "first_victim", "rng", "paused")
    assert {k: getattr(st, k) for k in plain} == {k: old[k] for k in plain}


def test_every_extra_key_and_task_of_version_1_is_in_the_samples() -> None:
    extras = {k for s in OLD_STATES for k in s["extra"]}
    assert extras == {"blocked", "immune", "last_pick", "self_healed", "verdict_used",
                      "visits", "turned"}
    names = {t[0] for s in OLD_STATES for t in [*s["agenda"], *([s["current"]] if s["current"] else [])]}
    assert {"call", "input", "ballot", "lift_ballot", "second", "speech", "ask_answer"} <= names
