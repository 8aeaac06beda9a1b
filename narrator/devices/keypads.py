"""The Keypad port: the host's private keypad, three ways, one key map (keymap.py).

- EvdevKeypad: a USB numeric keypad read with evdev. It is grabbed, so what is typed
  reaches only the box, never the console.
- MatrixKeypad (matrix.py): a 4x4 membrane keypad on GPIO pins.
- TerminalKeypad: a laptop's terminal, a line at a time.
Each `run(sink)` reads until the device ends or `close()`; actions reach the sink on
the event loop's thread. FakeKeypad and FakeEvdevDevice are the fakes.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any, Protocol, TextIO

from narrator.clock import Clock
from narrator.devices.display import AnswerDisplay, FakeDisplay, TerminalDisplay
from narrator.devices.keymap import EVDEV_KEYS, TERMINAL_HELP, TERMINAL_KEYS, KeypadDecoder
from narrator.engine.actions import Action
from narrator.errors import DeviceError

Sink = Callable[[Action], None]


class Keypad(Protocol):
    # Its row in narrator.keypad_kinds (the config's `keypad:` value; "fake" for a test's).
    kind: str
    # Hears every key (its keymap.py name) before it is decoded; check-hardware counts keys.
    on_key: Callable[[str], None] | None
    # Its screen, where a check's answer shows when the box has no answer LEDs (None: it
    # has none: a USB or membrane keypad).
    display: AnswerDisplay | None

    async def run(self, sink: Sink) -> None: ...

    def set_paused(self, paused: bool) -> None:
        """The game was paused or resumed (the - key toggles from here)."""
        ...

    def new_game(self, paused: bool) -> None:
        """A game begins (or is resumed, `paused` or not): nothing half-typed is kept."""
        ...

    def close(self) -> None: ...


class _Decoding:
    kind = ""

    def __init__(self) -> None:
        self.decoder = KeypadDecoder()
        self.closed = False
        # Hears every key before it is decoded: `check-hardware` counts the keys with it.
        self.on_key: Callable[[str], None] | None = None
        self.display: AnswerDisplay | None = None

    def set_paused(self, paused: bool) -> None:
        self.decoder.set_paused(paused)

    def new_game(self, paused: bool) -> None:
        # A digit typed as the last game ended, or its pause, must not reach this one.
        self.decoder._reset()
        self.decoder.set_paused(paused)

    def _key(self, key: str | None, sink: Sink) -> None:
        if key is not None and not self.closed:
            if self.on_key is not None:
                self.on_key(key)
            action = self.decoder.press(key)
            if action is not None:
                sink(action)


# --- USB keypad through evdev ---------------------------------------------------------

class InputDeviceLike(Protocol):
    @property
    def path(self) -> str | bytes: ...

    @property
    def name(self) -> str: ...

    def async_read_loop(self) -> AsyncIterator[Any]: ...

    def grab(self) -> None: ...

    def ungrab(self) -> None: ...

    def close(self) -> None: ...


def key_name(code: int) -> str | None:
    """The keymap's name for an evdev key code (None: not a keypad key)."""
    from evdev import ecodes

    names = ecodes.KEY.get(code)
    if names is None:
        return None
    for name in names if isinstance(names, list | tuple) else [names]:
        if name in EVDEV_KEYS:
            return EVDEV_KEYS[name]
    return None


def find_keypad() -> str:
    """The path of the first numeric keypad; one without letter keys wins over a keyboard."""
    import evdev
    from evdev import ecodes

    keyboards: list[str] = []
    for path in evdev.list_devices():
        try:
            dev = evdev.InputDevice(path)
        except OSError:
            continue
        try:
            keys = set(dev.capabilities().get(ecodes.EV_KEY, []))
        finally:
            dev.close()
        if {ecodes.KEY_KP0, ecodes.KEY_KPENTER} <= keys:
            if ecodes.KEY_Q not in keys:
                return str(path)
            keyboards.append(str(path))
    if keyboards:
        return keyboards[0]
    raise DeviceError("no numeric keypad found in /dev/input (is it plugged in, and may this "
                      "user read /dev/input? add it to the 'input' group)")


