"""Light patterns on the Clock port: steady, blinking, and for a while.

gpiozero's own `blink()` runs a thread on the wall clock; here every LED's level is a
function of the clock's time, so blinking is deterministic under a FakeClock and all
blinking LEDs blink in step (no LED stands out by its phase).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from narrator.clock import Clock
from narrator.devices.timing import Alarm


@dataclass(frozen=True, slots=True)
class Pattern:
    """`level` for `on` seconds, dark for `off` seconds, repeating; off == 0: steady.
    Blinks are in step with the clock (time 0), or from `start` (a blink code, whose
    first blink must be whole to be counted)."""

    level: float = 0.0
    on: float = 0.0
    off: float = 0.0
    start: float = 0.0

    def level_at(self, t: float) -> float:
        if self.off <= 0:
            return self.level
        return self.level if ((t - self.start) % (self.on + self.off)) < self.on else 0.0

    def next_change(self, t: float) -> float | None:
        if self.off <= 0 or self.level == 0:
            return None
        period = self.on + self.off
        start = t - ((t - self.start) % period)
        edge = start + self.on
        return edge if edge > t else start + period


DARK = Pattern()
LIT = Pattern(1.0)
BLINK = Pattern(1.0, 0.5, 0.5)          # a seat's last ten seconds
SLOW_BLINK = Pattern(1.0, 1.0, 1.0)     # the box is paused
FAST_BLINK = Pattern(1.0, 0.125, 0.125)  # the box needs attention
DIM_PWM = Pattern(0.08)
DIM_FLASH = Pattern(1.0, 0.1, 1.9)      # "dim" on an LED that cannot dim: a short flash


class Outputs(Protocol):
    """Where levels go: gpiozero LEDs, a WS2812 chain, or a dict in a fake."""

    def names(self) -> Iterable[str]: ...

    def can_dim(self, name: str) -> bool: ...

    def set(self, name: str, level: float) -> None: ...

    def flush(self) -> None:
        """Send what `set` changed (a LED chain is written once per change)."""
        ...

    def level(self, name: str) -> float:
        """The level the output is at now, read back from the device."""
        ...


class LightDriver:
    """Keeps each output at its pattern's level for the clock's time."""

    def __init__(self, clock: Clock, outputs: Outputs,
                 on_change: Callable[[str, float], None] | None = None) -> None:
        self.clock = clock
        self.outputs = outputs
        self.on_change = on_change
        self._patterns: dict[str, Pattern] = {}
        self._until: dict[str, float] = {}
        self._shown: dict[str, float] = {}
        self._alarm = Alarm(clock, self._tick)

    def pattern(self, name: str) -> Pattern:
        return self._patterns.get(name, DARK)

    def show(self, patterns: dict[str, Pattern], seconds: float | None = None) -> None:
        """Set these outputs' patterns; with `seconds` they go dark again after that long."""
        now = self.clock.now()
        for name, pattern in patterns.items():
            self._patterns[name] = pattern
            if seconds is None:
                self._until.pop(name, None)
            else:
                self._until[name] = now + seconds
        self._tick(now)

    def _tick(self, now: float) -> None:
        for name, end in list(self._until.items()):
            if now >= end:
                del self._until[name]
                self._patterns[name] = DARK
        changed = False
        for name, pattern in self._patterns.items():
            level = pattern.level_at(now)
            if self._shown.get(name) != level:
                self.outputs.set(name, level)
                self._shown[name] = level
                changed = True
                if self.on_change is not None:
                    self.on_change(name, level)
        if changed:
            self.outputs.flush()
        moments = [m for p in self._patterns.values() if (m := p.next_change(now)) is not None]
        moments += self._until.values()
        self._alarm.at(min(moments) if moments else None)

    def close(self) -> None:
        self._alarm.cancel()
