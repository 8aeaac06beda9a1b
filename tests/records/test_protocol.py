"""The protocol: built from effects, exported to Polemica and replayed in agreement, printed."""

from __future__ import annotations

import json
import logging
import os
import stat
from collections.abc import Iterable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from narrator.engine.actions import EndSpeech, Foul, Nominate, Undo, WindowClosed, Withdraw
from narrator.engine.effects import Effect
from narrator.engine.game import Game
from narrator.engine.tasks import Speech
from narrator.errors import RuleError
from narrator.records.export_polemica import ExportError, to_polemica, write_polemica
from narrator.records.polemica import parse_record, read_record
from narrator.records.protocol import ProtocolBuilder
from narrator.records.protocol_html import render_html
from narrator.records.replay import ReplayResult, replay, settings_needed
from narrator.records.script import estimated_timeline
from narrator.records.session import GameSession
from narrator.rules.loader import load_bundled
from narrator.sim.selfplay import play
from tests.records.helpers import COMPLETE_GAMES, DATA, FakeWall, drive, header


def replay_into_protocol(path: Path) -> tuple[ReplayResult, dict[str, Any]]:
    """Replay a Polemica record through the engine, building the protocol from its effects."""
    rules = load_bundled("sport")
    game = settings_needed(rules, read_record(path))
    builder = ProtocolBuilder(rules.with_settings(game.settings), len(game.roles),
                              settings=game.settings)
    timeline = estimated_timeline()
    feed = timeline.feed

    def watched(effects: Iterable[Effect], phase: str | None = None) -> None:
        effects = list(effects)
        builder.feed(effects)
        feed(effects, phase)

    timeline.feed = watched  # type: ignore[method-assign]
    result = replay(rules, game, timeline)
    assert result.disagreement is None, result.disagreement
    return result, builder.to_json()


@pytest.mark.parametrize("name", COMPLETE_GAMES)
def test_a_real_game_exported_to_polemica_replays_the_same(tmp_path: Path, name: str) -> None:
    original, protocol = replay_into_protocol(DATA / f"{name}.json")
    assert original.winner in ("red", "black")
    out = write_polemica(protocol, tmp_path / f"{name}.polemica.json")
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600
    again, protocol_again = replay_into_protocol(out)
    assert again.winner == original.winner
    assert again.eliminations() == original.eliminations()
    # Everything the export carries comes back: the protocol of the replayed export is the
    # protocol of the original, and the box would say the very same script.
    assert protocol_again == protocol
    assert again.timeline.to_json() == original.timeline.to_json()


@pytest.mark.parametrize("name", ["328635", "333915"])
def test_an_unfinished_game_exports_as_unfinished(tmp_path: Path, name: str) -> None:
    original, protocol = replay_into_protocol(DATA / f"{name}.json")
    assert original.winner is None and not protocol["over"]
    out = write_polemica(protocol, tmp_path / "x.json")
    assert read_record(out).finished is False
    again, _ = replay_into_protocol(out)
    assert again.eliminations() == original.eliminations()


def test_the_protocol_holds_the_game() -> None:
    _, p = replay_into_protocol(DATA / "598995.json")
    assert [s["role"] for s in p["seats"]] == ["civilian", "civilian", "sheriff", "don", "civilian",
                                                "civilian", "civilian", "mafia", "civilian", "mafia"]
    day2 = next(d for d in p["days"] if d["number"] == 2)
    assert [(n["by"], n["target"]) for n in day2["nominations"]] == [(2, 8), (3, 4), (4, 3), (5, 6),
                                                                     (6, 5), (8, 2)]
    assert {v["candidate"]: v["voters"] for v in day2["votes"]}[8] == [1, 2, 5, 9]
    day4 = next(d for d in p["days"] if d["number"] == 4)
    assert sorted({v["round"] for v in day4["votes"]}) == [1, 2]
    assert day4["lift_votes"] == [{"candidates": [5, 4], "yes": [1, 3, 4, 5, 6, 10], "no": []}]
    night1 = next(n for n in p["nights"] if n["number"] == 1)
    shot = next(c for c in night1["choices"] if c["ability"] == "kill")
    assert shot["choices"] == [{"actor": 4, "target": 7}, {"actor": 8, "target": 7},
                               {"actor": 10, "target": 7}]
    assert p["eliminations"][0] == {"seat": 7, "how": "shot", "phase": "night", "number": 1}
    assert p["seats"][3]["out"] == {"how": "lifted", "phase": "day", "number": 4}
    assert p["winner"] == "black" and p["over"]


