"""Where the journal's lines go: the Disk port, and its writers.

`write` queues a line (in order); `sync` returns a future that is done once every line
queued so far is on disk (fsynced). The daemon acts on an action's effects only after its
`sync` is done, so the ordering guarantee holds; but the fsync runs off the asyncio loop
and one fsync covers every line queued before it (a group commit), so the night's beat
never waits for taps: a tap with nothing to act on asks for no fsync of its own.

- `DirectDisk`: writes and fsyncs inline (tools, tests that read the file at once).
- `ThreadDisk`: a writer thread (the daemon). A write that fails (disk full, the SD card
  gone read-only) is retried until it succeeds; nothing queued is dropped, and the lines
  keep their order. `on_fault` / `on_recover` hear of the outage (from the writer thread).
- `ClockDisk` (narrator.records.fake_disk): the fake, whose fsync takes time on a Clock.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Protocol

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0


class Disk(Protocol):
    @property
    def failing(self) -> bool:
        """The card refuses the lines and they are being retried (a writer thread's)."""
        ...

    def write(self, data: bytes) -> None: ...

    def sync(self) -> Future[None]: ...

    def close(self) -> None:
        """Write and sync everything queued, then stop (the file stays open)."""
        ...


def done_future() -> Future[None]:
    fut: Future[None] = Future()
    fut.set_result(None)
    return fut


def settle(fut: Future[None]) -> None:
    # A waiter may have been cancelled (the box stopped): that must not kill the writer.
    if fut.set_running_or_notify_cancel():
        fut.set_result(None)


def write_all(fd: int, data: bytes, write: Callable[[int, bytes], int] = os.write) -> None:
    view = memoryview(data)
    while view:
        written = write(fd, bytes(view))
        view = view[written:]


class DirectDisk:
    failing = False  # a write that fails raises at once: nothing is left to retry

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def write(self, data: bytes) -> None:
        write_all(self.fd, data)
        os.fsync(self.fd)

    def sync(self) -> Future[None]:
        return done_future()

    def close(self) -> None:
        pass


class FileOps:
    """The system calls the writer thread makes: a test replaces them with failing ones."""

    def write(self, fd: int, data: bytes) -> int:
        return os.write(fd, data)

    def fsync(self, fd: int) -> None:
        os.fsync(fd)

    def size(self, fd: int) -> int:
        return os.fstat(fd).st_size

    def truncate(self, fd: int, size: int) -> None:
        os.ftruncate(fd, size)


_STOP = object()
Hook = Callable[[OSError], None]


class ThreadDisk:
    def __init__(self, fd: int, on_fault: Hook | None = None,
                 on_recover: Callable[[], None] | None = None, ops: FileOps | None = None,
                 retry: float = RETRY_SECONDS,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.fd = fd
        self.on_fault = on_fault
        self.on_recover = on_recover
        self.ops = ops or FileOps()
        self.retry = retry
        self._sleep = sleep
        self._queue: queue.SimpleQueue[object] = queue.SimpleQueue()
        self.faults = 0  # failed attempts, for tests and the status page
        self.failing = False
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="narrator-journal", daemon=True)
        self._thread.start()

    def write(self, data: bytes) -> None:
        self._queue.put(data)

    def sync(self) -> Future[None]:
        if self._closed:
            # close() wrote and fsynced everything: a sync asked after it (the daemon asks
            # for the game-ending action's, after the journal was archived) is done, not
            # a future no writer will ever settle.
            return done_future()
        fut: Future[None] = Future()
        self._queue.put(fut)
        return fut

    def close(self) -> None:
        if self._thread.is_alive():
            fut = self.sync()
            self._queue.put(_STOP)
            self._thread.join()
            fut.result()
        self._closed = True

    def _run(self) -> None:
        stop = False
        while not stop:
            batch = [self._queue.get()]
            while True:  # everything queued meanwhile goes in the same fsync
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            lines = b"".join(item for item in batch if isinstance(item, bytes))
            waiters = [item for item in batch if isinstance(item, Future)]
            stop = any(item is _STOP for item in batch)
            self._commit(lines, sync=bool(waiters))
            for fut in waiters:
                settle(fut)

    def _commit(self, lines: bytes, sync: bool) -> None:
        while True:
            try:
                start = self.ops.size(self.fd)
            except OSError as exc:
                self._failed(exc)
                continue
            try:
                if lines:
                    write_all(self.fd, lines, self.ops.write)
                if sync:
                    self.ops.fsync(self.fd)
            except OSError as exc:
                # A half-written batch must not stay in the middle of the file: cut it
                # back, then write it whole again.
                try:
                    self.ops.truncate(self.fd, start)
                except OSError as cut:
                    log.debug("cannot cut the journal back yet: %s", cut)
                self._failed(exc)
                continue
            if self.failing:
                self.failing = False
                log.warning("the journal can be written again")
                if self.on_recover is not None:
                    self.on_recover()
            return

    def _failed(self, exc: OSError) -> None:
        self.faults += 1
        if not self.failing:
            self.failing = True
            log.error("cannot write the journal (%s); the game waits and it is tried again "
                      "every %g s", exc, self.retry)
            if self.on_fault is not None:
                self.on_fault(exc)
        self._sleep(self.retry)


# What the daemon is given: a Disk for a journal's descriptor, with the outage hooks.
DiskMaker = Callable[[int, Hook, Callable[[], None]], Disk]


def thread_disk(fd: int, on_fault: Hook, on_recover: Callable[[], None]) -> Disk:
    return ThreadDisk(fd, on_fault, on_recover)


def direct_disk(fd: int, on_fault: Hook, on_recover: Callable[[], None]) -> Disk:
    """Inline writes: for a FakeClock, which cannot wait for a thread."""
    return DirectDisk(fd)
