"""The journal under faults: a slow disk, a full or read-only one, a torn batch. The box
acts on an action only once it is on disk, but never waits for the disk at night."""

from __future__ import annotations

import asyncio
import errno
import itertools
import json
import os
import threading
import time
from pathlib import Path

import pytest

from narrator.clock import FakeClock
from narrator.daemon import GO_ON_SECONDS, Box
from narrator.engine.actions import Tap
from narrator.engine.tasks import CallOut
from narrator.performer import Performer
from narrator.phrases.book import PhraseBook
from narrator.records.disk import FileOps, ThreadDisk
from narrator.records.fake_disk import ClockDisk
from narrator.records.journal import GameHeader, read
from narrator.records.session import GameSession
from narrator.voice.fake import FakeSpeaker
from narrator.windows import WindowTimers
from tests.devices.helpers import tick
from tests.faults.disk_box import box_on_disk

SPORT = ("civilian",) * 6 + ("sheriff", "mafia", "mafia", "don")


def night_beats(tmp_path: Path, taps: int) -> tuple[list[float], ClockDisk]:
    """Call-out start times of night 1 on a disk whose fsync takes 100 ms, with `taps`
    taps in every call-out window."""
    clock = FakeClock()
    disks: list[ClockDisk] = []

    def disk(fd: int) -> ClockDisk:
        disks.append(ClockDisk(clock, 0.1, fd))
        return disks[-1]

    async def main() -> list[float]:
        header = GameHeader(rules="sport", seats=10, seed=3, roles=SPORT, game_id="t",
                            started="2025-01-01T20:00:00")
        session, opening = GameSession.start(tmp_path, header, wall=lambda: 1.7e9, disk=disk)
        boxes: list[Box] = []
        timers = WindowTimers(clock, on_expire=lambda w: boxes[0].window_expired(w))
        performer = Performer(FakeSpeaker(clock), PhraseBook.load("en"), timers)
        box = Box(session, performer, clock)
        boxes.append(box)
        box.start(opening)
        tapped: set[int] = set()
        for _ in range(50_000):
            st = box.game.state
            if st.phase_label() == "night-1" and isinstance(st.current, CallOut) \
                    and timers.is_open(st.window) and st.window not in tapped:
                tapped.add(st.window)
                for i in range(taps):
                    box.submit(Tap(i % 10 + 1))
            if performer.phase == "day-2":
                break
            await clock.step()
        await box.stop()
        session.journal.close()
        return [s.at for s in performer.spoken if s.phase == "night-1" and s.cue == "callout"]

    return asyncio.run(main()), disks[0]


def test_the_night_beat_is_the_same_with_no_taps_or_ten(tmp_path: Path) -> None:
    quiet, quiet_disk = night_beats(tmp_path / "quiet", 0)
    busy, busy_disk = night_beats(tmp_path / "busy", 10)
    assert len(quiet) == len(busy) == 30
    beats = [b - a for a, b in itertools.pairwise(quiet)]
    busy_beats = [b - a for a, b in itertools.pairwise(busy)]
    assert max(abs(a - b) for a, b in zip(beats, busy_beats, strict=True)) <= 0.005
    assert max(abs(a - b) for a, b in zip(quiet, busy, strict=True)) <= 0.005
    # ... and every tap is in the journal, in order, though none asked for an fsync.
    assert len(busy_disk.lines) - len(quiet_disk.lines) >= 30 * 10
    assert busy_disk.fsyncs == quiet_disk.fsyncs


