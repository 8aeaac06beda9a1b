"""The SeatPanel port: the pads and LEDs around the table, and the box's own LEDs.

In: a pad's debounced touch becomes `Tap(seat)` or `Hold(seat)`; the host's optional
buttons become host actions (see keymap.py). Out: `apply(SeatLights)` sets every seat
LED at once, `show_answer()` lights the green (yes) or red (no) LED for a fixed time,
`set_status()` drives the status LED.

Events are handed to the sink on the event loop's thread. gpiozero calls its callbacks
on its own threads, so adapters stamp each raw edge with the clock's time there and pass
it over with `loop.call_soon_threadsafe`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from typing import Literal, Protocol

from narrator.clock import Clock
from narrator.devices.keymap import HostKeys
from narrator.devices.lights import (
    BLINK,
    DARK,
    DIM_FLASH,
    DIM_PWM,
    FAST_BLINK,
    LIT,
    SLOW_BLINK,
    LightDriver,
    Outputs,
    Pattern,
)
from narrator.devices.pads import DEBOUNCE_S, HOLD_S, PadEvent, PadTracker
from narrator.devices.timing import Alarm
from narrator.engine.actions import Action, Hold, Tap
from narrator.engine.effects import SeatLights
from narrator.errors import DeviceError

Sink = Callable[[Action], None]
Status = Literal["off", "ready", "game", "paused", "error"]
# Four states a glance tells apart on one plain LED (no dimming needed): steady (ready,
# no game), a short pulse every 3 s (a game runs), 1 s on / 1 s off (paused), 8 blinks a
# second (a fault). The same whatever happens at the table, so it carries no secret.
GAME_PULSE = Pattern(1.0, 0.2, 2.8)
STATUS_PATTERNS: dict[str, Pattern] = {
    "off": DARK, "ready": LIT, "game": GAME_PULSE, "paused": SLOW_BLINK, "error": FAST_BLINK,
}
ANSWER_LEDS = {"yes": "yes", "no": "no"}
CODE_PERIOD = 0.6  # one blink of a card's code: 0.3 s lit, 0.3 s dark


def seat_led(seat: int) -> str:
    return f"seat{seat}"


class SeatPanel(Protocol):
    @property
    def seats(self) -> int: ...

    @property
    def mock(self) -> bool:
        """On gpiozero's mock pins (a laptop): LEDs nobody sees."""
        ...

    def start(self, sink: Sink) -> None:
        """Start delivering pad events (and host-button actions) to `sink` on this loop."""
        ...

    def apply(self, lights: SeatLights) -> None: ...

    def show_answer(self, answer: str, seconds: float, code: int = 0) -> None:
        """Light green ("yes") or red ("no") for `seconds`, then dark; a card (a boxed
        commissar's answer) is `code` green blinks within `seconds`. Never a sound."""
        ...

    def set_status(self, status: Status) -> None: ...

    def set_paused(self, paused: bool) -> None:
        """The game was paused or resumed (the pause button toggles from here)."""
        ...

    def close(self) -> None: ...


class PadSource(Protocol):
    """Raw pad edges: calls `edge(index, active)` from any thread, index 0 = seat 1."""

    def attach(self, edge: Callable[[int, bool], None]) -> None: ...

    def close(self) -> None: ...


