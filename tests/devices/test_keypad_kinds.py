"""The keypad kinds' table (narrator/keypad_kinds.py): every row is whole (a fake for every
kind that reads keys, its screen, its refusal's words, what check-hardware does), the
keypad a row builds says it is of that kind, each fake delivers its keys, and the settings,
the `--keypad` help and the default config's comment all come from the table."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from narrator.boxconfig import load_settings, packaged_config_path
from narrator.clock import FakeClock
from narrator.devices.check import KeypadUnderTest, TableCheck, run_unattended
from narrator.devices.gpio import GpioSeatPanel
from narrator.devices.mock_table import MockTable
from narrator.devices.pinmap import load_pin_map
from narrator.errors import ConfigError
from narrator.keypad_kinds import KEYPAD_KINDS, NAMES, KeypadKind, Wiring, checked, no_screen

PINS_16 = load_pin_map("pins-16")  # the map that wires a matrix keypad


@pytest.fixture
def wiring() -> Iterator[Wiring]:
    from narrator.devices.gpio import mock_pin_factory

    factory = mock_pin_factory()
    yield Wiring(None, PINS_16, factory, FakeClock())
    factory.reset()


def row_problems(kind: KeypadKind, wiring: Wiring) -> list[str]:
    """What is missing from a row: a kind that builds a keypad needs a fake of the same
    kind, its words, and a check-hardware step when the settings choose it."""
    problems = []
    if not kind.name or not kind.help.startswith(kind.name):
        problems.append("no name or help")
    if not kind.no_screen.startswith(f"keypad: {kind.name}"):
        problems.append("no words for a box without an answer display")
    if not kind.check(wiring, True, True):
        problems.append("check-hardware ignores it")
    fake = kind.fake(wiring)
    if fake is None:
        built = kind.build(wiring)
        if built is not None:
            built.close()
            problems.append("it builds a keypad but has no fake")
        return problems
    if fake.keypad.kind != kind.name:
        problems.append(f"its fake is a {fake.keypad.kind!r} keypad")
    fake.keypad.close()
    return problems


def test_every_row_is_whole(wiring: Wiring) -> None:
    assert len(set(NAMES)) == len(NAMES) == len(KEYPAD_KINDS)
    assert sum(k.takes_path for k in KEYPAD_KINDS) == 1  # a device path means one kind
    assert {k.name: row_problems(k, wiring) for k in KEYPAD_KINDS} == {n: [] for n in NAMES}
    assert [no_screen(n) for n in NAMES] == [k.no_screen for k in KEYPAD_KINDS]


def test_an_incomplete_row_is_caught(wiring: Wiring) -> None:
    """The rule above, on rows broken on purpose."""
    evdev = KEYPAD_KINDS[0]
    no_fake = dataclasses.replace(evdev, name="usb2", help="usb2", no_screen="keypad: usb2",
                                  fake=lambda _w: None)
    assert row_problems(no_fake, wiring) == ["it builds a keypad but has no fake"]
    matrix = KEYPAD_KINDS[1]
    wrong_fake = dataclasses.replace(evdev, fake=matrix.fake)
    assert row_problems(wrong_fake, wiring) == ["its fake is a 'matrix' keypad"]
    wiring.factory.reset()
    unchecked = dataclasses.replace(evdev, check=lambda _w, _c, _m: [], no_screen="")
    assert row_problems(unchecked, wiring) == [
        "no words for a box without an answer display", "check-hardware ignores it"]


@pytest.mark.parametrize("name", ["evdev", "matrix"])
def test_each_fake_is_pressed_by_the_mock_table(name: str) -> None:
    """check-hardware on mock pins: the chosen kind's fake, every key pressed by the builder."""
    async def go() -> list[str]:
        clock = FakeClock()
        panel = GpioSeatPanel(PINS_16, pin_factory="mock", clock=clock)
        try:
            unders = checked(Wiring(None, PINS_16, panel.factory, clock), name, mock=True)
            mine = [u for u in unders if u.keypad is not None and u.keypad.kind == name]
            assert mine and all(u.press is not None for u in mine)
            walk = TableCheck(panel, PINS_16, clock, wait=5.0, say=lambda _t: None,
                              builder=MockTable(panel, clock))
            report = await run_unattended(walk, clock, ["keypad"], mine)
            return report.problems()
        finally:
            panel.close()
            panel.factory.reset()

    assert asyncio.run(go()) == []


def test_the_terminal_fake_reads_its_keys(wiring: Wiring) -> None:
    terminal = next(k for k in KEYPAD_KINDS if k.name == "terminal")

    async def go() -> list[str]:
        fake = terminal.fake(wiring)
        assert fake is not None
        keys: list[str] = []
        done = asyncio.Event()

        def heard(key: str) -> None:
            keys.append(key)
            if key == "enter":
                done.set()

        fake.keypad.on_key = heard
        runner = asyncio.ensure_future(fake.keypad.run(lambda _a: None))
        for key in ("4", "enter"):
            await fake.press(key, key)
        await asyncio.wait_for(done.wait(), 10)  # the reader is a thread: wait for its line
        fake.keypad.close()
        await asyncio.wait_for(runner, 10)
        return keys

    assert asyncio.run(go()) == ["4", "enter"]


def test_the_settings_take_the_table_s_kinds(tmp_path: Any) -> None:
    for name in NAMES:
        settings = load_settings(None, {"keypad": name, "state_dir": str(tmp_path)})
        assert settings.keypad.kind == name
    assert load_settings(None, {"keypad": "/dev/input/event3"}).keypad.device == "/dev/input/event3"
    with pytest.raises(ConfigError, match=f"expected one of {', '.join(NAMES)} or a device path"):
        load_settings(None, {"keypad": "usb2"})
    comment = next(line for line in packaged_config_path().read_text().splitlines()
                   if line.startswith("keypad:"))
    assert all(name in comment for name in NAMES)


def test_check_hardware_checks_the_chosen_kind_first(wiring: Wiring) -> None:
    """The chosen kind's keypad first, then the map's matrix keypad (pins-16 wires one)."""
    for name in NAMES:
        unders: list[KeypadUnderTest] = checked(wiring, name, mock=True)
        first = unders[0]
        assert (first.keypad.kind == name if first.keypad is not None
                else first.label == f"keypad ({name})"), name
        assert unders[-1].label == "4x4 keypad"
        assert [u.label for u in unders].count("4x4 keypad") == 1
        for under in unders:
            if under.keypad is not None:
                under.keypad.close()
        wiring.factory.reset()
