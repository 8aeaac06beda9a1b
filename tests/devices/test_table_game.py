"""A whole `sport` game played on the pads (gpiozero mock pins) and the keypad alone.

No voice and no deal: the box learns the roles from the night-zero taps. A small
executor carries the engine's effects out through the GpioSeatPanel and WindowTimers on
a FakeClock; the players act by pressing the mock pins (a tap, or a long press that ends
a speech) and the host types on the FakeKeypad (nominations, a foul). Along the way the
test checks what the table sees: every seat LED dark at night, the voters' LEDs during a
ballot, the sheriff's answer on the green LED only.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from narrator.box.windows import WindowTimers
from narrator.clock import FakeClock
from narrator.devices.gpio import GpioSeatPanel
from narrator.devices.keypads import FakeKeypad
from narrator.devices.pinmap import GpioPads, load_pin_map
from narrator.engine.actions import Action, WindowClosed
from narrator.engine.effects import (
    CloseWindow,
    Effect,
    Eliminated,
    ExtendWindow,
    GameOver,
    OpenWindow,
    PauseTimers,
    ResumeTimers,
    SeatLights,
    ShowAnswer,
)
from narrator.engine.game import Game
from narrator.engine.tasks import CallOut, LastWord, NightInput, Speech, VoteOn
from narrator.errors import RuleError
from narrator.rules.loader import load_bundled

MAP = load_pin_map()
ROLES = {2: "mafia", 4: "mafia", 7: "don", 3: "sheriff"}   # the others are civilians
BLACK = (2, 4, 7)
# Day -> (speaker, seat the host types as their nomination).
NOMINATIONS = {1: [(1, 2), (3, 4)], 2: [(3, 4), (1, 7)], 3: [(1, 7)]}


@dataclass
class Table:
    factory: Any
    clock: FakeClock
    game: Game
    panel: GpioSeatPanel
    keypad: FakeKeypad
    timers: WindowTimers
    refused: list[Action] = field(default_factory=list)
    eliminated: list[tuple[int, str, str, int]] = field(default_factory=list)
    answers: list[tuple[str, int, int]] = field(default_factory=list)  # (answer, green, red)
    ballot_lights: list[tuple[int, ...]] = field(default_factory=list)
    night_leds: set[float] = field(default_factory=set)
    over: bool = False

    def act(self, action: Action) -> None:
        try:
            effects = self.game.apply(action)
        except RuleError:
            self.refused.append(action)
            return
        self.carry_out(effects)

    def carry_out(self, effects: list[Effect]) -> None:
        for e in effects:
            if isinstance(e, OpenWindow):
                self.timers.open(e.window, e.seconds)
            elif isinstance(e, CloseWindow):
                self.timers.close(e.window)
            elif isinstance(e, ExtendWindow):
                self.timers.extend(e.window, e.seconds)
            elif isinstance(e, PauseTimers):
                self.timers.pause()
                self.panel.set_paused(True)
                self.keypad.set_paused(True)
            elif isinstance(e, ResumeTimers):
                self.timers.resume()
                self.panel.set_paused(False)
                self.keypad.set_paused(False)
            elif isinstance(e, SeatLights):
                self.panel.apply(e)
                if self.game.state.phase == "day" and isinstance(self.game.state.current, VoteOn):
                    self.ballot_lights.append(e.on)
            elif isinstance(e, ShowAnswer):
                self.panel.show_answer(e.answer, e.seconds, e.code)
                green = self.factory.pin(MAP.answer_yes).state
                red = self.factory.pin(MAP.answer_no).state
                self.answers.append((e.answer, green, red))
            elif isinstance(e, Eliminated):
                self.eliminated.append((e.seat, e.how, e.phase, e.number))
            elif isinstance(e, GameOver):
                self.over = True
                self.outcome = e.outcome

    def window_ran_out(self, window: int) -> None:
        self.act(WindowClosed(window))

    # The players' hands on the mock pins.
    def pin(self, seat: int) -> Any:
        assert isinstance(MAP.pads, GpioPads)
        return self.factory.pin(MAP.pads.pins[seat - 1])

    async def press(self, seat: int, seconds: float) -> None:
        self.pin(seat).drive_high()
        await self.run_for(seconds)
        self.pin(seat).drive_low()
        await self.run_for(0.05)

    async def run_for(self, seconds: float) -> None:
        end = self.clock.now() + seconds
        while True:
            for _ in range(5):
                await asyncio.sleep(0)
            nxt = self.clock.next_deadline()
            if nxt is None or nxt > end:
                break
            self.clock.set(nxt)
        self.clock.set(end)
        for _ in range(5):
            await asyncio.sleep(0)


def living_black(t: Table) -> list[int]:
    return [s for s in BLACK if t.game.state.alive[s]]


async def play_turn(t: Table, done: set[int]) -> None:
    """Whatever the players and the host do in the window open now (once per window)."""
    st = t.game.state
    cur, window = st.current, st.window
    if cur is None or window in done:
        await t.run_for(0.5)
        return
    done.add(window)
    if isinstance(cur, NightInput) and st.number == 0:   # night zero: holders meet the box
        holders = {"mafia_meet": BLACK, "don_meet": (7,), "sheriff_meet": (3,)}[cur.step]
        for seat in holders:
            await t.press(seat, 0.1)
    elif isinstance(cur, CallOut):
        step, called = cur.step, cur.seat
        if step == "mafia_shot" and called == 1 and len(living_black(t)) > 1:
            # Only the don shoots: not unanimous, so nobody is killed.
            await t.press(7, 0.1)
        elif step == "don_check" and called == 3 and st.alive[7]:
            await t.press(7, 0.1)
        elif step == "sheriff_check" and called == 4 + st.number - 1 and st.alive[3]:
            await t.press(3, 0.1)                    # checks 4 on night 1, 5 on night 2
    elif isinstance(cur, Speech):
        seat = cur.seat
        for speaker, target in NOMINATIONS.get(st.number, []):
            if speaker == seat:
                t.keypad.press(*str(target), "enter")
        if st.number == 1 and seat == 5:
            t.keypad.type("/5\n")                    # the host gives seat 5 a foul
        await t.press(seat, 1.2)                     # a long press ends the speech
    elif isinstance(cur, LastWord):
        await t.press(cur.seat, 1.2)
    elif isinstance(cur, VoteOn):
        candidate = cur.seat
        voters = [s for s in st.living() if s not in BLACK] if candidate in BLACK else []
        for seat in voters:
            await t.press(seat, 0.1)
    await t.run_for(0.2)


def test_a_whole_sport_game_on_pads_and_keypad(factory: Any) -> None:
    async def main() -> Table:
        clock = FakeClock()
        game = Game(load_bundled("sport"), seed=0)
        panel = GpioSeatPanel(MAP, pin_factory=factory, clock=clock)
        keypad = FakeKeypad()
        table = Table(factory, clock, game, panel, keypad, WindowTimers(clock))
        table.timers.on_expire = table.window_ran_out
        panel.start(table.act)
        keypad.attach(table.act)
        table.carry_out(game.opening)
        done: set[int] = set()
        for _ in range(5000):
            if table.over:
                break
            await play_turn(table, done)
            if game.state.phase == "night":
                table.night_leds |= {factory.pin(p).state for p in MAP.leds.pins}  # type: ignore[union-attr]
        panel.close()
        return table

    t = asyncio.run(main())
    assert t.over, "the game did not end"
    st = t.game.state
    # The box learned the deal from the night-zero taps alone.
    assert st.roles[1:] == [ROLES.get(s, "civilian") for s in range(1, 11)]
    assert t.eliminated == [(2, "vote", "day", 1), (4, "vote", "day", 2), (7, "vote", "day", 3)]
    assert t.outcome.winner == "red"
    assert st.fouls[5] == 1
    # Seat LEDs never lit at night; a ballot lit its voters as they tapped.
    assert t.night_leds == {0}
    assert (1,) in t.ballot_lights and (1, 3) in t.ballot_lights
    # Each night the don finds the sheriff (yes) and the sheriff checks 4 (black: yes),
    # then 5 (red: no): green for yes, red for no, on the answer LEDs only.
    # Night zero's three meetings first show the count of seats heard (green blinks).
    assert [a[:2] for a in t.answers[:3]] == [("count", 1), ("count", 1), ("count", 1)]
    assert t.answers[3:] == [("yes", 1, 0), ("yes", 1, 0), ("yes", 1, 0), ("no", 0, 1)]
    assert t.refused == []          # every tap, press and key was one the game expected