class BoardPanel:
    """A SeatPanel from a pad source and a set of outputs: debounce, hold and light
    patterns on the clock. The GPIO, expander and fake panels are all built from this."""

    mock = False  # real LEDs (a fake's stand for them); GpioSeatPanel: its pins decide

    def __init__(self, seats: int, pads: PadSource, outputs: Outputs, clock: Clock, *,
                 host_pads: Sequence[str] = (), debounce: float = DEBOUNCE_S,
                 hold: float = HOLD_S) -> None:
        self._seats = seats
        self.pads = pads
        self.outputs = outputs
        self.clock = clock
        # Host buttons are tracked as extra pads after the seats.
        self.host_pads = tuple(host_pads)
        self.tracker = PadTracker(seats + len(self.host_pads), debounce, hold)
        self.host_keys = HostKeys()
        # Who takes a host button's hold (a press of a second or more), by the button's
        # name: the organiser's page lets a waiting phone in on Next's (narrator.web.passes).
        # A tap keeps its game meaning; the hold has none in the game.
        self.host_holds: list[Callable[[str], bool]] = []
        self.lights: LightDriver | None = None
        self._sink: Sink | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._alarm: Alarm | None = None

    @property
    def seats(self) -> int:
        return self._seats

    def start(self, sink: Sink) -> None:
        self._loop = asyncio.get_running_loop()
        self._sink = sink
        self._alarm = Alarm(self.clock, self._poll)
        self.lights = LightDriver(self.clock, self.outputs)
        self.pads.attach(self._raw_edge)

    def _raw_edge(self, index: int, active: bool) -> None:
        # Any thread: stamp now, decide on the loop.
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        t = self.clock.now()
        # The loop may close between the check and the call.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._edge, index, active, t)

    def _edge(self, index: int, active: bool, t: float) -> None:
        self._emit(index, self.tracker.edge(index, active, t))
        self._rearm()

    def _poll(self, now: float) -> None:
        for index in range(self.tracker_size):
            self._emit(index, self.tracker.poll(index, now))
        self._rearm()

    @property
    def tracker_size(self) -> int:
        return self._seats + len(self.host_pads)

    def _rearm(self) -> None:
        moments = [d for i in range(self.tracker_size)
                   if (d := self.tracker.deadline(i)) is not None]
        if self._alarm is not None:
            self._alarm.at(min(moments) if moments else None)

    def _emit(self, index: int, event: PadEvent | None) -> None:
        if event is None or self._sink is None:
            return
        if index < self._seats:
            seat = index + 1
            self._sink(Tap(seat) if event is PadEvent.TAP else Hold(seat))
        elif event is PadEvent.TAP:
            action = self.host_keys.button(self.host_pads[index - self._seats])
            if action is not None:
                self._sink(action)
        else:
            name = self.host_pads[index - self._seats]
            for take in self.host_holds:
                if take(name):
                    break

    def _need_lights(self) -> LightDriver:
        if self.lights is None:
            raise DeviceError("the seat panel is not started")
        return self.lights

    def apply(self, lights: SeatLights) -> None:
        driver = self._need_lights()
        patterns: dict[str, Pattern] = {}
        for seat in range(1, self._seats + 1):
            name = seat_led(seat)
            if seat in lights.on:
                patterns[name] = LIT
            elif seat in lights.blink:
                patterns[name] = BLINK
            elif seat in lights.dim:
                patterns[name] = DIM_PWM if self.outputs.can_dim(name) else DIM_FLASH
            else:
                patterns[name] = DARK
        driver.show(patterns)

    def show_answer(self, answer: str, seconds: float, code: int = 0) -> None:
        driver = self._need_lights()
        if answer not in ANSWER_LEDS:
            if code <= 0:
                raise ValueError(f"answer must be 'yes' or 'no', or a card with its code, not {answer!r}")
            # A card: its place in the announced list of roles, counted in green blinks
            # that fit the window (as short as needed for a large table).
            period = min(CODE_PERIOD, seconds / code)
            blink = Pattern(1.0, period / 2, period / 2, start=self.clock.now())
            driver.show({"no": DARK})
            driver.show({"yes": blink}, period * code - period / 2)
            return
        other = "no" if answer == "yes" else "yes"
        driver.show({other: DARK})
        driver.show({answer: LIT}, seconds)

    def set_status(self, status: Status) -> None:
        if "status" in self.outputs.names():
            self._need_lights().show({"status": STATUS_PATTERNS[status]})

    def set_paused(self, paused: bool) -> None:
        self.host_keys.set_paused(paused)

    def close(self) -> None:
        self._sink = None
        if self._alarm is not None:
            self._alarm.cancel()
        if self.lights is not None:
            self.lights.close()
        self.pads.close()
