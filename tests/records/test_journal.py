"""The journal: on disk before the effects, private, and a killed game resumes exactly."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import random
import stat
from pathlib import Path
from typing import Any

import pytest

from narrator.engine.actions import Action, Undo, Vote, action_from_json
from narrator.engine.state import State
from narrator.errors import RecordError, RuleError
from narrator.records import disk as disk_mod
from narrator.records.journal import CURRENT, GameHeader, Journal, games_dir, journal_dir, read
from narrator.records.session import GameSession
from tests.records.helpers import FakeWall, drive, header


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def record_game(state_dir: Path, seed: int, stop_after: int | None = None,
                undo_rate: float = 0.0) -> tuple[GameSession, list[dict[str, Any]]]:
    """Play a game in a session; returns it and the state (as JSON) after each action,
    index 0 being the opening. Stops early after `stop_after` actions if given."""
    session, _ = GameSession.start(state_dir, header(seed), FakeWall())
    states = [session.game.state.to_json()]

    class Stop(Exception):
        pass

    def apply(action: Action) -> None:
        if stop_after is not None and len(states) > stop_after:
            raise Stop
        session.apply(action, at=float(len(states)))
        states.append(session.game.state.to_json())

    with contextlib.suppress(Stop):
        drive("sport", seed, apply, lambda: session.game.state, undo_rate=undo_rate)
    return session, states


def test_every_action_is_a_line_written_before_apply_returns(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real_fsync = os.fsync

    def counting_fsync(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", counting_fsync)
    session, _ = record_game(tmp_path, seed=3, stop_after=40)
    path = journal_dir(tmp_path) / CURRENT
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b""  # every line is complete
    assert len(lines) - 1 == 1 + 40  # the header and one line per action
    first = json.loads(lines[0])
    assert first["journal"] == 1
    assert first["header"]["roles"] == list(header(3).roles or ())
    for raw in lines[1:-1]:
        entry = json.loads(raw)
        action_from_json(entry["action"])  # each is a real action
        assert isinstance(entry["at"], float) and isinstance(entry["wall"], float)
    # One fsync per line at least (directories are synced too, on create).
    assert len(synced) >= 41
    # While the game runs the journal is private: 0600 in a 0700 folder.
    assert mode(path) == 0o600
    assert mode(journal_dir(tmp_path)) == 0o700
    session.journal.close()


def test_an_existing_journal_is_made_private_on_resume(tmp_path: Path) -> None:
    session, states = record_game(tmp_path, seed=4, stop_after=25)
    session.journal.close()
    path = journal_dir(tmp_path) / CURRENT
    os.chmod(path, 0o644)
    os.chmod(journal_dir(tmp_path), 0o755)
    resumed = GameSession.resume(tmp_path, FakeWall())
    assert resumed is not None
    assert mode(path) == 0o600
    assert mode(journal_dir(tmp_path)) == 0o700
    assert resumed[0].game.state.to_json() == states[-1]
    resumed[0].journal.close()


def _complete_lines(data: bytes) -> int:
    return data.count(b"\n")


def test_a_torn_last_line_is_dropped_at_every_byte_offset(tmp_path: Path,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    session, states = record_game(tmp_path / "orig", seed=5, stop_after=120, undo_rate=0.05)
    session.journal.close()
    data = (journal_dir(tmp_path / "orig") / CURRENT).read_bytes()
    # Where each line starts (and the file's end): cutting there tears nothing.
    starts = [i + 1 for i, b in enumerate(data) if b == ord("\n")]
    last_two = starts[-3]
    # Every offset of the last two lines, and a spread of offsets through the whole file.
    offsets = set(range(last_two, len(data) + 1))
    offsets |= set(random.Random(5).sample(range(starts[0] + 1, last_two), 60))
    caplog.set_level(logging.WARNING, logger="narrator.records.journal")
    for n, cut in enumerate(sorted(offsets)):
        folder = tmp_path / f"cut{n}"
        jdir = journal_dir(folder)
        jdir.mkdir(parents=True)
        (jdir / CURRENT).write_bytes(data[:cut])
        caplog.clear()
        found = Journal.resume(folder)
        assert found is not None, cut
        journal, game = found
        journal.close()
        actions = _complete_lines(data[:cut]) - 1
        assert game.state.to_json() == states[actions], f"cut at byte {cut}"
        torn = cut not in starts
        warned = any("cut off" in r.getMessage() for r in caplog.records)
        assert warned == torn, cut
        # The torn tail is gone from the file, so the next line starts clean.
        assert (jdir / CURRENT).read_bytes() == data[:max(s for s in starts if s <= cut)]


def test_a_garbled_last_line_counts_as_torn(tmp_path: Path) -> None:
    session, states = record_game(tmp_path, seed=6, stop_after=30)
    session.journal.close()
    path = journal_dir(tmp_path) / CURRENT
    with open(path, "ab") as f:
        f.write(b"\x00\x00\x00\x00\n")  # a power cut can leave zeros where a line was going
    found = Journal.resume(tmp_path)
    assert found is not None
    found[0].close()
    assert found[1].state.to_json() == states[-1]


def test_a_corrupt_line_in_the_middle_names_the_file_and_line(tmp_path: Path) -> None:
    session, _ = record_game(tmp_path, seed=7, stop_after=30)
    session.journal.close()
    path = journal_dir(tmp_path) / CURRENT
    lines = path.read_bytes().split(b"\n")
    lines[10] = lines[10][:20]
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(RecordError) as err:
        read(path)
    assert str(path) in str(err.value) and "line 11" in str(err.value)
    # At start-up the game resumes from the ten good lines; the rest is kept aside.
    found = Journal.resume(tmp_path)
    assert found is not None and found[0].lines == 10 and found[0].repaired is not None
    assert found[0].repaired.read_bytes().startswith(lines[10])
    found[0].close()


def test_an_action_the_engine_refuses_names_its_line(tmp_path: Path) -> None:
    session, _ = record_game(tmp_path, seed=8, stop_after=5)
    session.journal.close()
    path = journal_dir(tmp_path) / CURRENT
    with open(path, "a") as f:
        f.write(json.dumps({"at": 9.0, "wall": 1.0, "action": {"kind": "vote", "voter": 3}}) + "\n")
    lines = len(path.read_text().splitlines())
    found = Journal.resume(tmp_path)
    assert found is not None and found[0].lines == lines - 1
    assert found[0].repaired is not None and b'"vote"' in found[0].repaired.read_bytes()
    found[0].close()


def test_a_bad_header_is_a_record_error(tmp_path: Path) -> None:
    path = journal_dir(tmp_path) / CURRENT
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"journal": 1, "header": {"rules": "sport", "seats": "ten"}}) + "\n")
    with pytest.raises(RecordError, match="line 1"):
        Journal.resume(tmp_path)


def test_a_torn_header_sets_the_file_aside(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = journal_dir(tmp_path) / CURRENT
    path.parent.mkdir(parents=True)
    path.write_text('{"journal": 1, "hea')
    assert Journal.resume(tmp_path) is None
    assert not path.exists()
    assert "no complete header" in caplog.text


def test_a_finished_game_is_archived_and_the_next_start_is_new(tmp_path: Path) -> None:
    session, states = record_game(tmp_path, seed=9)
    assert session.over
    assert not (journal_dir(tmp_path) / CURRENT).exists()
    archived = games_dir(tmp_path) / "game-9.jsonl"
    assert mode(archived) == 0o600 and mode(games_dir(tmp_path)) == 0o700
    contents = read(archived)
    assert contents.ended and contents.end is not None
    assert contents.end.winner == session.game.state.outcome.winner  # type: ignore[union-attr]
    assert len(contents.entries) == len(states) - 1
    assert GameSession.resume(tmp_path) is None


def test_a_game_that_ended_before_its_files_were_written_is_completed(tmp_path: Path) -> None:
    session, _ = record_game(tmp_path, seed=10)
    assert session.files is not None
    want = json.loads(session.files.json.read_text())
    archived = games_dir(tmp_path) / "game-10.jsonl"
    # Put the journal back as it was just before `finish`: every action, no end line.
    lines = archived.read_text().splitlines(keepends=True)[:-1]
    archived.unlink()
    for f in (tmp_path / "protocols").iterdir():
        f.unlink()
    (journal_dir(tmp_path) / CURRENT).write_text("".join(lines))
    assert GameSession.resume(tmp_path, FakeWall()) is None
    got = json.loads((tmp_path / "protocols" / "game-10.json").read_text())
    assert read(archived).ended
    for p in (got, want):
        p["game"]["finished"] = ""
    assert got == want


def test_create_sets_a_leftover_game_aside(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    session, _ = record_game(tmp_path, seed=11, stop_after=10)
    session.journal.close()
    again, _ = GameSession.start(tmp_path, header(12), FakeWall())
    again.journal.close()
    assert (games_dir(tmp_path) / "game-11-abandoned.jsonl").exists()
    assert "set aside" in caplog.text
    assert read(journal_dir(tmp_path) / CURRENT).header.seed == 12


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_a_game_killed_at_random_moments_ends_as_if_uninterrupted(tmp_path: Path, seed: int) -> None:
    straight, _ = record_game(tmp_path / "straight", seed, undo_rate=0.03)
    assert straight.files is not None
    want_state = straight.game.state.to_json()
    want_protocol = json.loads(straight.files.json.read_text())

    folder = tmp_path / "killed"
    wall = FakeWall()
    box: list[GameSession] = [GameSession.start(folder, header(seed), wall)[0]]
    rng = random.Random(seed)
    kills = 0
    count = [0]

    def apply(action: Action) -> None:
        nonlocal kills
        if not isinstance(action, Undo) and rng.random() < 0.04:
            # The cord is kicked: sometimes mid-write, leaving half a line.
            box[0].journal.close()
            if rng.random() < 0.5:
                with open(journal_dir(folder) / CURRENT, "ab") as f:
                    f.write(json.dumps({"at": 1.0, "action": action.to_json()}).encode()[:17])
            found = GameSession.resume(folder, wall)
            assert found is not None
            box[0] = found[0]
            kills += 1
        count[0] += 1
        box[0].apply(action, at=float(count[0]))

    drive("sport", seed, apply, lambda: box[0].game.state, undo_rate=0.03)
    assert kills >= 3
    assert box[0].game.state.to_json() == want_state
    assert box[0].files is not None
    got = json.loads(box[0].files.json.read_text())
    assert got == want_protocol


def test_a_refused_action_writes_nothing(tmp_path: Path) -> None:
    session, _ = GameSession.start(tmp_path, header(13), FakeWall())
    before = (journal_dir(tmp_path) / CURRENT).read_bytes()
    with pytest.raises(RuleError):
        session.apply(Vote(3), at=1.0)  # no ballot at night zero
    assert (journal_dir(tmp_path) / CURRENT).read_bytes() == before
    session.journal.close()


def test_a_failing_disk_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session, _ = record_game(tmp_path, seed=14, stop_after=20)
    state: State = session.game.state
    history = list(session.game.history)

    def full(fd: int, data: bytes) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(disk_mod, "write_all", full)
    with pytest.raises(OSError):
        session.apply(Undo(), at=99.0)
    assert session.game.state is state and session.game.history == history
    session.journal.close()


def test_header_round_trips_and_rejects_unknown_keys() -> None:
    h = header(15)
    assert GameHeader.from_json(h.to_json(), "x") == h
    with pytest.raises(RecordError, match="unknown header keys"):
        GameHeader.from_json({**h.to_json(), "colour": "red"}, "x")


def test_the_time_a_window_had_left_is_kept_for_an_undo_after_a_restart(tmp_path: Path) -> None:
    session, _ = GameSession.start(tmp_path, header(7), FakeWall())
    game = session.game
    action = next(a for a in game.legal() if not isinstance(a, Undo))
    session.apply(action, at=1.0, left=21.3)
    session.journal.close()
    path = journal_dir(tmp_path) / CURRENT
    lines = path.read_text().splitlines()
    assert json.loads(lines[1])["left"] == 21.3
    resumed = GameSession.resume(tmp_path, FakeWall())
    assert resumed is not None and resumed[0].game.taken[-1].left == 21.3
    resumed[0].journal.close()
    # A "left" that is no number of seconds is a bad line, named with its file and line.
    bad = json.loads(lines[1]) | {"left": "soon"}
    path.write_text("\n".join([lines[0], json.dumps(bad)]) + "\n")
    with pytest.raises(RecordError) as err:
        read(path)
    assert str(path) in str(err.value) and "line 2" in str(err.value) and "left" in str(err.value)
