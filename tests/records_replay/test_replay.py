"""The real games in tests/data/polemica (copied from the club records) replay through the
sport engine in agreement."""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import json
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.engine.tasks import Speech
from narrator.records.polemica import read_record
from narrator.records.replay import replay, settings_needed
from narrator.records.script import estimated_timeline
from narrator.rules.loader import load_bundled

DATA = Path(__file__).resolve().parents[1] / "data" / "polemica"
GAMES = sorted(DATA.glob("*.json"))

# Who left, when and how, worked out by hand from each record (README of the data set).
EXPECTED = {
    "270561": ("red", [(1, "night", 1, "shot"), (2, "day", 2, "vote"), (10, "night", 2, "shot"),
                       (8, "day", 3, "vote"), (6, "night", 3, "shot"), (7, "day", 4, "vote"),
                       (4, "night", 4, "shot")]),
    "272910": ("black", [(1, "day", 1, "vote"), (8, "night", 1, "shot"), (3, "day", 2, "vote"),
                         (5, "day", 2, "fouls"), (6, "night", 2, "shot"), (10, "night", 3, "shot")]),
    "328635": (None, [(3, "day", 2, "vote")]),
    "333915": (None, [(10, "night", 1, "shot")]),
    "334187": ("red", [(4, "night", 1, "shot"), (8, "day", 2, "vote"), (2, "day", 3, "vote"),
                       (1, "night", 3, "shot"), (5, "night", 4, "shot"), (7, "day", 5, "vote"),
                       (10, "night", 5, "shot"), (9, "day", 6, "vote")]),
    "598995": ("black", [(7, "night", 1, "shot"), (8, "day", 2, "vote"), (9, "night", 2, "shot"),
                         (2, "day", 3, "vote"), (5, "day", 4, "lifted"), (4, "day", 4, "lifted"),
                         (6, "night", 4, "shot"), (3, "day", 5, "vote")]),
}


def test_all_six_games_are_here() -> None:
    assert {p.stem for p in GAMES} == set(EXPECTED)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_replay_agrees_with_the_record(path: Path) -> None:
    result = replay(load_bundled("sport"), read_record(path), estimated_timeline())
    assert result.disagreement is None
    winner, eliminations = EXPECTED[path.stem]
    assert result.winner == winner
    assert [(e["seat"], e["phase"], e["number"], e["how"]) for e in result.eliminations()] == eliminations


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_replay_json_contract(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"winner", "eliminations", "timeline", "settings"}
    # The vote rule the record needed: 272910 skips day 3's vote after a removal that
    # was no nominee's (tournament practice); the others show nothing against 001.
    assert out["settings"]["fouls.cancel_vote"] == ("nearest" if path.stem == "272910" else
                                                    load_bundled("sport").fouls.cancel_vote)
    # The third foul: 334187's players nominate in the turn a third foul cost them
    # (tournament practice); 001's "loses their next speech" holds for the others.
    assert out["settings"]["third_foul"] == ("tournament" if path.stem == "334187" else "lost")
    assert out["winner"] == EXPECTED[path.stem][0]
    for e in out["eliminations"]:
        assert set(e) == {"seat", "phase", "number", "how"}
        assert e["phase"] in ("day", "night")
        assert e["how"] in ("vote", "shot", "fouls", "removed", "lifted")
    timeline = out["timeline"]
    assert timeline and all(set(t) == {"at", "seconds", "phase", "cue", "text"} for t in timeline)
    assert all(b["at"] >= a["at"] + a["seconds"] - 1e-6 for a, b in itertools.pairwise(timeline))
    assert {t["phase"].split("-")[0] for t in timeline} == {"night", "day"}
    assert all(t["text"] and t["seconds"] > 0 for t in timeline)


def _changed(tmp_path: Path, name: str, change: dict[str, object]) -> Path:
    data = json.loads((DATA / f"{name}.json").read_text())
    data.update(change)
    out = tmp_path / f"{name}.json"
    out.write_text(json.dumps(data))
    return out