def test_fouls_checks_and_removal_are_in_the_protocol_and_the_export() -> None:
    _, p = replay_into_protocol(DATA / "272910.json")
    seat5 = p["seats"][4]
    assert seat5["fouls"] == 4 and seat5["out"]["how"] == "fouls"
    assert [f["stage"]["type"] for f in p["fouls"] if f["seat"] == 5] == ["speech", "speech", "speech",
                                                                          "voted"]
    night1 = next(n for n in p["nights"] if n["number"] == 1)
    assert [(c["target"], c["answer"]) for c in night1["checks"] if "sheriff" in c["roles"]] == [(6, "no")]
    record = to_polemica(p)
    player5 = record["players"][4]
    assert player5["disqual"] and len(player5["fouls"]) == 4
    assert {"night": 1, "role": 3, "player": 6} in record["checks"]
    times = [f["time"] for f in p["fouls"]]
    assert times == sorted(times) and len(set(times)) == len(times)


def test_club_faults_reset_on_the_sheet_after_the_skipped_turn() -> None:
    """004: "If a player with three faults has already skipped their turn, that player's
    faults will reset to zero": the sheet's boxes follow, the faults given stay listed."""
    rules = load_bundled("club")
    roles = ["civilian", "mafia", "sheriff", "civilian", "doctor", "lover", "don", "civilian",
             "maniac", "civilian"]
    game = Game(rules, 10, 1, roles)
    builder = ProtocolBuilder(rules, 10)
    builder.feed(game.opening)
    _to_day_one_speech(game)
    for _ in range(3):
        builder.feed(game.apply(Foul(4)))
    assert builder.to_json()["seats"][3]["fouls"] == 3
    while not (isinstance(game.state.current, Speech) and game.state.current.seat == 5):
        builder.feed(game.apply(WindowClosed(game.state.window)))  # 4's turn is skipped
    assert builder.to_json()["seats"][3]["fouls"] == 0
    builder.feed(game.apply(Foul(4)))
    p = builder.to_json()
    assert p["seats"][3]["fouls"] == 1 and p["seats"][3]["out"] is None
    assert [f["count"] for f in p["fouls"] if f["seat"] == 4] == [1, 2, 3, 1]


@pytest.mark.parametrize("seed", range(12))
def test_simulated_games_round_trip_through_polemica(tmp_path: Path, seed: int) -> None:
    rules = load_bundled("sport")
    builder = ProtocolBuilder(rules, 10)
    final = play(rules, seed, 10, on_effects=lambda _st, effects: builder.feed(effects))
    out = write_polemica(builder.to_json(), tmp_path / "game.json")
    again = replay(rules, read_record(out), estimated_timeline())
    assert again.disagreement is None
    assert again.winner == (final.outcome.winner if final.outcome else None)
    assert again.eliminations() == [{"seat": e.seat, "phase": e.phase, "number": e.number,
                                     "how": e.how} for e in final.eliminations]


def _to_day_one_speech(game: Game) -> None:
    while not (game.state.phase == "day" and isinstance(game.state.current, Speech)):
        game.apply(WindowClosed(game.state.window))