class EvdevKeypad(_Decoding):
    kind = "evdev"

    def __init__(self, device: InputDeviceLike | str | None = None, grab: bool = True) -> None:
        super().__init__()
        self.device_spec = device
        self.grab = grab
        self.device: InputDeviceLike | None = None

    def _open(self) -> InputDeviceLike:
        spec = self.device_spec
        if spec is not None and not isinstance(spec, str):
            return spec
        import evdev

        path = spec or find_keypad()
        try:
            dev: InputDeviceLike = evdev.InputDevice(path)
        except OSError as exc:
            raise DeviceError(f"cannot open keypad {path}: {exc.strerror}") from None
        return dev

    async def run(self, sink: Sink) -> None:
        from evdev import ecodes

        dev = self.device = self._open()
        if self.grab:
            # Typed numbers are secret: the console must not see (or echo) them.
            dev.grab()
        try:
            async for event in dev.async_read_loop():
                if self.closed:
                    break
                # value 1 = key down; 2 (auto-repeat) must not type a digit twice.
                if event.type == ecodes.EV_KEY and event.value == 1:
                    self._key(key_name(event.code), sink)
        except OSError as exc:
            if not self.closed:
                raise DeviceError(f"keypad {dev.path!s} went away: {exc.strerror}") from None
        finally:
            if self.grab:
                with contextlib.suppress(OSError):
                    dev.ungrab()
            dev.close()

    def close(self) -> None:
        self.closed = True
        if self.device is not None:
            self.device.close()


# keymap.py key names -> the evdev codes of a USB numeric keypad (what FakeEvdevDevice types).
EVDEV_CODES = {**{d: f"KEY_KP{d}" for d in "0123456789"}, "enter": "KEY_KPENTER",
               "/": "KEY_KPSLASH", "*": "KEY_KPASTERISK", "-": "KEY_KPMINUS",
               "+": "KEY_KPPLUS", ".": "KEY_KPDOT"}


class FakeEvdevDevice:
    """An input device that yields real `evdev.InputEvent`s fed by a test.

    evdev cannot create virtual devices without /dev/uinput; this stands in for an
    `evdev.InputDevice` in EvdevKeypad. `type_keys("KEY_KP1", "KEY_KPENTER")` sends each
    key down, a SYN report, key up, a SYN report, as the kernel does.
    """

    def __init__(self, name: str = "Fake USB numeric keypad",
                 path: str = "/dev/input/event-fake") -> None:
        self.name = name
        self.path = path
        self.grabbed = False
        self.closed = False
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._time = 0.0

    def capabilities(self) -> dict[int, list[int]]:
        from evdev import ecodes

        return {ecodes.EV_KEY: sorted(getattr(ecodes, n) for n in EVDEV_KEYS)}

    def grab(self) -> None:
        if self.grabbed:
            raise OSError(16, "Device or resource busy")
        self.grabbed = True

    def ungrab(self) -> None:
        self.grabbed = False

    def close(self) -> None:
        self.closed = True
        self._queue.put_nowait(None)

    def feed(self, events: Iterable[Any]) -> None:
        for event in events:
            self._queue.put_nowait(event)

    def event(self, etype: int, code: int, value: int) -> Any:
        from evdev import InputEvent

        self._time += 0.001
        sec = int(self._time)
        return InputEvent(sec, round((self._time - sec) * 1e6), etype, code, value)

    def type_keys(self, *names: str, repeat: int = 0) -> None:
        """Press and release each key (`repeat` auto-repeat events while it is down)."""
        from evdev import ecodes

        for name in names:
            code = getattr(ecodes, name)
            events = [self.event(ecodes.EV_KEY, code, 1), self.event(ecodes.EV_SYN, 0, 0)]
            for _ in range(repeat):
                events += [self.event(ecodes.EV_KEY, code, 2), self.event(ecodes.EV_SYN, 0, 0)]
            events += [self.event(ecodes.EV_KEY, code, 0), self.event(ecodes.EV_SYN, 0, 0)]
            self.feed(events)

    def unplug(self) -> None:
        self._queue.put_nowait(OSError(19, "No such device"))

    async def async_read_loop(self) -> AsyncIterator[Any]:
        while True:
            item = await self._queue.get()
            if item is None or self.closed:
                return
            if isinstance(item, OSError):
                raise item
            yield item


# --- a terminal ----------------------------------------------------------------------

