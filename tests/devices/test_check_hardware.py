"""`narrator check-hardware` on mock pins: a simulated table, wired right or wrong, and a
simulated builder; the report names each fault by its seat, LED, button, key or sound."""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from pathlib import Path
from typing import Any

import pytest

from narrator.boxconfig import packaged_config_path
from narrator.cli import main
from narrator.clock import FakeClock
from narrator.devices.check import (
    PARTS,
    KeypadUnderTest,
    TableCheck,
    run_unattended,
    usb_keypad,
)
from narrator.devices.check_report import Report
from narrator.devices.gpio import GpioSeatPanel
from narrator.devices.keypads import EvdevKeypad
from narrator.devices.mock_table import MockTable, load_wiring
from narrator.devices.pinmap import PinMap, load_pin_map
from narrator.keypad_kinds import Wiring, checked

PINS_10 = load_pin_map().path


@pytest.fixture(autouse=True)
def mock_pins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setenv("NARRATOR_CONFIG", str(packaged_config_path()))


def wiring(tmp_path: Path, *changes: tuple[str, str]) -> Path:
    """The packaged 10-seat map with some wires moved: a table wired wrong."""
    text = Path(PINS_10).read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "wired.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_table_wired_right_answers_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-hardware"]) == 0
    out = capsys.readouterr().out
    assert "mock pins: a simulated table and builder answer" in out
    for seat in range(1, 11):
        assert f"  seat {seat}: its LED (GPIO" in out  # each LED named as it lights
    report = out[out.index("\nReport"):]
    assert report.count(" ok\n") == 10 + 3 + 2 + 1  # seats, box LEDs, host buttons, sound
    assert "USB keypad: all 16 keys" in report
    assert "sound (a simulated room (no sound device)): tone -30 dBFS" in report
    assert report.rstrip().endswith("Everything answered.")


