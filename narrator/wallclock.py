"""The date and time the box writes on journals and protocols (never used for timing:
timers run on the monotonic Clock).

A Raspberry Pi has no real-time clock. Without a network it boots with the time it had at
its last shutdown (fake-hwclock), or in 1970 on a fresh card, and the clock may jump when
someone plugs in a network (NTP). A rating dates games by their protocols, so the box
takes the time from whoever knows it:
- `phone`: the organiser's page told it (a phone's clock is set by its network); kept
  as "that moment plus the monotonic time since", so a later jump of the system clock
  moves nothing;
- `network`: the kernel says the system clock is synchronised (NTP, or a real-time clock);
- `box`: the system clock, not synchronised: the date may be wrong (the protocol says so);
- `unset`: the system clock is before this software was written: plainly never set.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

# 2026-01-01 00:00 UTC: no box running this code has lived before it.
FLOOR = 1_767_225_600.0
# A phone that says a time this far after FLOOR is wrong too (the year 2100).
CEILING = 4_102_444_800.0
SOURCES = ("phone", "network", "box", "unset")
_TIME_ERROR = 5  # adjtimex(2): the clock is not synchronised


def kernel_synced() -> bool:
    """Whether the kernel says the system clock is synchronised (what `timedatectl` calls
    "System clock synchronized"): adjtimex(2) in read-only mode does not answer
    TIME_ERROR. False where it can't be asked."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        timex = ctypes.create_string_buffer(512)  # struct timex (about 200 bytes), modes 0
        return int(libc.adjtimex(timex)) not in (-1, _TIME_ERROR)
    except (OSError, AttributeError):
        return False


class WallClock:
    def __init__(self, mono: Callable[[], float], system: Callable[[], float] = time.time,
                 synced: Callable[[], bool] = kernel_synced) -> None:
        self._mono = mono
        self.system = system  # the system clock (a test's may start in 1970)
        self.synced = synced
        self._told: tuple[float, float] | None = None  # (phone's time, monotonic then)
        self.listeners: list[Callable[[], None]] = []  # hear the first time the phone tells

    def now(self) -> float:
        """Seconds since 1970: the phone's time carried on by the monotonic clock once told,
        else the system clock."""
        return self.at(self._mono())

    def at(self, mono: float) -> float:
        """The wall time of a moment on the monotonic clock (of this run of the box)."""
        if self._told is not None:
            told, then = self._told
            return told + (mono - then)
        return self.system() - (self._mono() - mono)

    @property
    def source(self) -> str:
        if self._told is not None:
            return "phone"
        if self.synced():
            return "network"
        return "box" if self.system() >= FLOOR else "unset"

    def tell(self, seconds: float) -> bool:
        """The organiser's phone says it is `seconds` since 1970 now. False (and nothing
        changes) for a time no phone can have."""
        if not FLOOR <= seconds <= CEILING:
            return False
        first = self._told is None
        drift = seconds - self.now()
        self._told = (seconds, self._mono())
        if first:
            log.info("the organiser's phone set the date: %s (the box's clock was %+.0f s off)",
                     time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(seconds)), -drift)
            for hear in list(self.listeners):
                hear()
        return True
