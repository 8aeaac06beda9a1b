"""The Clock port: where time comes from.

Everything that waits or measures time takes a Clock, so tests drive a FakeClock and
never sleep.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a monotonic scale."""
        ...

    async def sleep(self, seconds: float) -> None: ...


class MonotonicClock:
    """The real clock."""

    def now(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class FakeClock:
    """A virtual clock for tests and `--fast` runs.

    `sleep()` parks the caller until `advance()` (or `run_until_idle()`) moves time past
    its deadline; nothing waits on the wall clock.
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + seconds, next(self._seq), fut))
        await fut

    def advance(self, seconds: float) -> None:
        """Move time forward, waking every sleeper whose deadline has passed."""
        self.set(self._now + seconds)

    def set(self, when: float) -> None:
        while self._sleepers and self._sleepers[0][0] <= when:
            deadline, _, fut = heapq.heappop(self._sleepers)
            self._now = max(self._now, deadline)
            if not fut.done():
                fut.set_result(None)
        self._now = max(self._now, when)

    def next_deadline(self) -> float | None:
        while self._sleepers and self._sleepers[0][2].done():
            heapq.heappop(self._sleepers)
        return self._sleepers[0][0] if self._sleepers else None

    async def step(self) -> bool:
        """Let every task run, then jump to the next deadline. False if nobody waits."""
        for _ in range(20):
            await asyncio.sleep(0)
        deadline = self.next_deadline()
        if deadline is None:
            return False
        self.set(deadline)
        return True

    async def run_until_idle(self, limit: float = float("inf"),
                             done: Callable[[], bool] = lambda: False) -> None:
        """Let every task run; whenever all are parked on this clock, jump to the next deadline.

        This is what `--fast` means: the game runs as fast as the machine allows. `done`
        ends the run early: a task that sleeps forever (a blinking light) never lets the
        clock go idle.
        """
        while True:
            for _ in range(20):
                await asyncio.sleep(0)
            if done():
                return
            deadline = self.next_deadline()
            if deadline is None or deadline > limit:
                return
            self.set(deadline)
