"""Window timers on the Clock port: speeches, night steps, ballots, call-out beats.

The engine opens windows by number (OpenWindow effects); the daemon keeps one timer per
open window here and, when one runs out, sends WindowClosed(window) back. Pausing keeps
every window's remaining time; resuming starts counting it down again.

Time comes only from the clock, so under a FakeClock a test moves time and never sleeps;
the timers are asyncio tasks sleeping on the clock.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from narrator.clock import Clock
from narrator.devices.timing import current_task_or_none


def approach(delay: float) -> float:
    """How long to sleep towards a deadline `delay` seconds away.

    Linux lets a long epoll wait end up to 0.1% late (its timer slack: 60 ms on a 60 s
    speech), so a long wait goes most of the way and then sleeps the short rest."""
    return delay * 0.998 if delay > 0.05 else delay


@dataclass(slots=True)
class _Window:
    deadline: float            # on the clock; meaningless while paused
    remaining: float           # seconds left when paused
    task: asyncio.Task[None] | None = None


class WindowTimers:
    """`on_expire(window_id)` is called on the loop's thread when a window runs out.

    Alternatively read expired window ids from `queue` (when created with `use_queue`)."""

    def __init__(self, clock: Clock, on_expire: Callable[[int], None] | None = None, *,
                 use_queue: bool = False) -> None:
        self.clock = clock
        self.on_expire = on_expire
        self.queue: asyncio.Queue[int] | None = asyncio.Queue() if use_queue else None
        self._windows: dict[int, _Window] = {}
        self._paused = False
        # (window, clock time it ran out), the latest ones: for benches and tests.
        self.fired: deque[tuple[int, float]] = deque(maxlen=1000)

    @property
    def paused(self) -> bool:
        return self._paused

    def is_open(self, window_id: int) -> bool:
        return window_id in self._windows

    def open_windows(self) -> list[int]:
        return sorted(self._windows)

    def remaining(self, window_id: int) -> float | None:
        w = self._windows.get(window_id)
        if w is None:
            return None
        if self._paused:
            return w.remaining
        return max(0.0, w.deadline - self.clock.now())

    def open(self, window_id: int, seconds: float) -> None:
        """Start (or restart) a window of `seconds`. Opened while paused, it waits."""
        if seconds < 0:
            raise ValueError(f"a window cannot last {seconds} s")
        self.close(window_id)
        w = _Window(self.clock.now() + seconds, seconds)
        self._windows[window_id] = w
        if not self._paused:
            self._arm(window_id, w)

    def close(self, window_id: int) -> None:
        """Cancel a window (a speech ended early). Unknown ids are ignored."""
        w = self._windows.pop(window_id, None)
        if w is not None:
            self._disarm(w)

    def close_all(self) -> None:
        for window_id in list(self._windows):
            self.close(window_id)

    def extend(self, window_id: int, seconds: float) -> None:
        w = self._windows.get(window_id)
        if w is None:
            raise KeyError(f"window {window_id} is not open")
        w.remaining += seconds
        w.deadline += seconds
        if not self._paused:
            self._disarm(w)
            self._arm(window_id, w)

    def pause(self) -> None:
        if self._paused:
            return
        now = self.clock.now()
        self._paused = True
        for w in self._windows.values():
            w.remaining = max(0.0, w.deadline - now)
            self._disarm(w)

    def resume(self) -> None:
        if not self._paused:
            return
        now = self.clock.now()
        self._paused = False
        for window_id, w in self._windows.items():
            w.deadline = now + w.remaining
            self._arm(window_id, w)

    def _arm(self, window_id: int, w: _Window) -> None:
        w.task = asyncio.get_running_loop().create_task(self._run(window_id, w))

    @staticmethod
    def _disarm(w: _Window) -> None:
        task, w.task = w.task, None
        if task is not None and not task.done() and task is not current_task_or_none():
            task.cancel()

    async def _run(self, window_id: int, w: _Window) -> None:
        while (delay := w.deadline - self.clock.now()) > 0:
            await self.clock.sleep(approach(delay))
        if self._windows.get(window_id) is not w or self._paused:
            return
        del self._windows[window_id]
        w.task = None
        self.fired.append((window_id, self.clock.now()))
        if self.queue is not None:
            self.queue.put_nowait(window_id)
        if self.on_expire is not None:
            self.on_expire(window_id)

    def shutdown(self) -> None:
        """Cancel everything (the daemon is stopping)."""
        for w in self._windows.values():
            self._disarm(w)
        self._windows.clear()