def test_withdrawn_nominations_and_undo_are_followed() -> None:
    rules = load_bundled("sport")
    game = Game(rules, 10, 1, header(1).roles)
    builder = ProtocolBuilder(rules, 10)
    builder.feed(game.opening)

    def apply(action: Any) -> None:
        if isinstance(action, Undo):
            builder.undo()
        else:
            builder.checkpoint()
        builder.feed(game.apply(action))

    _to_day_one_speech(game)
    speaker = game.state.speaker
    target = 1 if speaker != 1 else 2
    apply(Nominate(target))
    apply(Withdraw())
    other = 3 if speaker != 3 else 4
    apply(Nominate(other))
    apply(Undo())
    day1 = builder.to_json()["days"][0]
    assert day1["nominations"] == [{"by": speaker, "target": target, "withdrawn": True}]
    assert [v for v in to_polemica(builder.to_json())["votes"] if v.get("num") == 0] == []
    apply(EndSpeech())


def test_export_refuses_what_polemica_cannot_say() -> None:
    _, p = replay_into_protocol(DATA / "598995.json")
    with pytest.raises(ExportError, match="aborted"):
        to_polemica({**p, "winner": None})
    # A draw (tournament practice) is narrator's own result 2, read back as a draw, and
    # the record names the settings its game was played with.
    drawn = to_polemica({**p, "winner": "draw"})
    assert drawn["result"] == 2 and drawn["config"]["narratorSettings"] == p["game"]["settings"]
    assert parse_record(json.dumps(drawn), "drawn.json").result == "draw"
    seats = [dict(s) for s in p["seats"]]
    seats[0]["role"] = "doctor"
    with pytest.raises(ExportError, match="doctor"):
        to_polemica({**p, "seats": seats})


class _Sheet(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.rows = 0
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag not in ("meta", "br"):
            self.stack.append(tag)
        if tag == "tr":
            self.rows += 1

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, (tag, self.stack[-3:])
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_sheet_is_one_well_formed_page(lang: str) -> None:
    _, p = replay_into_protocol(DATA / "270561.json")
    p["game"]["lang"] = lang
    sheet = _Sheet()
    sheet.feed(render_html(p))
    assert sheet.stack == []
    assert sheet.rows == 11  # the heading and ten seats
    text = " ".join(sheet.text)
    if lang == "en":
        assert "Day 4" in text and "Night 3" in text and "red (town)" in text and "Sheriff" in text
    else:
        assert "День 4" in text and "Ночь 3" in text and "красные (город)" in text and "Шериф" in text
    assert "@page" in text and "A4 landscape" in text


def test_a_session_writes_private_protocol_files_and_logs_no_secrets(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    session, _ = GameSession.start(tmp_path, header(31), FakeWall())

    def apply(action: Any) -> None:
        session.apply(action, at=0.0)

    drive("sport", 31, apply, lambda: session.game.state)
    assert session.files is not None and session.files.polemica is not None
    for path in (session.files.json, session.files.html, session.files.polemica):
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(tmp_path / "protocols").st_mode) == 0o700
    data = json.loads(session.files.json.read_text())
    assert data["winner"] == session.game.state.outcome.winner  # type: ignore[union-attr]
    assert [s["role"] for s in data["seats"]] == list(header(31).roles or ())
    assert read_record(session.files.polemica).result == data["winner"]
    with pytest.raises(RuleError, match="over"):
        session.apply(Undo(), at=0.0)
    logged = " ".join(r.getMessage() for r in caplog.records if r.levelno >= logging.INFO).lower()
    assert "game game-31 over" in logged
    for secret in ("sheriff", "don", "mafia", "civilian", "check", "answer"):
        assert secret not in logged


def test_an_abandoned_game_writes_its_protocol_as_it_stands(tmp_path: Path) -> None:
    session, _ = GameSession.start(tmp_path, header(32), FakeWall())
    for _ in range(30):
        session.apply(WindowClosed(session.game.state.window), at=0.0)
    files = session.abandon()
    assert files is not None
    data = json.loads(files.json.read_text())
    assert not data["over"] and data["winner"] is None
    assert data["stands"]["phase"] in ("night", "day")
    # When it was abandoned: a rating organiser dates the table's games by it (found at a
    # club evening: an abandoned game's protocol had no end time).
    assert data["abandoned"] and data["game"]["finished"] >= data["game"]["started"] != ""
    assert files.polemica is not None and not read_record(files.polemica).finished
    assert GameSession.resume(tmp_path) is None  # the next start is a new game
