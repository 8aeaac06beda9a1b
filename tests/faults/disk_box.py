"""A box whose journal goes through a real writer thread on a disk that fails as a test
says: the set-up the journal-fault and card-fault tests share."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from narrator.box.build import build
from narrator.box.referee import Box
from narrator.box.windows import WindowTimers
from narrator.clock import FakeClock
from narrator.engine.effects import Effect
from narrator.phrases.book import PhraseBook
from narrator.records.disk import FileOps, ThreadDisk
from narrator.records.journal import GameHeader
from narrator.records.session import GameSession
from narrator.voice.fake import FakeSpeaker

SPORT = ("civilian",) * 6 + ("sheriff", "mafia", "mafia", "don")


@dataclass
class DiskBox:
    box: Box
    session: GameSession
    speaker: FakeSpeaker
    timers: WindowTimers
    clock: FakeClock
    opening: list[Effect]

    def start(self) -> None:
        self.box.start(self.opening)

    async def until(self, done: Callable[[], bool]) -> None:
        for _ in range(20_000):
            if done():
                return
            if not await self.clock.step():
                await asyncio.sleep(0.001)  # the writer thread's turn
        raise AssertionError("never happened")


def box_on_disk(tmp_path: Path, clock: FakeClock, ops: FileOps) -> DiskBox:
    """A sport game at 10 seats, made (not started) inside the running loop; its writer
    thread retries every millisecond of real time."""
    boxes: list[Box] = []

    def disk(fd: int) -> ThreadDisk:
        return ThreadDisk(fd, on_fault=lambda e: boxes[0].disk_failed(e),
                          on_recover=lambda: boxes[0].disk_recovered(), ops=ops,
                          sleep=lambda _s: time.sleep(0.001))

    header = GameHeader(rules="sport", seats=10, seed=3, roles=SPORT, game_id="t",
                        started="2025-01-01T20:00:00")
    session, opening = GameSession.start(tmp_path, header, wall=lambda: 1.7e9, disk=disk)
    speaker = FakeSpeaker(clock)
    box = build(session, speaker, PhraseBook.load("en"), clock)
    boxes.append(box)
    return DiskBox(box, session, speaker, box.performer.timers, clock, opening)