def test_a_wrong_winner_is_a_disagreement(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _changed(tmp_path, "270561", {"result": 1})
    assert main(["replay", str(path)]) == 1
    assert "the record says black won, the engine says red" in capsys.readouterr().err


def test_a_vote_by_a_dead_player_is_a_disagreement(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads((DATA / "270561.json").read_text())
    # Seat 1 was shot on night 1; make seat 1 vote on day 2.
    data["votes"].append({"day": 2, "num": 1, "voter": 1, "candidate": 2})
    path = tmp_path / "dead.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 1
    assert "1: 2}" in capsys.readouterr().err


def test_a_vote_on_a_later_day_by_a_dead_player_is_refused(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads((DATA / "270561.json").read_text())
    data["votes"].append({"day": 3, "num": 1, "voter": 1, "candidate": 8})
    path = tmp_path / "dead.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "day 3, vote" in err and "voter 1 is out of the game" in err


def test_a_missed_last_shot_means_the_game_goes_on(tmp_path: Path) -> None:
    data = json.loads((DATA / "270561.json").read_text())
    data["shots"] = [s for s in data["shots"] if s["night"] != 4]
    path = tmp_path / "miss.json"
    path.write_text(json.dumps(data))
    result = replay(load_bundled("sport"), read_record(path), estimated_timeline())
    assert result.disagreement is not None and "still playing" in result.disagreement
    assert all(e["seat"] != 4 for e in result.eliminations())


@pytest.mark.parametrize("content, message", [
    ("not json", "not valid JSON"),
    ('{"players": 3}', "players: expected a list"),
    ('{"players": []}', "a sports game has 10 players"),
    ("[]", "(top): expected an object"),
])
def test_malformed_records_exit_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and str(path) in err and "\n" not in err


def test_bad_field_inside_a_record_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads((DATA / "598995.json").read_text())
    data["votes"][3]["voter"] = 42
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 2
    assert "votes[3].voter: expected a whole number 1-10, got 42" in capsys.readouterr().err


def test_missing_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["replay", str(tmp_path / "none.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_russian_timeline(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(DATA / "598995.json"), "--json", "--lang", "ru"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert any("игрок" in t["text"].lower() for t in out["timeline"])


def test_jitter_is_seeded_and_off_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(DATA / "270561.json")
    runs = []
    for extra in ([], [], ["--jitter", "2", "--seed", "5"], ["--jitter", "2", "--seed", "5"]):
        assert main(["replay", path, "--json", *extra]) == 0
        runs.append(json.loads(capsys.readouterr().out)["timeline"])
    assert runs[0] == runs[1] and runs[2] == runs[3] and runs[0] != runs[2]


def test_a_hosts_removal_and_a_night_foul_replay_from_an_export(tmp_path: Path) -> None:
    """A game with a removal by the host (not by fouls) and a foul given at night goes out
    in the Polemica format and replays the same."""
    from narrator.engine.actions import Foul, Remove, WindowClosed
    from narrator.engine.deal import deal
    from narrator.engine.game import Game
    from narrator.records.export_polemica import write_polemica
    from narrator.records.protocol import ProtocolBuilder
    from narrator.sim.players import Table

    rules = load_bundled("sport")
    cards = deal(rules, 10, 11)
    game = Game(rules, 10, 11, cards)
    builder = ProtocolBuilder(rules, 10)
    builder.feed(game.opening)
    table = Table(rules, 11, foul_rate=0.0, cards=cards)
    removed = night_foul = False
    for _ in range(20_000):
        if game.over:
            break
        st = game.state
        if not removed and st.phase == "day" and st.number == 2 and isinstance(st.current, Speech):
            victim = next(s for s in st.living() if cards[s - 1] == "civilian")
            builder.feed(game.apply(Remove(victim)))
            removed = True
            continue
        if not night_foul and st.phase == "night" and st.number == 2:
            builder.feed(game.apply(Foul(st.living()[0])))
            night_foul = True
        for action in table.respond(st):
            with contextlib.suppress(Exception):
                builder.feed(game.apply(action))
        if not game.over:
            builder.feed(game.apply(WindowClosed(game.state.window)))
    assert removed and night_foul and game.over
    out = write_polemica(builder.to_json(), tmp_path / "game.json")
    again = replay(rules, read_record(out), estimated_timeline())
    assert again.disagreement is None, again.disagreement
    assert [(e["seat"], e["how"]) for e in again.eliminations()] == [
        (e.seat, e.how) for e in game.state.eliminations]
    assert any(e["how"] == "removed" for e in again.eliminations())


def test_a_record_picks_the_vote_rule_it_shows(tmp_path: Path) -> None:
    """272910 has no vote on day 3 after seat 5's removal (not a nominee): tournament
    practice. The same record with a day-3 vote shows nothing against 001's rule."""
    assert read_record(DATA / "272910.json").settings["fouls.cancel_vote"] == "nearest"
    data = json.loads((DATA / "272910.json").read_text())
    data["votes"] += [{"day": 3, "num": 1, "voter": v, "candidate": 7} for v in (1, 2, 3)]
    path = tmp_path / "voted.json"
    path.write_text(json.dumps(data))
    game = read_record(path)
    assert "fouls.cancel_vote" not in game.settings and not game.notes
    # Polemica's games are tournament games: the best move is on (not in 000/001).
    assert game.settings["best_move"] is True


def test_a_record_picks_the_third_foul_practice_it_needs() -> None:
    """334187 disagrees with 001's third foul (the turn skipped whole): the replay finds
    the practice (a silent turn to nominate) makes it agree, and says why."""
    sport = load_bundled("sport")
    game = read_record(DATA / "334187.json")
    assert "third_foul" not in game.settings
    strict = replay(sport, dataclasses.replace(game, settings={**game.settings, "third_foul": "lost"}),
                    estimated_timeline())
    assert strict.disagreement is not None
    needed = settings_needed(sport, game)
    assert needed.settings["third_foul"] == "tournament"
    assert any(n.startswith("third_foul: tournament (tournament practice)") for n in needed.notes)
    result = replay(sport, game, estimated_timeline())
    assert result.disagreement is None and result.settings["third_foul"] == "tournament"
    # A record without a third foul is never given the practice.
    plain = read_record(DATA / "270561.json")
    assert settings_needed(sport, plain) is plain


def test_a_record_with_a_second_revote_picks_that_practice(tmp_path: Path) -> None:
    """000/001 send a re-vote tied again to the lift vote, even when fewer are tied; a
    record that holds a third round (the practice of a new re-vote among the fewer tied)
    replays with day.revote_tie_fewer: revote, named in its settings and notes."""
    data = json.loads((DATA / "272910.json").read_text())
    day1 = [v for v in data["votes"] if v["day"] == 1 and v.get("num") in (0, 1)]
    # Day 1: 1, 2 and 3 tie 3-3-3; the re-vote ties 1 and 3 (4-2-4); a third round: 1 leaves.
    again = {1: 2, 2: 1, 3: 1, 4: 1, 5: 1, 6: 3, 7: 3, 8: 2, 9: 3, 10: 3}
    third = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 3, 8: 3, 9: 3, 10: 3}
    data["votes"] = [v for v in data["votes"] if v["day"] != 1] + day1 + [
        {"day": 1, "num": 2, "voter": v, "candidate": c} for v, c in again.items()] + [
        {"day": 1, "num": 3, "voter": v, "candidate": c} for v, c in third.items()]
    path = tmp_path / "second-revote.json"
    path.write_text(json.dumps(data))
    sport = load_bundled("sport")
    game = read_record(path)
    assert replay(sport, game, estimated_timeline()).disagreement is None
    needed = settings_needed(sport, game)
    assert needed.settings["day.revote_tie_fewer"] == "revote"
    assert any(n.startswith("day.revote_tie_fewer: revote") for n in needed.notes)
    strict = replay(sport, dataclasses.replace(
        game, settings={**game.settings, "day.revote_tie_fewer": "lift"}), estimated_timeline())
    assert strict.disagreement is not None
    result = replay(sport, game, estimated_timeline())
    assert result.settings["day.revote_tie_fewer"] == "revote"
    assert [(e["seat"], e["how"]) for e in result.eliminations()][:1] == [(1, "vote")]
    # A record that needs no such round says the documents' rule it was played by.
    plain = replay(sport, read_record(DATA / "598995.json"), estimated_timeline())
    assert plain.disagreement is None and plain.settings["day.revote_tie_fewer"] == "lift"
