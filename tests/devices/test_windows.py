"""Window timers on the Clock port."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from narrator.box.windows import WindowTimers
from narrator.clock import FakeClock, MonotonicClock
from tests.devices.helpers import settle, tick


def run(body: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(body())


def test_a_window_runs_out_at_its_time() -> None:
    async def body() -> None:
        clock = FakeClock()
        done: list[int] = []
        timers = WindowTimers(clock, done.append)
        timers.open(1, 60.0)
        await tick(clock, 59.99, step=1.0)
        assert done == [] and timers.remaining(1) == pytest.approx(0.01)
        await tick(clock, 0.01)
        assert done == [1]
        assert list(timers.fired) == [(1, 60.0)]
        assert not timers.is_open(1)

    run(body)


def test_close_cancels_and_reopening_restarts() -> None:
    async def body() -> None:
        clock = FakeClock()
        done: list[int] = []
        timers = WindowTimers(clock, done.append)
        timers.open(1, 10.0)
        await tick(clock, 5.0)
        timers.close(1)
        timers.close(99)                     # unknown: ignored
        timers.open(2, 10.0)
        await tick(clock, 5.0)
        timers.open(2, 10.0)                 # restarted from now
        await tick(clock, 9.0)
        assert done == []
        await tick(clock, 1.0)
        assert done == [2]

    run(body)


def test_extend_adds_time() -> None:
    async def body() -> None:
        clock = FakeClock()
        done: list[int] = []
        timers = WindowTimers(clock, done.append)
        timers.open(3, 60.0)
        await tick(clock, 50.0)
        timers.extend(3, 30.0)
        await tick(clock, 39.9, step=5.0)
        assert done == []
        await tick(clock, 0.1)
        assert done == [3] and timers.fired[-1] == (3, 90.0)
        with pytest.raises(KeyError):
            timers.extend(3, 10.0)

    run(body)


def test_pause_keeps_the_remaining_time() -> None:
    async def body() -> None:
        clock = FakeClock()
        done: list[int] = []
        timers = WindowTimers(clock, done.append)
        timers.open(4, 30.0)
        await tick(clock, 20.0)
        timers.pause()
        await tick(clock, 300.0, step=10.0)  # a long pause
        assert done == [] and timers.remaining(4) == pytest.approx(10.0)
        timers.extend(4, 5.0)                # added while paused
        timers.open(5, 2.0)                  # opened while paused: waits too
        timers.resume()
        await tick(clock, 1.9)
        assert done == []
        await tick(clock, 0.1)
        assert done == [5]
        await tick(clock, 12.8)
        assert done == [5]
        await tick(clock, 0.2)
        assert done == [5, 4]
        window, when = timers.fired[-1]
        assert window == 4 and when == pytest.approx(20.0 + 300.0 + 15.0)

    run(body)


def test_expiry_by_queue() -> None:
    async def body() -> None:
        clock = FakeClock()
        timers = WindowTimers(clock, use_queue=True)
        assert timers.queue is not None
        timers.open(7, 1.0)
        timers.open(8, 0.5)
        await tick(clock, 1.0, step=0.25)
        assert [timers.queue.get_nowait(), timers.queue.get_nowait()] == [8, 7]

    run(body)


def test_works_on_the_real_clock() -> None:
    async def body() -> None:
        done: list[int] = []
        timers = WindowTimers(MonotonicClock(), done.append)
        timers.open(1, 0.0)                  # due at once: nothing waits
        await settle()
        assert done == [1]

    run(body)


def test_negative_windows_are_refused() -> None:
    async def body() -> None:
        with pytest.raises(ValueError):
            WindowTimers(FakeClock()).open(1, -1.0)

    run(body)
