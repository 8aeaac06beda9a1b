"""ClockDisk: the fake of narrator.records.disk's port. Lines land in a file (or a list)
at once; each fsync takes `fsync_seconds` on a Clock, one after another, like a slow SD
card. Runs on the asyncio loop, so a FakeClock test stays deterministic."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import Future

from narrator.clock import Clock
from narrator.records.disk import settle, write_all


class ClockDisk:
    failing = False  # never fails

    def __init__(self, clock: Clock, fsync_seconds: float = 0.1, fd: int | None = None) -> None:
        self.clock = clock
        self.fsync_seconds = fsync_seconds
        self.fd = fd
        self.lines: list[bytes] = []
        self.fsyncs = 0
        self._lock: asyncio.Lock | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def write(self, data: bytes) -> None:
        self.lines.append(data)
        if self.fd is not None:
            write_all(self.fd, data)

    def sync(self) -> Future[None]:
        fut: Future[None] = Future()
        task = asyncio.get_running_loop().create_task(self._fsync(fut))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return fut

    async def _fsync(self, fut: Future[None]) -> None:
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:  # one fsync at a time, in order
            await self.clock.sleep(self.fsync_seconds)
            if self.fd is not None:
                os.fsync(self.fd)
            self.fsyncs += 1
        settle(fut)

    def close(self) -> None:
        pass