class FullDisk(FileOps):
    """Fails `n` times (half a write, then ENOSPC; or the fsync: EROFS), then works."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.calls = 0

    def write(self, fd: int, data: bytes) -> int:
        self.calls += 1
        if self.n > 0 and self.calls % 2:
            self.n -= 1
            os.write(fd, data[: len(data) // 2])  # a torn batch in the middle of the file
            raise OSError(errno.ENOSPC, "No space left on device")
        return super().write(fd, data)

    def fsync(self, fd: int) -> None:
        if self.n > 0:
            self.n -= 1
            raise OSError(errno.EROFS, "Read-only file system")
        super().fsync(fd)


def test_a_full_disk_is_retried_and_nothing_is_lost(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    events: list[str] = []
    disk = ThreadDisk(fd, on_fault=lambda exc: events.append(f"fault {exc.errno}"),
                      on_recover=lambda: events.append("ok"), ops=FullDisk(5),
                      sleep=lambda _s: None)
    for i in range(20):
        disk.write(json.dumps({"n": i}).encode() + b"\n")
        if i % 4 == 3:
            disk.sync()
    disk.sync().result(timeout=10)
    disk.close()
    os.close(fd)
    lines = path.read_text().splitlines()
    assert [json.loads(line)["n"] for line in lines] == list(range(20))
    assert disk.faults == 5
    assert events[0].startswith("fault") and events[-1] == "ok"


def test_the_box_says_a_technical_pause_and_goes_on(tmp_path: Path) -> None:
    """The writer thread fails: the box says so, stops the timers and shows the error;
    when the disk is back the queued action is carried out and the game goes on."""
    clock = FakeClock()
    gate = threading.Event()
    faults: list[str | None] = []

    class Stuck(FileOps):
        def fsync(self, fd: int) -> None:
            if not gate.is_set():
                raise OSError(errno.EIO, "Input/output error")
            super().fsync(fd)

    async def main() -> tuple[list[str], list[str]]:
        made = box_on_disk(tmp_path, clock, Stuck())
        box, session, speaker, timers, until = made.box, made.session, made.speaker, made.timers, made.until
        box.on_fault.append(faults.append)
        made.start()
        await until(lambda: box.disk_fault is not None)
        assert timers.paused
        before = box.game.state.window
        clock.advance(GO_ON_SECONDS - 1)  # as long as a pause lasts (then: test_card_faults)
        for _ in range(20):
            await asyncio.sleep(0)
        assert box.game.state.window == before  # the game waits: no timer runs out
        gate.set()
        await until(lambda: box.disk_fault is None)
        for _ in range(100):
            await clock.step()
        await box.stop()
        session.journal.close()
        return [t for _a, t in speaker.said], [line for line in (tmp_path / "journal" /
                                                                  "current.jsonl").read_text().splitlines()]

    said, lines = asyncio.run(main())
    assert "Technical pause. Please wait." in said
    assert said.index("The technical pause is over. We continue.") > said.index(
        "Technical pause. Please wait.")
    assert faults[0] is not None and faults[-1] is None
    assert len(lines) > 2 and read(tmp_path / "journal" / "current.jsonl").entries


def test_the_game_ending_action_is_carried_out_with_the_writer_thread(tmp_path: Path) -> None:
    """`narrator run`'s writer thread: the action that ends the game archives the journal
    (the writer stops) and then its effects wait for a sync. They must still be carried
    out: the winner said, the game over for the evening, which waits for it to start the
    next game. (The sync used to be queued to the stopped writer and never settled: the
    box fell silent after the first game's last action and the evening stopped there.)"""
    from narrator.engine.actions import Forfeit

    clock = FakeClock()

    async def main() -> list[str]:
        header = GameHeader(rules="sport", seats=10, seed=3, roles=SPORT, game_id="t",
                            started="2025-01-01T20:00:00")
        session, opening = GameSession.start(tmp_path, header, wall=lambda: 1.7e9,
                                             disk=lambda fd: ThreadDisk(fd))
        speaker = FakeSpeaker(clock)
        boxes: list[Box] = []
        timers = WindowTimers(clock, on_expire=lambda w: boxes[0].window_expired(w))
        box = Box(session, Performer(speaker, PhraseBook.load("en"), timers), clock)
        boxes.append(box)
        box.start(opening)
        box.apply_now(Forfeit(8))  # a mafioso's severe breach: the game ends at once
        over = asyncio.get_running_loop().create_task(box.wait_over())
        deadline = time.monotonic() + 30
        while not over.done():
            assert time.monotonic() < deadline, "the game's last effects were never carried out"
            if not await clock.step():
                await asyncio.sleep(0.001)  # the writer thread's turn
        assert over.result() is not None
        await box.stop()
        return [t for _a, t in speaker.said]

    said = asyncio.run(main())
    assert "The town wins." in said


def test_a_sync_after_close_is_done(tmp_path: Path) -> None:
    fd = os.open(tmp_path / "j", os.O_WRONLY | os.O_CREAT, 0o600)
    disk = ThreadDisk(fd)
    disk.write(b"line\n")
    disk.close()
    assert disk.sync().done()
    os.close(fd)
    assert (tmp_path / "j").read_bytes() == b"line\n"


@pytest.mark.parametrize("mode", [0o600])
def test_the_journal_is_private(tmp_path: Path, mode: int) -> None:
    header = GameHeader(rules="sport", seats=10, seed=3, roles=SPORT, game_id="t",
                        started="2025-01-01T20:00:00")
    session, _ = GameSession.start(tmp_path, header, wall=lambda: 1.7e9)
    session.journal.close()
    assert (tmp_path / "journal" / "current.jsonl").stat().st_mode & 0o777 == mode


def test_a_corrupt_line_resumes_the_good_prefix_and_keeps_the_tail(tmp_path: Path) -> None:
    from narrator.engine.actions import WindowClosed

    header = GameHeader(rules="sport", seats=10, seed=3, roles=SPORT, game_id="t",
                        started="2025-01-01T20:00:00")
    session, _ = GameSession.start(tmp_path, header, wall=lambda: 1.7e9)
    for _ in range(6):
        session.apply(WindowClosed(session.game.state.window), at=1.0)
    state = session.game.state.to_json()
    for _ in range(3):
        session.apply(WindowClosed(session.game.state.window), at=2.0)
    session.journal.close()
    path = tmp_path / "journal" / "current.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    assert len(lines) == 10
    lines[7] = b'{"at": 2.0, "wall": "x", "action": ' + b"[" * 100_000 + b"\n"  # 8th line
    path.write_bytes(b"".join(lines))
    found = GameSession.resume(tmp_path, wall=lambda: 1.7e9 + 60)
    assert found is not None
    resumed, _ = found
    assert resumed.game.state.to_json() == state
    side = resumed.journal.repaired
    assert side is not None and side.name.startswith("current.bad-")
    assert time.strftime("%Y%m%d-%H%M%S", time.localtime(1.7e9 + 60)) in side.name  # a time to read
    assert side.read_bytes() == b"".join(lines[7:])
    assert side.stat().st_mode & 0o777 == 0o600
    assert len(path.read_bytes().splitlines()) == 7
    resumed.journal.close()


def test_a_resumed_damaged_journal_is_said(tmp_path: Path) -> None:
    from narrator.status import BOX_CUES

    assert "journal_repaired" in BOX_CUES
    assert PhraseBook.load("ru").render("journal_repaired", {})
    assert PhraseBook.load("en").render("journal_repaired", {}).startswith("The game record")


def test_an_action_is_said_and_lit_only_once_its_journal_line_is_on_disk(tmp_path: Path) -> None:
    """Issue 33: nothing failed when the daemon carried effects out before the journal's
    fsync (a one-line change in Box.apply_now). A foul in the day on a disk whose fsync
    takes 2 s: the table hears of it and its seat changes only after the line is synced,
    and the line is in the journal file by then."""
    from narrator.engine.actions import Foul

    clock = FakeClock()
    disks: list[ClockDisk] = []

    def disk(fd: int) -> ClockDisk:
        disks.append(ClockDisk(clock, 2.0, fd))
        return disks[-1]

    async def main() -> None:
        header = GameHeader(rules="sport", seats=10, seed=3, roles=SPORT, game_id="t",
                            started="2025-01-01T20:00:00")
        session, opening = GameSession.start(tmp_path, header, wall=lambda: 1.7e9, disk=disk)
        boxes: list[Box] = []
        timers = WindowTimers(clock, on_expire=lambda w: boxes[0].window_expired(w))
        performer = Performer(FakeSpeaker(clock), PhraseBook.load("en"), timers)
        box = Box(session, performer, clock)
        boxes.append(box)
        heard: list[float] = []
        box.listeners.append(lambda action, _e: heard.append(clock.now())
                             if isinstance(action, Foul) else None)
        box.start(opening)
        for _ in range(50_000):
            st = box.game.state
            if st.phase == "day" and timers.is_open(st.window):
                break
            await clock.step()
        disk_now = disks[0]
        await tick(clock, 2.5, step=0.1)  # the disk is idle: every line so far is synced
        fsyncs, said = disk_now.fsyncs, len(performer.spoken)
        at = clock.now()
        box.apply_now(Foul(3), "page")
        assert box.game.state.fouls[3] == 1  # the engine took it...
        for _ in range(19):
            await tick(clock, 0.1)
            # ...but nothing of it is said, lit or shown before its line is on disk
            assert not [s for s in performer.spoken[said:] if "foul" in s.cue], performer.spoken[said:]
            assert heard == [] and disk_now.fsyncs == fsyncs
        await tick(clock, 5.0, step=0.1)
        assert heard and heard[0] >= at + 2.0 and disk_now.fsyncs == fsyncs + 1
        foul_said = [s for s in performer.spoken[said:] if "foul" in s.cue]
        assert foul_said and foul_said[0].at >= at + 2.0
        assert b'"foul"' in disk_now.lines[-1]  # the line the fsync covered
        await box.stop()
        session.journal.close()

    asyncio.run(main())