def test_one_seats_wire_crossed_is_reported_by_that_seats_number(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Seat 4's pad wire landed on seat 5's input (GPIO 10): two seats on one pin.
    crossed = wiring(tmp_path, ("pins: [4, 17, 27, 22, 10,", "pins: [4, 17, 27, 10, 10,"))
    assert main(["check-hardware", "--wiring", str(crossed), "--only", "seats"]) == 1
    out = capsys.readouterr().out
    problems = out[out.index("1 problem:"):].splitlines()
    assert problems == ["1 problem:",
                        "  - seat 4: crossed: its touch came in as seat 5 (GPIO10)"]
    assert "seat 5   pad GPIO10           LED GPIO24           ok" in out


def test_swapped_pads_name_both_seats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    swapped = wiring(tmp_path, ("pins: [4, 17, 27, 22, 10,", "pins: [17, 4, 27, 22, 10,"))
    assert main(["check-hardware", "--wiring", str(swapped), "--only", "seats"]) == 1
    out = capsys.readouterr().out
    assert "  - seat 1: crossed: its touch came in as seat 2 (GPIO17)" in out
    assert "  - seat 2: crossed: its touch came in as seat 1 (GPIO4)" in out
    assert "2 problems:" in out


def walk(pin_map: PinMap, wired: PinMap | None = None, *, parts: Collection[str] = PARTS,
         dead_pads: Collection[int] = (), dead_keys: Collection[str] = (), builder: bool = True,
         before: Any = None, keypads: list[KeypadUnderTest] | None = None,
         wait: float = 5.0) -> tuple[Report, list[str]]:
    """The walk on a virtual clock; `before(factory)` runs once the pins exist."""
    said: list[str] = []

    async def go() -> Report:
        clock = FakeClock()
        panel = GpioSeatPanel(pin_map, pin_factory="mock", clock=clock)
        # The USB keypad's row, on mock pins: its fake, pressed by the builder.
        usb = checked(Wiring(None, pin_map, panel.factory, clock), "evdev", mock=True)[0]
        pads = keypads if keypads is not None else [usb]
        try:
            if before is not None:
                before(panel.factory)
            table = (MockTable(panel, clock, wired, dead_pads=dead_pads, dead_keys=dead_keys)
                     if builder else None)
            check = TableCheck(panel, pin_map, clock, wait=wait, say=said.append, builder=table)
            return await run_unattended(check, clock, [p for p in PARTS if p in parts], pads)
        finally:
            panel.close()
            panel.factory.reset()

    return asyncio.run(go()), said


def test_dead_pad_dark_led_and_swapped_answer_leds(tmp_path: Path) -> None:
    # Seat 2's LED hangs on seat 3's pin; the answer LEDs are swapped; seat 8's pad is dead.
    wired = load_wiring(wiring(tmp_path, ("pins: [14, 15, 18,", "pins: [14, 18, 18,"),
                               ("green: 20", "green: 21"), ("red: 21", "red: 20")))
    report, _ = walk(load_pin_map(), wired, parts=("seats", "box"), dead_pads={8})
    assert report.problems() == [
        "seat 2: LED dark: the pad works, the LED did not light (backwards, broken or its wire)",
        "seat 8: no answer: pad dead or unplugged, or its wire is on no input",
        "answer LED green: not seen: dark, or the wrong colour (green and red swapped?)",
        "answer LED red: not seen: dark, or the wrong colour (green and red swapped?)",
    ]
    assert not report.ok


def test_a_stuck_pad_is_found_before_the_walk() -> None:
    pm = load_pin_map()

    def finger_on_seat_7(factory: Any) -> None:
        factory.pin(pm.pads.pins[6]).drive_high()  # type: ignore[union-attr]

    report, _ = walk(pm, parts=("seats",), before=finger_on_seat_7)
    assert [r.seat for r in report.seats if r.stuck] == [7]
    assert report.problems() == ["seat 7: pad active before anyone touched it: stuck, touched "
                                 "while the box started, or `pads.active` in the map is wrong"]


def test_nobody_answering_is_every_seat_reported() -> None:
    report, said = walk(load_pin_map(), parts=("seats", "buttons"), builder=False, wait=3.0)
    assert [r.seat for r in report.seats if r.answer is None] == list(range(1, 11))
    assert [b.name for b in report.buttons if not b.answered] == ["next", "pause"]
    assert len(report.problems()) == 12
    assert said[0] == "Hands off every pad for a moment..."


def test_a_key_that_never_comes_and_a_keypad_that_is_not_there() -> None:
    report, _ = walk(load_pin_map(), parts=("keypad",), dead_keys={"5", "Enter"})
    assert report.problems() == ["USB keypad: keys never seen: 5 Enter"]
    missing = [usb_keypad(EvdevKeypad("/dev/input/no-such-keypad"))]
    report, _ = walk(load_pin_map(), parts=("keypad",), keypads=missing)
    (problem,) = report.problems()
    assert problem.startswith("USB keypad: cannot open keypad /dev/input/no-such-keypad")


def test_the_sixteen_seat_map_checks_too(capsys: pytest.CaptureFixture[str]) -> None:
    # Pads on the emulated MCP23017, LEDs on the WS2812 chain, the 4x4 keypad on mock pins.
    assert main(["check-hardware", "--pins", "pins-16"]) == 0
    out = capsys.readouterr().out
    assert "seat 16  pad MCP23017 GPB7    LED WS2812 pixel 16  ok" in out
    assert "4x4 keypad: all 16 keys" in out and "USB keypad: all 16 keys" in out
    assert "host button undo" in out


def test_wrong_arguments_exit_2_with_one_line(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "pins.yaml"
    bad.write_text("seats: 2\npads: {pins: [4, 4]}\nleds: {pins: [5, 6]}\n"
                   "answer: {green: 20, red: 21}\n")
    assert main(["check-hardware", "--pins", str(bad)]) == 2
    assert capsys.readouterr().err == (f"narrator: {bad}: pads.pins[1]: GPIO 4 is already "
                                       "used by pads.pins[0] (seat 1 pad)\n")
    assert main(["check-hardware", "--only", "seats,lights"]) == 2
    assert capsys.readouterr().err == ("narrator: --only: lights: unknown part (known: seats, "
                                       "box, buttons, keypad, sound)\n")


def test_a_wiring_file_is_only_for_mock_pins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    import narrator.devices.gpio as gpio

    class RealFactory:  # what gpiozero would give on a Pi: not a MockFactory
        pass

    monkeypatch.setattr(gpio, "make_pin_factory", lambda name=None: RealFactory())
    assert main(["check-hardware", "--wiring", str(wiring(tmp_path))]) == 2
    assert "--wiring" in capsys.readouterr().err
