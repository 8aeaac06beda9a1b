"""`narrator check-hardware [--pins FILE]`: lights every LED, asks every seat to tap."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pins", metavar="FILE",
                        help="pin map (default: the packaged 10-seat map hardware/pins-10.yaml)")
    parser.add_argument("--wait", type=float, default=20.0, metavar="S",
                        help="seconds to wait for each seat's tap (default 20)")
    parser.add_argument("--dwell", type=float, default=0.6, metavar="S",
                        help="seconds each LED stays lit (default 0.6)")


def run(args: argparse.Namespace) -> int:
    from narrator.clock import FakeClock, MonotonicClock
    from narrator.devices.check import check, run_unattended
    from narrator.devices.gpio import GpioSeatPanel, gpio_available, is_mock, make_pin_factory
    from narrator.devices.pinmap import load_pin_map

    pin_map = load_pin_map(args.pins)
    factory_name = os.environ.get("GPIOZERO_PIN_FACTORY")
    if factory_name is None and not gpio_available():
        print("no GPIO chip here: using mock pins, unattended", file=sys.stderr)
        factory_name = "mock"
    factory = make_pin_factory(factory_name)
    mock = is_mock(factory)

    def say(text: str) -> None:
        print(text, flush=True)

    async def main() -> bool:
        clock = FakeClock() if mock else MonotonicClock()
        panel = GpioSeatPanel(pin_map, pin_factory=factory, clock=clock)
        try:
            where = "mock pins, unattended" if mock else type(factory).__name__
            say(f"Pin map {pin_map.name} ({pin_map.path}): {pin_map.seats} seats, {where}.")
            if isinstance(clock, FakeClock):
                report = await run_unattended(panel, clock, args.dwell, args.wait, say)
            else:
                report = await check(panel, pin_map, clock, wait=args.wait, dwell=args.dwell,
                                     say=say)
        finally:
            panel.close()
        for line in report.lines():
            say(line)
        return report.ok

    return 0 if asyncio.run(main()) else 1
