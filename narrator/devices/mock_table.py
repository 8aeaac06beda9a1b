"""A table on gpiozero's mock pins, as it is really wired, with a builder walking round it.

The pin map says where the box expects each seat; the *wiring* says where each seat's
pad and LED really landed. They differ when a wire is crossed: a wiring file is a pin map
in which pins may repeat (two seats on one pin: one seat's wire landed on the other's
input). The builder looks at the LED where it really is, then touches the pad (or holds
it when the LED is dark), presses buttons and keys: an unattended `check-hardware`.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from narrator.clock import Clock
from narrator.devices.check import KeypadUnderTest
from narrator.devices.gpio import GpioSeatPanel
from narrator.devices.mcp23017 import FakeMcp23017
from narrator.devices.pads import HOLD_S
from narrator.devices.panel import seat_led
from narrator.devices.pinmap import ExpanderPads, GpioLeds, GpioPads, PinMap, parse_pin_map
from narrator.errors import PinMapError
from narrator.yamlfile import read_text

TAP_S = 0.15
HOLD_PRESS_S = HOLD_S + 0.3
KEY_S = 0.05


def load_wiring(path: str | Path) -> PinMap:
    """A wiring file: a pin map in which a pin may serve two seats (a crossed wire)."""
    return parse_pin_map(read_text(path, PinMapError), str(path), shared_pins=True)


class MockTable:
    """`wired`: where things really are (default: as the map says). `dead_pads`: seats whose
    pad gives nothing; `dead_keys`: keys (as labelled) that give nothing."""

    def __init__(self, panel: GpioSeatPanel, clock: Clock, wired: PinMap | None = None, *,
                 dead_pads: Collection[int] = (), dead_keys: Collection[str] = ()) -> None:
        self.panel = panel
        self.factory = panel.factory
        self.clock = clock
        self.wired = wired or panel.pin_map
        self.dead_pads = set(dead_pads)
        self.dead_keys = set(dead_keys)
        self.seen: list[tuple[str, bool]] = []  # what the builder saw: (LED, lit)

    # --- eyes -------------------------------------------------------------------------

    def _pin_lit(self, pin: int) -> bool:
        return float(self.factory.pin(pin).state) > 0

    def led_lit(self, seat: int) -> bool:
        leds = self.wired.leds
        if isinstance(leds, GpioLeds):
            return self._pin_lit(leds.pins[seat - 1])
        return self.panel.led_outputs.level(seat_led(seat)) > 0

    def box_led_lit(self, output: str) -> bool:
        pin = {"yes": self.wired.answer_yes, "no": self.wired.answer_no,
               "status": self.wired.status}[output]
        return pin is not None and self._pin_lit(pin)

    # --- hands ------------------------------------------------------------------------

    def _pad(self, seat: int, down: bool) -> None:
        pads = self.wired.pads
        active = down == pads.active_high
        if isinstance(pads, ExpanderPads):
            expander = self.panel.expander
            assert expander is not None and isinstance(expander.bus, FakeMcp23017)
            expander.bus.set_input(seat - 1, active)
            return
        assert isinstance(pads, GpioPads)
        pin = self.factory.pin(pads.pins[seat - 1])
        pin.drive_high() if active else pin.drive_low()

    async def touch(self, seat: int, seconds: float) -> None:
        if seat in self.dead_pads:
            return
        self._pad(seat, True)
        await self.clock.sleep(seconds)
        self._pad(seat, False)

    async def at_seat(self, seat: int) -> None:
        lit = self.led_lit(seat)
        self.seen.append((seat_led(seat), lit))
        await self.touch(seat, TAP_S if lit else HOLD_PRESS_S)

    async def at_box_led(self, output: str) -> None:
        lit = self.box_led_lit(output)
        self.seen.append((output, lit))
        await self.touch(1, TAP_S if lit else HOLD_PRESS_S)

    async def press_button(self, name: str) -> None:
        pin = self.factory.pin(dict(self.wired.host_buttons)[name])
        pin.drive_low()
        await self.clock.sleep(TAP_S)
        pin.drive_high()

    async def press_keys(self, keypad: KeypadUnderTest) -> None:
        for key, label in keypad.keys.items():
            if label in self.dead_keys or keypad.press is None:
                continue
            await keypad.press(key, label)
            await self.clock.sleep(KEY_S)
