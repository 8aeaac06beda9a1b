"""The seat panel on Raspberry Pi pins through gpiozero.

`SeatBoard` is composed like gpiozero's own boards (a CompositeDevice of a pad board,
an LED board, the answer LEDs, the status LED and the host's buttons), and
`GpioSeatPanel` puts the clock-driven debounce, hold and light patterns of BoardPanel
on top. Pads are read as raw edges (no gpiozero bounce time, no hold thread): their
timing is done on the Clock port so that it is the same in tests and at the table.

With a 16-seat map the pads come from an MCP23017 (mcp23017.py) and the seat LEDs are a
WS2812 chain (ws2812.py); the answer and status LEDs stay on GPIO.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Callable, Iterable
from functools import partial
from importlib.metadata import entry_points
from typing import Any

from narrator.clock import Clock, MonotonicClock
from narrator.devices.mcp23017 import Mcp23017Pads, SMBusLike
from narrator.devices.pads import DEBOUNCE_S, HOLD_S
from narrator.devices.panel import BoardPanel, seat_led
from narrator.devices.pinmap import ExpanderPads, GpioLeds, GpioPads, PinMap, load_pin_map
from narrator.devices.ws2812 import SpiLike, Ws2812Chain
from narrator.errors import DeviceError

MOCK_REVISION = "d04170"  # a Raspberry Pi 5: the mock board has the same 40-pin header


def gpio_available() -> bool:
    return bool(glob.glob("/dev/gpiochip*"))


def make_pin_factory(spec: Any = None) -> Any:
    """A gpiozero pin factory: the one given, one named ("mock", "lgpio"...), the one named
    by GPIOZERO_PIN_FACTORY, or gpiozero's default on a Pi. Mock pins support PWM."""
    from gpiozero import Device
    from gpiozero.pins import Factory

    if isinstance(spec, Factory):
        return spec
    name = spec or os.environ.get("GPIOZERO_PIN_FACTORY")
    if name is None:
        if not gpio_available():
            raise DeviceError("no GPIO chip here (/dev/gpiochip*): run on a Raspberry Pi "
                              "or set GPIOZERO_PIN_FACTORY=mock")
        try:
            return Device._default_pin_factory()
        except Exception as exc:  # gpiozero raises several kinds here
            raise DeviceError(f"no usable GPIO pin factory: {exc}") from None
    if str(name).lower() == "mock":
        return mock_pin_factory()
    for ep in entry_points(group="gpiozero_pin_factories"):
        if ep.name == str(name).lower():
            try:
                return ep.load()()
            except Exception as exc:
                raise DeviceError(f"pin factory {name!r} failed: {exc}") from None
    known = ", ".join(sorted(ep.name for ep in entry_points(group="gpiozero_pin_factories")))
    raise DeviceError(f"unknown pin factory {name!r} (known: {known})")


def mock_pin_factory() -> Any:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    revision = os.environ.get("GPIOZERO_MOCK_REVISION", MOCK_REVISION)
    pin_class = os.environ.get("GPIOZERO_MOCK_PIN_CLASS") or MockPWMPin
    return MockFactory(revision=revision, pin_class=pin_class)


def is_mock(factory: Any) -> bool:
    from gpiozero.pins.mock import MockFactory

    return isinstance(factory, MockFactory)


def _pad_device(pin: int, active_high: bool, factory: Any) -> Any:
    from gpiozero import DigitalInputDevice

    # A TTP223 drives its output both ways: the pull-down only keeps an unplugged pad
    # quiet. A button to ground needs the pull-up.
    return DigitalInputDevice(pin, pull_up=not active_high, bounce_time=None,
                              pin_factory=factory)


class PadBoard:
    """Raw pad inputs as one gpiozero CompositeDevice; edges go to `attach`'s callback."""

    def __init__(self, pins: Iterable[int], active_high: bool, factory: Any) -> None:
        from gpiozero import CompositeDevice

        devices: list[Any] = []
        try:
            for pin in pins:
                devices.append(_pad_device(pin, active_high, factory))
            self.device = CompositeDevice(*devices, pin_factory=factory)
        except BaseException:
            for d in devices:
                d.close()
            raise
        self.inputs = devices

    @property
    def count(self) -> int:
        return len(self.inputs)

    def attach(self, edge: Callable[[int, bool], None]) -> None:
        for i, dev in enumerate(self.inputs):
            dev.when_activated = partial(edge, i, True)
            dev.when_deactivated = partial(edge, i, False)
        # A pad already down at start (stuck, or a finger on it) counts from now.
        for i, dev in enumerate(self.inputs):
            if dev.is_active:
                edge(i, True)

    def close(self) -> None:
        self.device.close()


class _JoinedPads:
    """Seat pads then host buttons, as one PadSource."""

    def __init__(self, *sources: Any) -> None:
        self.sources = [s for s in sources if s is not None]

    def attach(self, edge: Callable[[int, bool], None]) -> None:
        offset = 0
        for source in self.sources:
            source.attach(partial(_shifted, edge, offset))
            offset += source.count

    def close(self) -> None:
        for source in self.sources:
            source.close()


def _shifted(edge: Callable[[int, bool], None], offset: int, index: int, active: bool) -> None:
    edge(offset + index, active)


