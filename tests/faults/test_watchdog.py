"""The systemd watchdog is fed only while the game progresses."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from narrator.box.build import build
from narrator.box.service import Service
from narrator.box.session import Unrecorded
from narrator.clock import FakeClock
from narrator.engine.game import Game
from narrator.phrases.book import PhraseBook
from narrator.rules.loader import load_bundled
from narrator.voice.fake import FakeSpeaker

SPORT = ("civilian",) * 6 + ("sheriff", "mafia", "mafia", "don")


class HangingSpeaker(FakeSpeaker):
    """A speaker whose device call never returns (after `ok` cues)."""

    def __init__(self, clock: FakeClock, ok: int) -> None:
        super().__init__(clock)
        self.ok = ok

    async def say(self, text: str) -> None:
        if self.ok <= 0:
            await asyncio.Event().wait()
        self.ok -= 1
        await super().say(text)


class Pings:
    def __init__(self) -> None:
        self.count = 0

    def watchdog(self) -> bool:
        self.count += 1
        return True


def run_box(ok: int, seconds: float) -> tuple[str | None, int]:
    clock = FakeClock()

    async def main() -> tuple[str | None, int]:
        game = Game(load_bundled("sport"), 10, 3, SPORT)
        box = build(Unrecorded(game), HangingSpeaker(clock, ok), PhraseBook.load("en"), clock)
        box.start(list(game.opening))
        service = Service.__new__(Service)
        service.playing = SimpleNamespace(box=box)  # type: ignore[assignment]
        service.clock, service.notifier = clock, Pings()  # type: ignore[assignment]
        watchdog = asyncio.get_running_loop().create_task(service._watchdog())
        while clock.now() < seconds:
            if not await clock.step():
                clock.advance(1.0)
        problem = box.health()
        watchdog.cancel()
        await box.stop()
        return problem, service.notifier.count  # type: ignore[attr-defined]

    return asyncio.run(main())


@pytest.fixture(autouse=True)
def watchdog_env(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    monkeypatch.setenv("WATCHDOG_USEC", "20000000")  # WatchdogSec=20: a ping every 10 s
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))


def test_a_game_that_progresses_feeds_the_watchdog() -> None:
    problem, pings = run_box(ok=10_000, seconds=600)
    assert problem is None
    assert pings >= 59


def test_a_port_that_never_returns_stops_the_feeding() -> None:
    problem, pings = run_box(ok=3, seconds=600)
    assert problem is not None and "stuck" in problem and "say" in problem
    # Fed until the port had hung for 90 s (the first cues take about a minute and a
    # half), then never again: 60 pings had it gone on.
    assert pings <= 20
