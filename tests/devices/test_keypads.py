"""The key map and the three keypads (evdev, 4x4 matrix, terminal) and the fake."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import pytest

from narrator.clock import FakeClock
from narrator.devices.keymap import KeypadDecoder
from narrator.devices.keypads import EvdevKeypad, FakeEvdevDevice, FakeKeypad, TerminalKeypad
from narrator.devices.matrix import FakeKeyMatrix, MatrixKeypad
from narrator.devices.pinmap import load_pin_map
from narrator.engine.actions import (
    Action,
    AddTime,
    Count,
    EndSpeech,
    Entry,
    Forfeit,
    Foul,
    Nominate,
    Pause,
    Resume,
    StartVoting,
    Undo,
)
from narrator.errors import DeviceError
from tests.devices.helpers import settle, tick


@pytest.mark.parametrize(("typed", "actions"), [
    ("7\n", [Entry(7)]),
    ("10\n", [Entry(10)]),
    ("0\n", [Entry(0)]),
    ("\n", [Count()]),                 # a bare Enter: the hands are counted
    ("3\n5\n\n", [Entry(3), Entry(5), Count()]),  # hands typed, then counted
    ("/3\n", [Foul(3)]),
    ("/\n", [StartVoting()]),
    (".", [EndSpeech()]),
    ("*", [Undo()]),
    ("12*\n", [Entry(1)]),              # * deletes a digit while typing
    ("/*5\n", [Entry(5)]),              # ...and leaves / mode when nothing is typed
    ("-", [Pause()]),
    ("--", [Pause(), Resume()]),
    ("+", [AddTime(30)]),
    ("45+", [AddTime(45)]),
    ("1\x7f2\n", [Entry(2)]),           # Backspace
    ("9\x1b4\n", [Entry(4)]),           # Esc clears
    ("1234\n", [Entry(123)]),           # three digits at most
    ("2.6\n", [Nominate(6, by=2)]),     # M . N Enter: seat M nominates / accuses N
    ("12.10\n", [Nominate(10, by=12)]),
    ("2.\n", []),                       # no N: nothing
    ("2.*5\n", [Entry(25)]),            # * after the dot goes back to M
    ("2.63*4\n", [Nominate(64, by=2)]),  # ...and deletes a digit of N
    ("2.6.", [EndSpeech()]),             # a second dot is "next speaker", as before
    ("/2.", [EndSpeech()]),              # not in / mode
    ("//3\n", [Forfeit(3)]),            # / / N Enter: a severe breach (the box confirms it)
    ("//0\n", []),                      # no seat 0
    ("//\n", []),
    ("//*3\n", [Foul(3)]),              # * goes back to / ...
    ("/3/4\n", [Foul(4)]),              # ... and / after digits starts / again
    ("//3\n/3\n", [Forfeit(3), Foul(3)]),
])
def test_the_key_map(typed: str, actions: list[Action]) -> None:
    assert KeypadDecoder().keys(typed) == actions


def test_the_pause_key_follows_the_game() -> None:
    d = KeypadDecoder()
    d.set_paused(True)                  # paused by a voice command
    assert d.keys("-") == [Resume()]


async def _collect(keypad: Any, feed: Any) -> list[Action]:
    got: list[Action] = []
    task = asyncio.create_task(keypad.run(got.append))
    await settle()
    await feed()
    await settle()
    keypad.close()
    await asyncio.wait_for(task, 1.0)
    return got


def test_evdev_keypad_reads_real_input_events() -> None:
    async def main() -> list[Action]:
        dev = FakeEvdevDevice()
        keypad = EvdevKeypad(dev)

        async def feed() -> None:
            assert dev.grabbed                      # what is typed is private
            dev.type_keys("KEY_KP1", "KEY_KP0", "KEY_KPENTER")
            dev.type_keys("KEY_KPSLASH", "KEY_KP3", "KEY_KPENTER")
            dev.type_keys("KEY_KP7", repeat=5)      # auto-repeat types one digit
            dev.type_keys("KEY_KPENTER", "KEY_KPASTERISK", "KEY_KPMINUS", "KEY_KPPLUS",
                          "KEY_KPDOT", "KEY_NUMLOCK")

        got = await _collect(keypad, feed)
        assert not dev.grabbed and dev.closed
        return got

    assert asyncio.run(main()) == [Entry(10), Foul(3), Entry(7), Undo(), Pause(), AddTime(30),
                                   EndSpeech()]


def test_an_unplugged_keypad_is_a_device_error() -> None:
    async def main() -> None:
        dev = FakeEvdevDevice()
        keypad = EvdevKeypad(dev)
        dev.type_keys("KEY_KP4")
        dev.unplug()
        with pytest.raises(DeviceError, match="went away"):
            await keypad.run(lambda a: None)

    asyncio.run(main())


def test_terminal_keypad_reads_lines() -> None:
    async def main() -> list[Action]:
        got: list[Action] = []
        await asyncio.wait_for(
            TerminalKeypad(io.StringIO("7\n/2\n\n-\n.\n+\n")).run(got.append), 5.0)
        return got

    # A bare line is the count of hands; the line ends after the one-key commands are not.
    assert asyncio.run(main()) == [Entry(7), Foul(2), Count(), Pause(), EndSpeech(), AddTime(30)]


def test_fake_keypad_uses_the_same_map() -> None:
    async def main() -> list[Action]:
        keypad = FakeKeypad()

        async def feed() -> None:
            keypad.press("5", "enter")
            keypad.type("/\n")

        return await _collect(keypad, feed)

    assert asyncio.run(main()) == [Entry(5), StartVoting()]


def test_matrix_keypad_scans_debounces_and_maps(factory: Any) -> None:
    spec = load_pin_map("pins-16").keypad
    assert spec is not None

    async def main() -> list[Action]:
        clock = FakeClock()
        wires = FakeKeyMatrix(factory, spec)
        keypad = MatrixKeypad(spec, pin_factory=factory, clock=clock)

        async def feed() -> None:
            for label in ("1", "2", "#", "A", "4", "#", "B"):
                wires.hold(label)
                await tick(clock, 0.05, step=0.01)
                wires.let_go(label)
                await tick(clock, 0.05, step=0.01)
            # A press seen by one scan only is a bounce, not a key.
            wires.hold("7")
            await tick(clock, 0.001)
            await tick(clock, 0.01)
            wires.let_go("7")
            await tick(clock, 0.1, step=0.01)
            # Held for a second: still one key.
            wires.hold("3")
            await tick(clock, 1.0, step=0.01)
            wires.let_go("3")
            await tick(clock, 0.05, step=0.01)
            wires.hold("#")
            await tick(clock, 0.05, step=0.01)
            wires.let_go("#")
            await tick(clock, 0.05, step=0.01)

        return await _collect(keypad, feed)

    assert asyncio.run(main()) == [Entry(12), Foul(4), Pause(), Entry(3)]
