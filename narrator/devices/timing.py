"""Alarm: one callback at a moment on the Clock port, re-armable.

Device code keeps its timing on the Clock (never on gpiozero's own threads or on the
wall clock), so tests drive it with a FakeClock and never sleep.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from narrator.clock import Clock


class Alarm:
    """Calls `fire(now)` once the clock reaches the moment given to `at()`.

    `at()` replaces the pending moment; `at(None)` cancels. Must be used on the loop thread.
    """

    def __init__(self, clock: Clock, fire: Callable[[float], None]) -> None:
        self.clock = clock
        self._fire = fire
        self._when: float | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def when(self) -> float | None:
        return self._when

    def at(self, when: float | None) -> None:
        if when == self._when and (when is None or self._task is not None):
            return
        self.cancel()
        self._when = when
        if when is not None:
            self._task = asyncio.get_running_loop().create_task(self._wait(when))

    def cancel(self) -> None:
        task, self._task, self._when = self._task, None, None
        if task is not None and not task.done() and task is not current_task_or_none():
            task.cancel()

    async def _wait(self, when: float) -> None:
        # Most of the way, then the rest (the kernel's timer slack grows with the wait);
        # and again if the clock woke us early by its resolution.
        while (delay := when - self.clock.now()) > 0:
            await self.clock.sleep(delay * 0.998 if delay > 0.05 else delay)
        self._task = None
        self._when = None
        self._fire(self.clock.now())


def current_task_or_none() -> asyncio.Task[object] | None:
    with contextlib.suppress(RuntimeError):
        return asyncio.current_task()
    return None