class TerminalKeypad(_Decoding):
    """Reads keys from a text stream (stdin by default): "7" Enter, "/3" Enter, "*"...

    On a terminal, echo is off while it runs (restored after), and keys are read one at
    a time: nothing typed appears on the screen, so the screen shows nothing at night
    that depends on what was typed. Another stream is read a line at a time. The stream
    is read on a daemon thread, so a blocked read never holds up shutdown.

    Its display is the same terminal (devices/display.py): an answer is one line drawn in
    place and wiped after its time. A stream that is no terminal has no display. On a
    terminal it prints the keys' help once (in `lang`), and log lines that grant control
    (the page's PIN) never show there: the players read this screen."""

    kind = "terminal"

    def __init__(self, stream: TextIO | None = None, lang: str = "en") -> None:
        super().__init__()
        self.stream = stream
        self.lang = lang
        self._done: asyncio.Event | None = None
        self.terminal: TerminalDisplay | None = None
        try:
            import sys

            fd = (stream if stream is not None else sys.stdin).fileno()
        except (AttributeError, OSError, ValueError):
            fd = None
        if fd is not None:
            self.terminal = TerminalDisplay.for_terminal(fd)
            self.display = self.terminal
        if self.terminal is not None:
            # Made before the page logs its PIN: the players type here, so it never shows.
            self.terminal.keep_secrets_off()

    async def run(self, sink: Sink) -> None:
        import sys

        stream = self.stream if self.stream is not None else sys.stdin
        loop = asyncio.get_running_loop()
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        fd, saved = _quiet_terminal(stream)

        def reader() -> None:
            # RuntimeError: the loop closed while this thread was blocked in a read.
            with contextlib.suppress(OSError, ValueError, RuntimeError):
                if fd is not None:
                    import os

                    while chunk := os.read(fd, 64):
                        loop.call_soon_threadsafe(lines.put_nowait,
                                                  chunk.decode("utf-8", "replace"))
                else:
                    for line in iter(stream.readline, ""):
                        loop.call_soon_threadsafe(lines.put_nowait, _line_keys(line))
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(lines.put_nowait, None)

        threading.Thread(target=reader, name="terminal-keypad", daemon=True).start()
        if self.terminal is not None:
            self.terminal.lines(TERMINAL_HELP.get(self.lang, TERMINAL_HELP["en"]))
            self.terminal.guard()  # log lines on this terminal keep the answer off the scrollback
        try:
            while not self.closed:
                line = await lines.get()
                if line is None:
                    return
                for ch in line:
                    self._key(TERMINAL_KEYS.get(ch), sink)
        finally:
            if self.terminal is not None:
                self.terminal.unguard()
            _restore_terminal(fd, saved)

    def close(self) -> None:
        self.closed = True
        if self.terminal is not None:
            self.terminal.close()


def _line_keys(line: str) -> str:
    """A line read from a stream that is no terminal: its Enter after a one-key command
    ("-", "+", ".", "*") only ends the line; a bare Enter would count the hands."""
    body = line.rstrip("\r\n")
    return body if body and body[-1] in "-+.*" else line


def _quiet_terminal(stream: TextIO) -> tuple[int | None, list[Any] | None]:
    """Echo and line editing off on a terminal; (its fd, the settings to restore), or
    (None, None) for a stream that is no terminal."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None, None
    import os

    if not os.isatty(fd):
        return None, None
    import termios

    saved = termios.tcgetattr(fd)
    quiet = termios.tcgetattr(fd)
    quiet[3] &= ~(termios.ECHO | termios.ECHONL | termios.ICANON)
    quiet[6][termios.VMIN] = 1
    quiet[6][termios.VTIME] = 0
    termios.tcsetattr(fd, termios.TCSANOW, quiet)
    return fd, saved


def _restore_terminal(fd: int | None, saved: list[Any] | None) -> None:
    if fd is None or saved is None:
        return
    import termios

    with contextlib.suppress(OSError, termios.error):
        termios.tcsetattr(fd, termios.TCSANOW, saved)


# --- the fake -------------------------------------------------------------------------

class FakeKeypad(_Decoding):
    """Keys pressed by a test (`press("1", "enter")`, `type("/3\\n")`) go through the real
    key map to the sink given to `run`. It has a screen (a FakeDisplay stamped on `clock`)
    unless `display=False` (a keypad without one, like a USB keypad)."""

    kind = "fake"

    def __init__(self, display: bool = True, clock: Clock | None = None) -> None:
        super().__init__()
        self.screen: FakeDisplay | None = FakeDisplay(clock) if display else None
        self.display = self.screen
        self._sink: Sink | None = None
        self._stop = asyncio.Event()

    async def run(self, sink: Sink) -> None:
        self._sink = sink
        await self._stop.wait()

    def attach(self, sink: Sink) -> None:
        """Deliver without a running `run()` (for synchronous drivers)."""
        self._sink = sink

    def press(self, *keys: str) -> None:
        if self._sink is None:
            raise DeviceError("the fake keypad is not running")
        for key in keys:
            self._key(key, self._sink)

    def type(self, text: str) -> None:
        self.press(*(TERMINAL_KEYS[c] for c in text if c in TERMINAL_KEYS))

    def close(self) -> None:
        self.closed = True
        self._stop.set()
