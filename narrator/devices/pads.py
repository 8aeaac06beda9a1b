"""Debounce and hold detection for seat pads, as a pure state machine on given times.

Raw edges come from gpiozero (or an expander) with no debounce of their own; this turns
them into clean Tap and Hold events:
- a press that ends inside the debounce time is a glitch and gives nothing;
- edges inside the debounce time after a press or a release are chatter and are ignored,
  so a chattering pad gives exactly one event;
- releasing before `hold` seconds gives one Tap (at the release); staying down for
  `hold` seconds gives one Hold (at that moment) and no Tap.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

DEBOUNCE_S = 0.03
HOLD_S = 1.0


class PadEvent(Enum):
    TAP = "tap"
    HOLD = "hold"


class _Phase(Enum):
    IDLE = 0
    DOWN = 1       # pressed; chatter ignored until `quiet`
    HELD = 2       # Hold sent; waiting for the release
    SETTLING = 3   # released; chatter ignored until `quiet`


@dataclass(slots=True)
class _Pad:
    level: bool = False
    last_edge: float = 0.0
    phase: _Phase = _Phase.IDLE
    quiet: float = 0.0     # edges before this time are chatter
    hold_at: float = 0.0


class PadTracker:
    def __init__(self, count: int, debounce: float = DEBOUNCE_S, hold: float = HOLD_S) -> None:
        if not 0 < debounce < hold:
            raise ValueError("need 0 < debounce < hold")
        self.debounce = debounce
        self.hold = hold
        self._pads = [_Pad() for _ in range(count)]

    def pressed(self, index: int) -> bool:
        return self._pads[index].phase in (_Phase.DOWN, _Phase.HELD)

    def edge(self, index: int, active: bool, t: float) -> PadEvent | None:
        """A raw level change of pad `index` at time t. Returns the event it completes."""
        pad = self._pads[index]
        if active == pad.level:
            return None
        pad.level = active
        pad.last_edge = t
        if pad.phase is _Phase.IDLE and active:
            self._press(pad, t)
        elif pad.phase is _Phase.DOWN and not active and t >= pad.quiet:
            self._release(pad, t)
            return PadEvent.TAP
        elif pad.phase is _Phase.HELD and not active:
            self._release(pad, t)
        return None

    def poll(self, index: int, t: float) -> PadEvent | None:
        """Time has reached t: settle chatter, detect a hold."""
        pad = self._pads[index]
        if pad.phase is _Phase.DOWN:
            if t >= pad.quiet and not pad.level:
                # Released again inside the debounce time: a glitch, not a touch.
                self._settle(pad, pad.last_edge + self.debounce, t)
            elif t >= pad.hold_at and pad.level:
                pad.phase = _Phase.HELD
                return PadEvent.HOLD
        elif pad.phase is _Phase.SETTLING and t >= pad.quiet:
            if pad.level:
                # Pressed again while settling: a new press from that edge on.
                self._press(pad, pad.last_edge)
                return self.poll(index, t)
            pad.phase = _Phase.IDLE
        return None

    def deadline(self, index: int) -> float | None:
        pad = self._pads[index]
        if pad.phase is _Phase.DOWN:
            # Down: the hold moment; bounced up inside the debounce time: its end.
            return pad.hold_at if pad.level else pad.quiet
        if pad.phase is _Phase.SETTLING:
            return pad.quiet
        return None

    def _press(self, pad: _Pad, t: float) -> None:
        pad.phase = _Phase.DOWN
        pad.quiet = t + self.debounce
        pad.hold_at = t + self.hold

    def _release(self, pad: _Pad, t: float) -> None:
        pad.phase = _Phase.SETTLING
        pad.quiet = t + self.debounce

    def _settle(self, pad: _Pad, quiet: float, t: float) -> None:
        pad.phase = _Phase.SETTLING if quiet > t else _Phase.IDLE
        pad.quiet = quiet
