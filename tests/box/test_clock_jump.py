"""The wall clock jumping back or forward mid-game (NTP catching up on a Pi with no RTC,
someone setting the date) changes no timer: the box times everything on its monotonic
clock; the wall clock only stamps journal lines and protocols (issue 13).

The same game is played twice on the same FakeClock (the monotonic clock's stand-in):
once with a steady wall clock, once with one that jumps back an hour, forward a day and
back ten minutes. Every word is said at the same moment, the game ends the same way, the
journal shows the jumps, and the protocols tell the same game.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from pathlib import Path

import pytest

from narrator.clock import FakeClock, MonotonicClock
from narrator.devices.keypads import FakeKeypad
from tests.box.test_service import drive, make_service, start

EPOCH = 1.7e9
JUMPS = [(200.0, -3600.0), (500.0, 86_400.0), (800.0, -600.0)]  # (at, by) on the clock


def play(tmp: Path, jumping: bool) -> tuple[list[tuple[float, str]], list[float], Path]:
    clock = FakeClock()

    def wall() -> float:
        offset = sum(by for at, by in JUMPS if jumping and clock.now() >= at)
        return EPOCH + clock.now() + offset

    async def main() -> list[tuple[float, str]]:
        keypad = FakeKeypad()
        service, _panel, speaker = make_service(tmp, clock, keypad)
        service.wall = wall
        keypad.attach(service.submit)
        task = await start(service)
        await drive(clock, task)
        await task
        return list(speaker.said)

    said = asyncio.run(main())
    state = tmp / "state"
    journals = sorted((state / "games").glob("*.jsonl"))  # the finished game's journal
    walls = [json.loads(line)["wall"] for path in journals
             for line in path.read_text().splitlines() if '"wall"' in line]
    return said, walls, state


def test_a_wall_clock_jump_moves_no_timer(tmp_path: Path) -> None:
    steady, steady_walls, _ = play(tmp_path / "steady", jumping=False)
    jumped, jumped_walls, state = play(tmp_path / "jumped", jumping=True)
    assert steady == jumped  # every cue at the same moment, the same game to the end
    assert steady[-1][0] > JUMPS[-1][0]  # the game outlasted every jump
    # The jumps happened: the journal's wall stamps went back and forward.
    steps = [b - a for a, b in itertools.pairwise(jumped_walls)]
    assert min(steps) < -500 and max(steps) > 80_000
    assert all(b >= a for a, b in itertools.pairwise(steady_walls))
    # The protocols are written and tell the same game (only their time stamps differ).
    results = []
    for folder in (tmp_path / "steady" / "state", state):
        protocol = next(p for p in (folder / "protocols").glob("*.json")
                        if not p.name.endswith(".polemica.json"))
        data = json.loads(protocol.read_text())
        results.append((data["winner"], data["reason"], data["seats"]))
    assert results[0] == results[1]


def test_the_real_clock_ignores_the_wall_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = MonotonicClock()
    before = clock.now()
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() - 86_400)  # a day back
    after = clock.now()
    assert 0 <= after - before < 60
