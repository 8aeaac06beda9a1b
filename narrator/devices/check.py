"""`narrator check-hardware`: a builder walks round the table and the box checks itself.

1. Hands off: for a moment nobody touches anything; a pad that is active now is stuck.
2. Seats, one at a time: the seat's LED lights and is named; the builder touches that
   seat's pad, or holds it (1 s) when the LED stays dark. A touch from another seat's
   input is a crossed wire and is reported by the seat that was asked.
3. Box LEDs: each answer LED and the status LED lights in turn; a touch on any pad says
   "seen", a hold "not seen" (dark, or the wrong colour).
4. Host buttons, each asked in turn.
5. Keypads: every key pressed once, in any order.
6. Sound (sound_check.py): a tone played and recorded at once.
Each answer is awaited for `wait` seconds on the clock. With mock pins a MockTable
(mock_table.py) plays the builder, so the whole walk runs unattended on a virtual clock.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from narrator.clock import Clock, FakeClock
from narrator.devices.check_report import (
    Answer,
    BoxLedResult,
    ButtonResult,
    KeypadResult,
    Report,
    SeatResult,
    SoundResult,
)
from narrator.devices.keymap import MATRIX_KEYS
from narrator.devices.keypads import Keypad
from narrator.devices.lights import DARK, LIT
from narrator.devices.pads import HOLD_S
from narrator.devices.panel import BoardPanel, seat_led
from narrator.devices.pinmap import GpioLeds, GpioPads, PinMap
from narrator.devices.sound_check import analyse, tone_signal
from narrator.devices.sound_loop import SoundLoop
from narrator.engine.actions import (
    Action,
    AddTime,
    EndSpeech,
    Hold,
    Pause,
    Resume,
    Tap,
    Undo,
)
from narrator.errors import DeviceError

PARTS = ("seats", "box", "buttons", "keypad", "sound")
HOST_ACTIONS: dict[str, tuple[type[Action], ...]] = {
    "next": (EndSpeech,), "pause": (Pause, Resume), "undo": (Undo,), "add_time": (AddTime,),
}
QUIET_S = HOLD_S + 0.5     # hands off: long enough for a stuck pad to count as held
SETTLE_S = 0.2             # after an answer, before the next step
# The keys a USB numeric keypad must deliver (the names of keymap.py) and their labels.
USB_KEYS: dict[str, str] = {**{d: d for d in "0123456789"}, "enter": "Enter", "/": "/",
                            "*": "*", "-": "-", "+": "+", ".": "."}


class Builder(Protocol):
    """The person walking round the table (a MockTable on mock pins)."""

    async def at_seat(self, seat: int) -> None: ...

    async def at_box_led(self, output: str) -> None: ...

    async def press_button(self, name: str) -> None: ...

    async def press_keys(self, keypad: KeypadUnderTest) -> None: ...


@dataclass
class KeypadUnderTest:
    label: str
    keypad: Keypad | None
    keys: dict[str, str]            # key name (keymap.py) -> the label printed on it
    skipped: str | None = None
    error: str | None = None
    # On mock pins: the builder's finger on the fake keypad (key name, label), from its
    # kind's row (narrator/keypad_kinds.py); None: a real keypad, pressed by a person.
    press: Callable[[str, str], Awaitable[None]] | None = None


def usb_keypad(keypad: Keypad | None, *, error: str | None = None,
               press: Callable[[str, str], Awaitable[None]] | None = None) -> KeypadUnderTest:
    return KeypadUnderTest("USB keypad", keypad, dict(USB_KEYS), error=error, press=press)


def matrix_keypad(keypad: Keypad | None, labels: Sequence[str], *, error: str | None = None,
                  press: Callable[[str, str], Awaitable[None]] | None = None) -> KeypadUnderTest:
    return KeypadUnderTest("4x4 keypad", keypad, {MATRIX_KEYS[k]: k for k in labels},
                           error=error, press=press)


def led_where(pm: PinMap, seat: int) -> str:
    return (f"GPIO{pm.leds.pins[seat - 1]}" if isinstance(pm.leds, GpioLeds)
            else f"WS2812 pixel {seat}")


def pad_where(pm: PinMap, seat: int) -> str:
    if isinstance(pm.pads, GpioPads):
        return f"GPIO{pm.pads.pins[seat - 1]}"
    bank, bit = ("A", seat - 1) if seat <= 8 else ("B", seat - 9)
    return f"MCP23017 GP{bank}{bit}"


class TableCheck:
    def __init__(self, panel: BoardPanel, pin_map: PinMap, clock: Clock, *, wait: float,
                 say: Callable[[str], None], builder: Builder | None = None) -> None:
        self.panel = panel
        self.pin_map = pin_map
        self.clock = clock
        self.wait = wait
        self.say = say
        self.builder = builder
        self.report = Report()
        self._queue: asyncio.Queue[Action] = asyncio.Queue()
        self._stuck: set[int] = set()

    # --- plumbing ---------------------------------------------------------------------

    def _sink(self, action: Action) -> None:
        self._queue.put_nowait(action)

    async def _next(self, seconds: float) -> Action | None:
        """The next pad or button action within `seconds` on the clock, else None."""
        if not self._queue.empty():
            return self._queue.get_nowait()
        getter = asyncio.ensure_future(self._queue.get())
        timer = asyncio.ensure_future(self.clock.sleep(seconds))
        await asyncio.wait({getter, timer}, return_when=asyncio.FIRST_COMPLETED)
        timer.cancel()
        if getter.done():
            return getter.result()
        getter.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await getter
        return None

    async def _seat_answer(self, seconds: float) -> tuple[Answer, int] | None:
        """The first tap or hold of a seat that is not stuck: (how, seat)."""
        deadline = self.clock.now() + seconds
        while (left := deadline - self.clock.now()) > 0:
            action = await self._next(left)
            if action is None:
                return None
            if isinstance(action, Tap | Hold) and action.seat not in self._stuck:
                return ("hold" if isinstance(action, Hold) else "tap"), action.seat
        return None

    def _drain(self) -> list[Action]:
        out = []
        while not self._queue.empty():
            out.append(self._queue.get_nowait())
        return out

    @staticmethod
    def _spawn(act: Coroutine[Any, Any, None] | None) -> asyncio.Future[None] | None:
        return asyncio.ensure_future(act) if act is not None else None

    @staticmethod
    async def _finish(task: asyncio.Future[None] | None) -> None:
        if task is not None:
            await task

    def _light(self, output: str, on: bool) -> None:
        lights = self.panel.lights
        assert lights is not None
        lights.show({output: LIT if on else DARK})

    # --- the walk ---------------------------------------------------------------------

    async def run(self, parts: Sequence[str], keypads: Sequence[KeypadUnderTest]) -> Report:
        self.panel.start(self._sink)
        if any(p in parts for p in ("seats", "box", "buttons")):
            await self.hands_off()
        if "seats" in parts:
            await self.seats()
        if "box" in parts:
            await self.box_leds()
        if "buttons" in parts:
            await self.buttons()
        if "keypad" in parts:
            for keypad in keypads:
                await self.keypad(keypad)
        return self.report

    async def hands_off(self) -> None:
        self.say("Hands off every pad for a moment...")
        await self.clock.sleep(QUIET_S)
        for action in self._drain():
            if isinstance(action, Hold | Tap):
                self._stuck.add(action.seat)

    async def _lit(self, output: str, prompt: str,
                   act: Coroutine[Any, Any, None] | None) -> tuple[bool, tuple[Answer, int] | None]:
        """Light one LED, ask, and wait for a pad: (the output took the level, the answer)."""
        self._light(output, True)
        self.panel.outputs.flush()
        led_set = self.panel.outputs.level(output) > 0
        self.say(prompt)
        builder = self._spawn(act)
        got = await self._seat_answer(self.wait)
        await self._finish(builder)
        self._light(output, False)
        return led_set, got

    async def _settle(self, verdict: str | None) -> None:
        self.say(f"    {verdict or 'ok'}")
        await self.clock.sleep(SETTLE_S)
        self._drain()

    async def seats(self) -> None:
        pm = self.pin_map
        self.say(f"Seats: each LED lights in turn. Touch that seat's pad; if its LED stays "
                 f"dark, hold the pad for {HOLD_S + 0.5:.0f} s instead.")
        for seat in range(1, pm.seats + 1):
            result = SeatResult(seat, pad_where(pm, seat), led_where(pm, seat),
                                stuck=seat in self._stuck)
            self.report.seats.append(result)
            if result.stuck:
                self.say(f"  seat {seat}: its pad is stuck; skipped")
                continue
            result.led_set, got = await self._lit(
                seat_led(seat), f"  seat {seat}: its LED ({result.led}) is lit: touch seat "
                                f"{seat}'s pad", self.builder.at_seat(seat) if self.builder else None)
            if got is not None:
                result.answer, who = got
                if who != seat:
                    result.came_as, result.came_as_where = who, pad_where(pm, who)
            await self._settle(result.problem())

    async def box_leds(self) -> None:
        pm = self.pin_map
        outputs = [("yes", "answer LED green", f"GPIO{pm.answer_yes}"),
                   ("no", "answer LED red", f"GPIO{pm.answer_no}")]
        if pm.status is not None:
            outputs.append(("status", "status LED", f"GPIO{pm.status}"))
        self.say("Box LEDs: touch any pad when you see the LED named; hold a pad if you don't.")
        for output, label, where in outputs:
            result = BoxLedResult(label, where)
            self.report.box.append(result)
            result.led_set, got = await self._lit(
                output, f"  {label} ({where}) is lit",
                self.builder.at_box_led(output) if self.builder else None)
            if got is not None:
                result.answer = got[0]
            await self._settle(result.problem())

    async def buttons(self) -> None:
        for name, pin in self.pin_map.host_buttons:
            result = ButtonResult(name, f"GPIO{pin}")
            self.report.buttons.append(result)
            self.say(f"Host button '{name}' (GPIO{pin}): press it now")
            builder = self._spawn(self.builder.press_button(name) if self.builder else None)
            deadline = self.clock.now() + self.wait
            while not result.answered and (left := deadline - self.clock.now()) > 0:
                action = await self._next(left)
                if action is None:
                    break
                if isinstance(action, HOST_ACTIONS[name]):
                    result.answered = True
                elif not (isinstance(action, Tap | Hold) and action.seat in self._stuck):
                    result.others.append(_describe(action))
            await self._finish(builder)
            await self._settle(result.problem())

    async def keypad(self, under: KeypadUnderTest) -> None:
        result = KeypadResult(under.label, tuple(under.keys.values()), skipped=under.skipped,
                              error=under.error)
        self.report.keypads.append(result)
        if under.skipped is not None or under.error is not None or under.keypad is None:
            return
        keypad = under.keypad
        heard = asyncio.Event()

        def on_key(key: str) -> None:
            if key in under.keys and under.keys[key] not in result.got:
                result.got.add(under.keys[key])
                self.say(f"    {under.keys[key]}")
            heard.set()

        keypad.on_key = on_key
        runner = asyncio.ensure_future(keypad.run(lambda _action: None))
        self.say(f"{under.label}: press every key once, in any order: "
                 f"{' '.join(under.keys.values())}")
        builder = self._spawn(self.builder.press_keys(under) if self.builder else None)
        # Done when every key has come, when no key came for `wait` seconds, or when the
        # keypad failed (unplugged, or never there).
        while result.missing and not runner.done():
            heard.clear()
            waiter = asyncio.ensure_future(heard.wait())
            timer = asyncio.ensure_future(self.clock.sleep(self.wait))
            await asyncio.wait({waiter, timer, runner}, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            timer.cancel()
            if not heard.is_set():
                break
        await self._finish(builder)
        failure = _failure(runner) if runner.done() else ""
        keypad.close()
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError, DeviceError, OSError):
            await runner
        if failure:
            result.error = failure
        self.say(f"    {result.problem() or 'ok'}")


def _failure(task: asyncio.Future[None]) -> str:
    if task.cancelled():
        return ""
    exc = task.exception()
    if exc is None:
        return ""
    return str(exc) if isinstance(exc, DeviceError) else f"{type(exc).__name__}: {exc}"


def _describe(action: Action) -> str:
    if isinstance(action, Tap | Hold):
        return f"seat {action.seat} {action.kind}"
    return f"host {action.kind}"


def check_sound(loop: SoundLoop | None, *, skipped: str | None = None) -> SoundResult:
    """Play the tone, record it, measure it (blocking: a real device plays for two seconds)."""
    if loop is None:
        return SoundResult("", skipped=skipped or "not checked")
    result = SoundResult(loop.describe())
    try:
        recorded = loop.play_and_record(tone_signal(loop.rate))
    except DeviceError as exc:
        result.error = str(exc)
        return result
    result.figures = analyse(recorded, loop.rate)
    return result


async def run_unattended(walk: TableCheck, clock: FakeClock, parts: Sequence[str],
                         keypads: Sequence[KeypadUnderTest]) -> Report:
    """The walk on a virtual clock, with a MockTable as the builder."""
    task = asyncio.ensure_future(walk.run(parts, keypads))
    # Jump from one deadline to the next, checking after each whether the walk is done
    # (LED patterns and keypad scans keep deadlines coming: never run the clock to idle).
    while not task.done():
        await clock.run_until_idle(limit=clock.now())
        if task.done():
            break
        nxt = clock.next_deadline()
        if nxt is None:
            for _ in range(100):
                await asyncio.sleep(0)
                if task.done() or clock.next_deadline() is not None:
                    break
            else:
                task.cancel()
                raise RuntimeError("the unattended check is waiting on nothing")
            continue
        clock.set(nxt)
    return task.result()