class LedOutputs:
    """Named outputs: gpiozero LEDs, and optionally the seats on a WS2812 chain."""

    def __init__(self, leds: dict[str, Any], strip: Ws2812Chain | None = None,
                 strip_names: dict[str, int] | None = None) -> None:
        self.leds = leds
        self.strip = strip
        self.strip_names = strip_names or {}
        self._dirty = False

    def names(self) -> list[str]:
        return [*self.strip_names, *self.leds]

    def can_dim(self, name: str) -> bool:
        if name in self.strip_names:
            return True
        from gpiozero import PWMLED

        return isinstance(self.leds[name], PWMLED)

    def set(self, name: str, level: float) -> None:
        if name in self.strip_names:
            assert self.strip is not None
            self.strip.set(self.strip_names[name], level)
            self._dirty = True
        elif self.can_dim(name):
            self.leds[name].value = level
        else:
            self.leds[name].value = level >= 0.5

    def flush(self) -> None:
        if self._dirty and self.strip is not None:
            self.strip.show()
            self._dirty = False

    def level(self, name: str) -> float:
        if name in self.strip_names:
            assert self.strip is not None
            return self.strip.level(self.strip_names[name])
        return float(self.leds[name].value)

    def close(self) -> None:
        for led in self.leds.values():
            led.close()
        if self.strip is not None:
            self.strip.close()


class SeatBoard:
    """Every gpiozero device of the panel, as one CompositeDevice (closing it frees them)."""

    def __init__(self, pin_map: PinMap, factory: Any) -> None:
        from gpiozero import LED, PWMLED, CompositeDevice
        from gpiozero.exc import PinPWMUnsupported

        made: list[Any] = []

        def keep(device: Any) -> Any:
            made.append(device)
            return device

        try:
            self.pads = (keep(PadBoard(pin_map.pads.pins, pin_map.pads.active_high, factory))
                         if isinstance(pin_map.pads, GpioPads) else None)
            self.seat_leds: list[Any] = []
            if isinstance(pin_map.leds, GpioLeds):
                pwm = pin_map.leds.pwm
                for pin in pin_map.leds.pins:
                    try:
                        led = (PWMLED(pin, pin_factory=factory) if pwm
                               else LED(pin, pin_factory=factory))
                    except PinPWMUnsupported:
                        pwm = False
                        led = LED(pin, pin_factory=factory)
                    self.seat_leds.append(keep(led))
            self.yes = keep(LED(pin_map.answer_yes, pin_factory=factory))
            self.no = keep(LED(pin_map.answer_no, pin_factory=factory))
            self.status = (keep(LED(pin_map.status, pin_factory=factory))
                           if pin_map.status is not None else None)
            self.host_names = [name for name, _ in pin_map.host_buttons]
            # Host buttons are plain buttons to ground.
            self.host = (keep(PadBoard([pin for _, pin in pin_map.host_buttons], False, factory))
                         if pin_map.host_buttons else None)
            children = [d.device if isinstance(d, PadBoard) else d for d in made]
            self.device = CompositeDevice(*children, pin_factory=factory)
        except BaseException:
            for d in made:
                d.close()
            raise

    def close(self) -> None:
        self.device.close()


class GpioSeatPanel(BoardPanel):
    """The table's pads and LEDs on a Raspberry Pi (or on gpiozero's mock pins).

    `pin_factory`: a gpiozero Factory, a factory name, or None for GPIOZERO_PIN_FACTORY /
    the Pi's default. `i2c` and `spi` replace the buses of a 16-seat map (fakes in tests,
    and under mock pins, when they default to fakes too).
    """

    def __init__(self, pin_map: PinMap | None = None, *, pin_factory: Any = None,
                 clock: Clock | None = None, i2c: SMBusLike | None = None,
                 spi: SpiLike | None = None, debounce: float = DEBOUNCE_S,
                 hold: float = HOLD_S) -> None:
        self.pin_map = pin_map if pin_map is not None else load_pin_map()
        self.factory = make_pin_factory(pin_factory)
        pm = self.pin_map
        mock = is_mock(self.factory)
        # Mock pins (a laptop): LEDs nobody sees, so answers also go to a keypad's screen.
        self.mock = mock
        try:
            self.board = SeatBoard(pm, self.factory)
        except Exception as exc:
            raise DeviceError(f"{pm.path}: cannot set up the GPIO pins: {exc}") from None
        self.expander: Mcp23017Pads | None = None
        strip: Ws2812Chain | None = None
        try:
            if isinstance(pm.pads, ExpanderPads):
                self.expander = Mcp23017Pads(pm.pads, pm.seats, self.factory, bus=i2c, fake=mock)
            if not isinstance(pm.leds, GpioLeds):
                strip = Ws2812Chain(pm.seats, pm.leds, spi=spi, fake=mock)
        except BaseException:
            self.board.close()
            if self.expander is not None:
                self.expander.close()
            raise
        leds: dict[str, Any] = {seat_led(i + 1): led for i, led in enumerate(self.board.seat_leds)}
        leds["yes"] = self.board.yes
        leds["no"] = self.board.no
        if self.board.status is not None:
            leds["status"] = self.board.status
        strip_names = ({seat_led(i + 1): i for i in range(pm.seats)} if strip is not None else {})
        outputs = LedOutputs(leds, strip, strip_names)
        pads = _JoinedPads(self.board.pads if self.board.pads is not None else self.expander,
                           self.board.host)
        super().__init__(pm.seats, pads, outputs, clock or MonotonicClock(),
                         host_pads=self.board.host_names, debounce=debounce, hold=hold)
        self.led_outputs = outputs

    def pad_pin(self, seat: int) -> int | None:
        """The GPIO of a seat's pad (None when it is on the expander)."""
        pads = self.pin_map.pads
        return pads.pins[seat - 1] if isinstance(pads, GpioPads) else None

    def close(self) -> None:
        super().close()
        self.led_outputs.close()
        self.board.close()
