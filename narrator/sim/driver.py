"""Simulated players at a table with pads and a keypad (mock pins in the demo).

They decide as `Table` does, then act only through the devices: a short press on their
own pad to tap or vote, a long press to end their speech, and the host's keypad to
nominate, to type a best move or to give a foul. They act once the box has finished
speaking and the moment's window is open, like people at a table.

With `keypad_only` nobody touches a pad: a table with no pads, one private keypad. At
night zero each holder types their own seat when their role is called; on later nights
the role's holders type their target once, when its number is called; in the day the
host types the seats of the raised hands in a vote and then a bare Enter (the count: a
ballot the host counts waits for it), the seat of a seconder, and "." ends a speech.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Protocol

from narrator.clock import Clock
from narrator.devices.fake import FakeSeatPanel
from narrator.devices.gpio import GpioSeatPanel, mock_pin_factory
from narrator.devices.keypads import FakeKeypad
from narrator.devices.panel import BoardPanel
from narrator.devices.pinmap import GpioPads, load_pin_map
from narrator.engine.actions import Action, BestMove, Foul, Nominate, Second, Tap, Vote
from narrator.engine.effects import Effect
from narrator.engine.game import Game
from narrator.engine.tasks import AllOrNone, CallOut, LiftVote, Speech, SpeechTask, VoteOn
from narrator.engine.voting import counted_by_hand
from narrator.sim.players import Table

Press = Callable[[int, bool], None]  # (seat, down)

TAP_SECONDS = 0.15
HOLD_SECONDS = 1.3


class Timers(Protocol):
    def is_open(self, window: int) -> bool: ...


class Performing(Protocol):
    @property
    def timers(self) -> Timers: ...

    @property
    def idle(self) -> bool: ...


class PlayedBox(Protocol):
    """What the simulated players see of the box (narrator.box.referee.Box): its game,
    whether its performer has opened a window's timer, and every action it takes."""

    @property
    def game(self) -> Game: ...

    @property
    def performer(self) -> Performing: ...

    @property
    def listeners(self) -> list[Callable[[Action | None, list[Effect]], None]]: ...


class PadPlayers:
    def __init__(self, box: PlayedBox, table: Table, press: Press, keypad: FakeKeypad, clock: Clock,
                 seed: int, speech_seconds: tuple[float, float] = (3.0, 8.0),
                 keypad_only: bool = False) -> None:
        self.box = box
        self.table = table
        self.press = press
        self.keypad = keypad
        self.clock = clock
        self.rng = random.Random(seed ^ 0xB0A2D)
        self.speech_seconds = speech_seconds
        self.keypad_only = keypad_only
        self._seen = 0
        self._task: asyncio.Task[None] | None = None
        box.listeners.append(self._changed)

    def _changed(self, _action: Action | None, _effects: list[Effect]) -> None:
        st = self.box.game.state
        if st.window and st.window != self._seen and st.phase != "over":
            self._seen = st.window
            self._task = asyncio.get_running_loop().create_task(self._act(st.window))

    async def _window_open(self, window: int) -> bool:
        performer = self.box.performer
        timers = performer.timers
        while not timers.is_open(window):
            st = self.box.game.state
            if st.window != window:
                return False
            if counted_by_hand(st) and performer.idle:
                return True  # a ballot the host counts has no timer: the box has called it
            await self.clock.sleep(0.05)
        return True

    async def _act(self, window: int) -> None:
        if not await self._window_open(window):
            return
        st = self.box.game.state
        task = st.current
        if task is None:
            return
        actions = self.table.respond(st)
        if isinstance(task, SpeechTask) and not (isinstance(task, Speech) and task.final):
            low, high = self.speech_seconds
            await self.clock.sleep(self.rng.uniform(low, high) / 2)
            await self._do(actions)
            await self.clock.sleep(self.rng.uniform(low, high) / 2)
            if self.box.game.state.window == window:
                if self.keypad_only or not task.seat:
                    # "next speaker"; also for an accuser not named (the seat is 0)
                    self.keypad.press(".")
                else:
                    await self._pad(task.seat, HOLD_SECONDS)  # "thank you": a long press
            return
        await self.clock.sleep(self.rng.uniform(0.1, 0.5))
        await self._do(actions)

    async def _do(self, actions: list[Action]) -> None:
        if self.keypad_only:
            await self._type(actions)
            return
        for action in actions:
            if isinstance(action, Tap):
                await self._pad(action.seat, TAP_SECONDS)
            elif isinstance(action, Vote):
                await self._pad(action.voter, TAP_SECONDS)
            elif isinstance(action, Second):
                await self._pad(action.by, TAP_SECONDS)
            else:
                self._host_keys(action)
            await self.clock.sleep(0.05)

    def _host_keys(self, action: Action) -> None:
        """The host's keypad moves: the same with pads on the table or without."""
        if isinstance(action, Nominate):
            if action.by is not None and not isinstance(self.box.game.state.current, SpeechTask):
                # An accuser or proposer named: M . N Enter (a speaker's is just N Enter).
                self.keypad.press(*str(action.by), ".", *str(action.target), "enter")
            else:
                self.keypad.press(*str(action.target), "enter")
        elif isinstance(action, BestMove):
            for seat in action.seats:
                self.keypad.press(*str(seat), "enter")
        elif isinstance(action, Foul):
            self.keypad.press("/", *str(action.seat), "enter")

    async def _type(self, actions: list[Action]) -> None:
        """The same moves on the keypad alone."""
        task = self.box.game.state.current
        typed: list[int] = []
        for action in actions:
            if isinstance(action, Tap):
                if isinstance(task, CallOut):
                    # The role as a whole: its target once, when that number is called.
                    typed = [task.seat]
                else:
                    typed.append(action.seat)  # a meeting: each holder's own seat
                continue
            if isinstance(action, Vote):
                self.keypad.press(*str(action.voter), "enter")
            elif isinstance(action, Second):
                self.keypad.press(*str(action.by), "enter")
            else:
                self._host_keys(action)
            await self.clock.sleep(0.05)
        for seat in typed:
            self.keypad.press(*str(seat), "enter")
            await self.clock.sleep(0.05)
        if isinstance(task, VoteOn | LiftVote | AllOrNone):
            self.keypad.press("enter")  # the hands are counted

    async def _pad(self, seat: int, seconds: float) -> None:
        self.press(seat, True)
        await self.clock.sleep(seconds)
        self.press(seat, False)


def table_panel(seats: int, clock: Clock) -> tuple[BoardPanel, Press]:
    """Mock GPIO pins when the packaged pin map fits the table, else the fake panel."""
    pin_map = load_pin_map()
    if pin_map.seats == seats and isinstance(pin_map.pads, GpioPads):
        factory = mock_pin_factory()
        panel = GpioSeatPanel(pin_map, pin_factory=factory, clock=clock)
        pads = pin_map.pads

        def press(seat: int, down: bool) -> None:
            pin = factory.pin(pads.pins[seat - 1])
            if down == pads.active_high:
                pin.drive_high()
            else:
                pin.drive_low()

        return panel, press
    fake = FakeSeatPanel(seats, clock)
    return fake, lambda seat, down: fake.press(seat) if down else fake.release(seat)
