"""`narrator check-hardware`: light every LED in turn, ask every seat to tap, report.

Each seat is asked in turn with its own LED lit, so a tap confirms the pad and that the
player saw the light; a tap from another seat while one is asked is reported as out of
turn (crossed wires). LEDs are also read back from their pins. Only seat numbers are
printed: the check shows nothing about any game.

With mock pins the check drives the pads itself (`MockHands`) on a virtual clock, so the
whole report is produced unattended.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from narrator.clock import Clock, FakeClock
from narrator.devices.gpio import GpioSeatPanel
from narrator.devices.lights import DARK, LIT
from narrator.devices.mcp23017 import FakeMcp23017
from narrator.devices.panel import BoardPanel, seat_led
from narrator.devices.pinmap import ExpanderPads, GpioLeds, GpioPads, PinMap
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

HOST_ACTIONS: dict[str, tuple[type[Action], ...]] = {
    "next": (EndSpeech,), "pause": (Pause, Resume), "undo": (Undo,), "add_time": (AddTime,),
}
PRESS_S = 0.15


@dataclass
class InputResult:
    name: str             # "seat 3 pad" or "host button next"
    where: str            # the pin
    answered: bool = False
    out_of_turn: list[str] = field(default_factory=list)


@dataclass
class LedResult:
    name: str
    where: str
    answered: bool = False


@dataclass
class Report:
    leds: list[LedResult] = field(default_factory=list)
    inputs: list[InputResult] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(r.answered for r in self.leds) and all(
            r.answered and not r.out_of_turn for r in self.inputs)

    def lines(self) -> list[str]:
        out = ["LEDs (lit in turn, read back from the pin):"]
        out += [f"  {r.name:<20} {r.where:<16} {'ok' if r.answered else 'NO ANSWER'}"
                for r in self.leds]
        out.append("Inputs (each asked in turn):")
        for r in self.inputs:
            state = "ok" if r.answered else "NO ANSWER"
            extra = f"  (meanwhile: {', '.join(r.out_of_turn)})" if r.out_of_turn else ""
            out.append(f"  {r.name:<20} {r.where:<16} {state}{extra}")
        leds_ok = sum(r.answered for r in self.leds)
        inputs_ok = sum(r.answered and not r.out_of_turn for r in self.inputs)
        out.append(f"{leds_ok} of {len(self.leds)} LEDs and {inputs_ok} of {len(self.inputs)} "
                   f"inputs answered" + ("" if self.ok else ": see above"))
        return out


def led_places(pm: PinMap) -> list[tuple[str, str, str]]:
    """(output name, label, where) for every LED of the map."""
    places = []
    for seat in range(1, pm.seats + 1):
        where = (f"GPIO{pm.leds.pins[seat - 1]}" if isinstance(pm.leds, GpioLeds)
                 else f"WS2812 pixel {seat}")
        places.append((seat_led(seat), f"seat {seat} LED", where))
    places += [("yes", "answer green", f"GPIO{pm.answer_yes}"),
               ("no", "answer red", f"GPIO{pm.answer_no}")]
    if pm.status is not None:
        places.append(("status", "status LED", f"GPIO{pm.status}"))
    return places


def pad_place(pm: PinMap, seat: int) -> str:
    if isinstance(pm.pads, GpioPads):
        return f"GPIO{pm.pads.pins[seat - 1]}"
    bank, bit = ("A", seat - 1) if seat <= 8 else ("B", seat - 9)
    return f"MCP23017 GP{bank}{bit}"


class MockHands:
    """Presses pads and host buttons on mock pins (or the emulated expander)."""

    def __init__(self, panel: GpioSeatPanel) -> None:
        self.panel = panel
        self.factory = panel.factory

    def _seat(self, seat: int, down: bool) -> None:
        pm = self.panel.pin_map
        if isinstance(pm.pads, ExpanderPads):
            assert self.panel.expander is not None
            bus = self.panel.expander.bus
            assert isinstance(bus, FakeMcp23017)
            bus.set_input(seat - 1, down == pm.pads.active_high)
            return
        pin = self.factory.pin(pm.pads.pins[seat - 1])
        if down == pm.pads.active_high:
            pin.drive_high()
        else:
            pin.drive_low()

    def _button(self, name: str, down: bool) -> None:
        pin = self.factory.pin(dict(self.panel.pin_map.host_buttons)[name])
        if down:
            pin.drive_low()
        else:
            pin.drive_high()

    async def press(self, clock: Clock, seat: int | None = None, button: str | None = None) -> None:
        act: Callable[[bool], None] = (
            (lambda d: self._seat(seat, d)) if seat is not None
            else (lambda d: self._button(str(button), d)))
        act(True)
        await clock.sleep(PRESS_S)
        act(False)


async def _wait(clock: Clock, event: asyncio.Event, seconds: float) -> bool:
    """Wait for the event, or `seconds` on the clock."""
    if event.is_set():
        return True
    waiter = asyncio.ensure_future(event.wait())
    timer = asyncio.ensure_future(clock.sleep(seconds))
    await asyncio.wait({waiter, timer}, return_when=asyncio.FIRST_COMPLETED)
    for t in (waiter, timer):
        t.cancel()
    return event.is_set()


async def check(panel: BoardPanel, pin_map: PinMap, clock: Clock, *, wait: float, dwell: float,
                say: Callable[[str], None], hands: MockHands | None = None) -> Report:
    report = Report()
    got: list[Action] = []
    arrived = asyncio.Event()

    def sink(action: Action) -> None:
        got.append(action)
        arrived.set()

    panel.start(sink)
    lights = panel.lights
    assert lights is not None
    say("Every LED lights in turn.")
    for name, label, where in led_places(pin_map):
        lights.show({name: LIT})
        await clock.sleep(dwell)
        report.leds.append(LedResult(label, where, panel.outputs.level(name) > 0))
        lights.show({name: DARK})
    asks = [_Ask(f"seat {seat} pad", pad_place(pin_map, seat), seat=seat)
            for seat in range(1, pin_map.seats + 1)]
    asks += [_Ask(f"host button {button}", f"GPIO{pin}", button=button)
             for button, pin in pin_map.host_buttons]
    for ask in asks:
        result = InputResult(ask.label, ask.where)
        if ask.seat is not None:
            lights.show({seat_led(ask.seat): LIT})
        say(f"{ask.label}: tap it now.")
        got.clear()
        arrived.clear()
        pressing = (asyncio.ensure_future(hands.press(clock, ask.seat, ask.button))
                    if hands is not None else None)
        deadline = clock.now() + wait
        while not result.answered and clock.now() < deadline:
            if not await _wait(clock, arrived, deadline - clock.now()):
                break
            arrived.clear()
            for action in got:
                if ask.matches(action):
                    result.answered = True
                else:
                    result.out_of_turn.append(_describe(action))
            got.clear()
        if pressing is not None:
            await pressing
        if ask.seat is not None:
            lights.show({seat_led(ask.seat): DARK})
        # Let the pad settle before the next one is asked.
        await clock.sleep(PRESS_S)
        report.inputs.append(result)
    return report


@dataclass(frozen=True)
class _Ask:
    label: str
    where: str
    seat: int | None = None
    button: str | None = None

    def matches(self, action: Action) -> bool:
        if self.seat is not None:
            return isinstance(action, Tap | Hold) and action.seat == self.seat
        return isinstance(action, HOST_ACTIONS[str(self.button)])


def _describe(action: Action) -> str:
    if isinstance(action, Tap | Hold):
        return f"seat {action.seat} {action.kind}"
    return f"host {action.kind}"


async def run_unattended(panel: GpioSeatPanel, clock: FakeClock, dwell: float, wait: float,
                         say: Callable[[str], None]) -> Report:
    """The check on mock pins and a virtual clock: the command presses every pad itself."""
    task = asyncio.ensure_future(check(panel, panel.pin_map, clock, wait=wait, dwell=dwell,
                                       say=say, hands=MockHands(panel)))
    # Jump from one deadline to the next, checking after each whether the check is done
    # (LED patterns keep deadlines coming forever, so never run the clock until idle).
    while not task.done():
        await clock.run_until_idle(limit=clock.now())
        if task.done():
            break
        nxt = clock.next_deadline()
        if nxt is None:
            await asyncio.sleep(0)
            if task.done():
                break
            task.cancel()
            raise RuntimeError("the unattended check is waiting on nothing")
        clock.set(nxt)
    return task.result()
