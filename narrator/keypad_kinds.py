"""Every kind of host keypad the config can name (`keypad:`), one row each.

Like gpiozero's table of pin factories (and the command line's SUBCOMMANDS), the row is
the one place a kind is known: how the box builds the real one, the same kind on fake
hardware (mock pins, a fake evdev device, a pipe), whether it has a screen where a check's
answer can show, the words that name it when a box refuses a set-up for want of a
screen, and what `check-hardware` does with it. A new kind is its own module plus a row
here; the settings, the service's wiring, check-hardware and the refusal's words read
the table. The devices' own modules are imported only when a row is used, so reading
the table costs nothing.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from narrator.clock import Clock
    from narrator.devices.check import KeypadUnderTest
    from narrator.devices.keypads import Keypad
    from narrator.devices.pinmap import PinMap

KEY_S = 0.05  # a membrane key held down by the mock table's builder


@dataclass(frozen=True, slots=True)
class Wiring:
    """What a keypad is built from: the `keypad:` setting's device path (evdev), the pin
    map, the pins' gpiozero factory (None: no GPIO on this box) and the clock."""

    device: str | None
    pin_map: PinMap
    factory: Any
    clock: Clock
    lang: str = "en"  # the words a keypad with a screen shows (the terminal's key help)


@dataclass(frozen=True, slots=True)
class FakeKeypadKind:
    """A kind on fake hardware: its keypad and the finger that presses one of its keys
    (the key's keymap.py name and its printed label), as a builder at the table would."""

    keypad: Keypad
    press: Callable[[str, str], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class KeypadKind:
    name: str  # the config's `keypad:` value
    help: str  # how the config's comment and `--keypad` describe it
    # The real keypad (None: none to build here, with the reason logged).
    build: Callable[[Wiring], Keypad | None]
    # The same kind on fake hardware (None: it reads no keys: `none`).
    fake: Callable[[Wiring], FakeKeypadKind | None]
    # check-hardware: what is checked, given whether the settings chose this kind and
    # whether the pins are mock ones (then the fake is checked, pressed by the builder).
    check: Callable[[Wiring, bool, bool], list[KeypadUnderTest]]
    # A screen where a check's answer can show (a terminal's line), as the cues name it.
    screen: bool
    # The refusal's words for a box with this keypad and no answer display.
    no_screen: str
    # A device path in `keypad:` (/dev/input/...) means this kind.
    takes_path: bool = False


# --- evdev: a USB numeric keypad -----------------------------------------------------

def _evdev_build(w: Wiring) -> Keypad:
    from narrator.devices.keypads import EvdevKeypad

    return EvdevKeypad(w.device)


def _evdev_fake(_w: Wiring) -> FakeKeypadKind:
    from narrator.devices.keypads import EVDEV_CODES, EvdevKeypad, FakeEvdevDevice

    usb = FakeEvdevDevice()

    async def press(key: str, _label: str) -> None:
        usb.type_keys(EVDEV_CODES[key])

    return FakeKeypadKind(EvdevKeypad(usb), press)


def _evdev_check(w: Wiring, chosen: bool, mock: bool) -> list[KeypadUnderTest]:
    from narrator.devices.check import usb_keypad

    if not chosen:
        return []
    if mock:
        fake = _evdev_fake(w)
        return [usb_keypad(fake.keypad, press=fake.press)]
    return [usb_keypad(_evdev_build(w))]


# --- matrix: a membrane keypad on the pin map's pins ---------------------------------

def _matrix_build(w: Wiring) -> Keypad | None:
    import logging

    from narrator.devices.matrix import MatrixKeypad

    spec = w.pin_map.keypad
    if w.factory is None:
        return None  # no GPIO: the seat panel's error says so
    if spec is None:
        logging.getLogger("narrator.service").error(
            "keypad: matrix, but the pin map has no keypad pins")
        return None
    return MatrixKeypad(spec, pin_factory=w.factory, clock=w.clock)


def _matrix_fake(w: Wiring) -> FakeKeypadKind | None:
    from narrator.devices.gpio import mock_pin_factory
    from narrator.devices.matrix import FakeKeyMatrix, MatrixKeypad

    spec = w.pin_map.keypad
    if spec is None:
        return None
    factory = w.factory if w.factory is not None else mock_pin_factory()
    wires = FakeKeyMatrix(factory, spec)  # before the keypad: it claims the row pins
    clock = w.clock

    async def press(_key: str, label: str) -> None:
        wires.hold(label)
        await clock.sleep(KEY_S)
        wires.let_go(label)

    return FakeKeypadKind(MatrixKeypad(spec, pin_factory=factory, clock=clock), press)


def _matrix_check(w: Wiring, chosen: bool, mock: bool) -> list[KeypadUnderTest]:
    """The map's matrix keypad is checked whenever the map wires one, chosen or not."""
    from narrator.devices.check import matrix_keypad
    from narrator.devices.matrix import MatrixKeypad
    from narrator.errors import DeviceError

    spec = w.pin_map.keypad
    if spec is None:
        return [matrix_keypad(None, (), error="keypad: matrix in the settings, but the pin "
                                              "map has no keypad pins")] if chosen else []
    try:
        if mock:
            fake = _matrix_fake(w)
            assert fake is not None  # the map wires one
            return [matrix_keypad(fake.keypad, spec.keys, press=fake.press)]
        return [matrix_keypad(MatrixKeypad(spec, pin_factory=w.factory, clock=w.clock),
                              spec.keys)]
    except DeviceError as exc:
        return [matrix_keypad(None, spec.keys, error=str(exc))]


# --- terminal: a laptop's terminal -----------------------------------------------------

def _terminal_build(w: Wiring) -> Keypad:
    from narrator.devices.keypads import TerminalKeypad

    return TerminalKeypad(lang=w.lang)


def _terminal_fake(_w: Wiring) -> FakeKeypadKind:
    """The terminal keypad reading a pipe (no terminal: no screen either)."""
    from narrator.devices.keymap import TERMINAL_KEYS
    from narrator.devices.keypads import TerminalKeypad

    typed = {key: ch for ch, key in reversed(TERMINAL_KEYS.items())}
    read, write = os.pipe()
    stream = os.fdopen(read, encoding="utf-8")
    writer = os.fdopen(write, "w", encoding="utf-8", buffering=1)

    class PipedKeypad(TerminalKeypad):
        def close(self) -> None:
            super().close()
            if not writer.closed:
                writer.close()  # the reader thread sees the end and stops

    async def press(key: str, _label: str) -> None:
        writer.write(typed[key])

    return FakeKeypadKind(PipedKeypad(stream), press)


def _skipped(name: str, reason: str) -> Callable[[Wiring, bool, bool], list[KeypadUnderTest]]:
    """check-hardware names the kind and checks nothing."""
    def check(_w: Wiring, chosen: bool, _mock: bool) -> list[KeypadUnderTest]:
        from narrator.devices.check import KeypadUnderTest

        return [KeypadUnderTest(f"keypad ({name})", None, {}, skipped=reason)] if chosen else []

    return check


# --- none ------------------------------------------------------------------------------

def _nothing(_w: Wiring) -> None:
    return None


KEYPAD_KINDS: tuple[KeypadKind, ...] = (
    KeypadKind("evdev", "evdev (find a numeric keypad) | an evdev path", _evdev_build,
               _evdev_fake, _evdev_check, screen=False,
               no_screen="keypad: evdev (a USB keypad has no screen)", takes_path=True),
    KeypadKind("matrix", "matrix (the pin map's membrane keypad)", _matrix_build, _matrix_fake,
               _matrix_check, screen=False,
               no_screen="keypad: matrix (a membrane keypad has no screen)"),
    KeypadKind("terminal", "terminal (a laptop: keys typed here)", _terminal_build,
               _terminal_fake, _skipped("terminal", "a terminal: nothing to check"), screen=True,
               no_screen="keypad: terminal, but the input is no terminal"),
    KeypadKind("none", "none", _nothing, _nothing, _skipped("none", "none in the settings"),
               screen=False, no_screen="keypad: none"),
)
NAMES: tuple[str, ...] = tuple(k.name for k in KEYPAD_KINDS)


def keypad_kind(name: str) -> KeypadKind:
    """The row of a kind the settings accepted (KeyError for any other)."""
    for kind in KEYPAD_KINDS:
        if kind.name == name:
            return kind
    raise KeyError(name)


def no_screen(name: str) -> str:
    """The refusal's words for a keypad of this kind on a box with no answer display."""
    for kind in KEYPAD_KINDS:
        if kind.name == name:
            return kind.no_screen
    return f"a keypad without a screen ({name})"


def path_kind() -> KeypadKind:
    """The kind a device path in `keypad:` means."""
    return next(k for k in KEYPAD_KINDS if k.takes_path)


def described() -> str:
    """The kinds as `--keypad`'s help and the config's comment list them."""
    return " | ".join(k.help for k in KEYPAD_KINDS)


def checked(w: Wiring, chosen: str, mock: bool) -> list[KeypadUnderTest]:
    """What check-hardware checks: the chosen kind's keypad first, then whatever else the
    pin map wires (its matrix keypad)."""
    first = keypad_kind(chosen)
    out = first.check(w, True, mock)
    for kind in KEYPAD_KINDS:
        if kind is not first:
            out += kind.check(w, False, mock)
    return out
