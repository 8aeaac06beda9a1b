"""The 16-seat panel: pads on an (emulated) MCP23017, seat LEDs on a WS2812 chain."""

from __future__ import annotations

import asyncio
from typing import Any

from narrator.clock import FakeClock
from narrator.devices.gpio import GpioSeatPanel
from narrator.devices.mcp23017 import GPINTENA, IOCON, FakeMcp23017
from narrator.devices.pinmap import ExpanderPads, load_pin_map
from narrator.devices.ws2812 import FakeSpi, decode, encode
from narrator.engine.actions import Action, Hold, Tap, Undo
from narrator.engine.effects import SeatLights
from tests.devices.helpers import settle, tick

MAP = load_pin_map("pins-16")


def test_ws2812_encoding_round_trips() -> None:
    colors = [(255, 0, 0), (0, 255, 0), (1, 2, 3), (0, 0, 0)]
    data = encode(colors)
    assert decode(data) == colors
    assert data[-1] == 0 and len(data) == 1 + 4 * 24 + 240


def test_sixteen_seats_through_the_expander_and_the_chain(factory: Any) -> None:
    assert isinstance(MAP.pads, ExpanderPads)
    chip = FakeMcp23017(factory, MAP.pads.interrupt, MAP.pads.address)
    spi = FakeSpi()
    got: list[Action] = []

    async def main() -> None:
        clock = FakeClock()
        panel = GpioSeatPanel(MAP, pin_factory=factory, clock=clock, i2c=chip, spi=spi)
        panel.start(got.append)
        # The driver set the chip up: mirrored open-drain interrupt on every pad pin.
        assert chip.regs[IOCON] & 0x44 == 0x44
        assert chip.regs[GPINTENA] == chip.regs[GPINTENA + 1] == 0xFF
        reads = chip.reads
        chip.set_input(11, True)            # seat 12 touched
        await tick(clock, 0.004)
        chip.set_input(11, False)           # chatter
        await tick(clock, 0.004)
        chip.set_input(11, True)
        await tick(clock, 0.2, step=0.01)
        chip.set_input(11, False)
        await tick(clock, 0.2, step=0.01)
        assert chip.reads > reads           # changes came by interrupt, read over I2C
        assert factory.pin(chip.interrupt_pin).state == 1   # released after the read
        chip.set_input(15, True)            # seat 16 held
        await tick(clock, 1.5, step=0.05)
        chip.set_input(15, False)
        await tick(clock, 0.1)
        # Host button "undo" on GPIO.
        undo = factory.pin(dict(MAP.host_buttons)["undo"])
        undo.drive_low()
        await tick(clock, 0.1)
        undo.drive_high()
        await tick(clock, 0.1)

        panel.apply(SeatLights(on=(1, 16), dim=(5,)))
        await settle()
        pixels = spi.pixels()
        assert len(pixels) == 16
        full = tuple(round(c * MAP.leds.brightness) for c in MAP.leds.color)  # type: ignore[union-attr]
        assert pixels[0] == pixels[15] == full
        assert 0 < sum(pixels[4]) < sum(full) / 5          # dimmed natively
        assert all(p == (0, 0, 0) for i, p in enumerate(pixels) if i not in (0, 4, 15))
        panel.close()
        assert spi.pixels() == [(0, 0, 0)] * 16             # dark when the box stops
        assert spi.closed

    asyncio.run(main())
    assert got == [Tap(12), Hold(16), Undo()]


def test_mock_pins_bring_their_own_fake_buses(factory: Any) -> None:
    async def main() -> None:
        panel = GpioSeatPanel(MAP, pin_factory=factory, clock=FakeClock())
        panel.start(lambda a: None)
        assert isinstance(panel.expander.bus, FakeMcp23017)  # type: ignore[union-attr]
        panel.close()

    asyncio.run(main())
