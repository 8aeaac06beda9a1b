"""`narrator check-hardware`: walk round the table, LED by LED and pad by pad, then the box
LEDs, the host buttons, the keypad, and the speaker and microphone; a short report.

Exit 0 when everything answered, 1 when something is missing or wrong, 2 for a wrong pin
map or settings file. Without a GPIO chip (or with GPIOZERO_PIN_FACTORY=mock) it runs on
mock pins, unattended: a simulated table and builder answer, and `--wiring FILE` says how
that table is really wired (a pin map where two seats may share a pin: a crossed wire).
"""

from __future__ import annotations

import argparse
import asyncio
import os
from typing import Any

from narrator.keypad_kinds import described

PARTS_HELP = "seats, box, buttons, keypad, sound"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="settings file (default: as narrator run)")
    parser.add_argument("--pins", metavar="MAP",
                        help="pin map: pins-10, pins-16 or a file (default: the settings')")
    parser.add_argument("--keypad", help=f"{described()} (default: the settings')")
    parser.add_argument("--only", metavar="PARTS",
                        help=f"check only these, comma-separated: {PARTS_HELP}")
    parser.add_argument("--wait", type=float, default=20.0, metavar="S",
                        help="seconds to wait for each answer (default 20)")
    parser.add_argument("--sound", choices=("auto", "device", "fake"), default="auto",
                        help="the tone through the sound devices, or a simulated room "
                             "(auto: the devices on real pins, the simulated room on mock pins)")
    parser.add_argument("--wiring", metavar="FILE",
                        help="mock pins only: how the simulated table is really wired")


def run(args: argparse.Namespace) -> int:
    from narrator.boxconfig import load_settings
    from narrator.devices.check import PARTS
    from narrator.devices.gpio import gpio_available, is_mock, make_pin_factory
    from narrator.devices.pinmap import load_pin_map
    from narrator.errors import ConfigError

    parts = PARTS if args.only is None else tuple(p.strip() for p in args.only.split(","))
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        raise ConfigError("--only", unknown[0], f"unknown part (known: {PARTS_HELP})")
    settings = load_settings(args.config, {"pins": args.pins, "keypad": args.keypad})
    pin_map = load_pin_map(settings.pins)
    factory_name = os.environ.get("GPIOZERO_PIN_FACTORY")
    if factory_name is None and not gpio_available():
        factory_name = "mock"
    factory = make_pin_factory(factory_name)
    mock = is_mock(factory)
    if args.wiring and not mock:
        raise ConfigError("--wiring", args.wiring, "only for mock pins: a real table is "
                                                   "wired the way it is")

    def say(text: str) -> None:
        print(text, flush=True)

    where = ("mock pins: a simulated table and builder answer; no real hardware is checked"
             if mock else f"{type(factory).__name__}")
    say(f"Pin map {pin_map.name} ({settings.pins}): {pin_map.seats} seats; {where}.")
    for line in board_lines(settings):
        say(line)
    report = asyncio.run(_walk(args, settings, pin_map, factory, mock, parts, say))
    if "sound" in parts:
        report.sound = _sound(args.sound, mock, settings, say)
    for line in report.lines():
        say(line)
    return 0 if report.ok else 1


def board_lines(settings: Any) -> list[str]:
    """The board's profile and what the box picks on it (the voices: the best installed
    that fit; `narrator voices` proves they render)."""
    from narrator.boards import describe, read_board
    from narrator.phrases.numbers import LANGUAGES
    from narrator.voice.voices import ESPEAK, installed

    board = read_board()
    recogniser = settings.recognizer.for_language(settings.game.lang).engine
    allowed = board.voices(recogniser)
    chosen = [f"{lang} {next((v.name for v in installed(lang) if v.name in allowed), ESPEAK)}"
              for lang in LANGUAGES]
    return [*describe(board), f"default voice here: {', '.join(chosen)}; recogniser: {recogniser}"]


async def _walk(args: argparse.Namespace, settings: Any, pin_map: Any, factory: Any, mock: bool,
                parts: tuple[str, ...], say: Any) -> Any:
    from narrator.clock import FakeClock, MonotonicClock
    from narrator.devices.check import TableCheck, run_unattended
    from narrator.devices.check_report import Report
    from narrator.devices.gpio import GpioSeatPanel
    from narrator.devices.mock_table import MockTable, load_wiring
    from narrator.errors import DeviceError
    from narrator.keypad_kinds import Wiring, checked

    if not any(p in parts for p in ("seats", "box", "buttons", "keypad")):
        return Report()
    clock: FakeClock | MonotonicClock = FakeClock() if mock else MonotonicClock()
    wired = load_wiring(args.wiring) if args.wiring else None
    try:
        panel = GpioSeatPanel(pin_map, pin_factory=factory, clock=clock)
    except DeviceError as exc:
        raise DeviceError(f"{exc} (is the narrator service running? "
                          "sudo systemctl stop narrator)") from None
    keypads = checked(Wiring(settings.keypad.device, pin_map, factory, clock),
                      settings.keypad.kind, mock)
    try:
        builder = (MockTable(panel, clock, wired) if mock else None)
        walk = TableCheck(panel, pin_map, clock, wait=args.wait, say=say, builder=builder)
        if isinstance(clock, FakeClock):
            return await run_unattended(walk, clock, parts, keypads)
        return await walk.run(parts, keypads)
    finally:
        panel.close()
        for k in keypads:
            if k.keypad is not None:
                k.keypad.close()


def _sound(mode: str, mock: bool, settings: Any, say: Any) -> Any:
    from narrator.devices.check import check_sound
    from narrator.devices.sound_loop import FakeRoom, SoundDeviceLoop

    fake = mode == "fake" or (mode == "auto" and mock)
    loop = (FakeRoom() if fake
            else SoundDeviceLoop(settings.voice.device, settings.recognizer.device))
    say("Sound: a tone for one second; keep the room quiet...")
    return check_sound(loop)
