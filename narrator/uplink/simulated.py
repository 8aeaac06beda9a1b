"""`narrator run --simulate`: the real box (the service, its page, its evening, the
tournament's routes and outbox) with simulated players at mock-pin pads and a fake
keypad, on a virtual clock that jumps ahead while a game is in play (as `demo --fast`
does) and keeps pace with real time between games, when the box waits for its round.
For `narrator tournament --demo` and the tests: several boxes on one computer.

A fresh box of this kind does not start a game by itself: it waits for its round, which
the simulated table confirms as soon as it is on the set-up page.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

from narrator.box.evening import Evening, EveningError
from narrator.box.memory import last_end, remember_end
from narrator.box.referee import Box
from narrator.boxconfig import Settings
from narrator.clock import FakeClock
from narrator.devices.keypads import FakeKeypad
from narrator.engine.deal import deal
from narrator.evening import GameSetup, SetupError
from narrator.sim.driver import PadPlayers, table_panel
from narrator.sim.players import Table as Players
from narrator.voice.fake import FakeSpeaker

log = logging.getLogger("narrator.uplink")

IDLE_STEP = 0.05  # real seconds between the clock's moves when no game is in play


async def run_simulated(
    settings: Settings,
    setup: GameSetup,
    seed: int,
    started: Callable[[object], Awaitable[None]] | None = None,
) -> None:
    """Serve games with simulated players until cancelled. `started(service)`: called
    once the service exists (the caller starts the page and the uplink there)."""
    from narrator.box.ports import Ports
    from narrator.box.service import Service
    from narrator.box.setups import unfinished_game

    state: Path = settings.state_dir
    state.mkdir(parents=True, exist_ok=True)
    if last_end(state) is None and not unfinished_game(settings):
        remember_end(state, "finished")  # wait for the round instead of playing a game of nobody's
    clock = FakeClock()
    seats = setup.seats
    panel, press = table_panel(seats, clock)
    keypad = FakeKeypad()
    service = Service(settings, Ports(FakeSpeaker(clock), panel, [keypad]), clock, setup=setup)
    keypad.attach(service.submit)

    def seat_players(box: Box) -> None:
        rules = box.game.engine.rules
        st = box.game.state
        cards = list(st.roles[1:]) if all(st.roles[1:]) else deal(rules, st.seats, seed)
        PadPlayers(box, Players(rules, seed, foul_rate=0.0, cards=cards), press, keypad, clock, seed)

    service.on_box.append(seat_players)
    if started is not None:
        await started(service)
    task = asyncio.get_running_loop().create_task(service.run())
    try:
        while not task.done():
            evening = service.evening
            if evening.in_play or evening.starting:
                if not await clock.step():
                    clock.advance(1.0)
            else:
                confirm(evening)
                await asyncio.sleep(IDLE_STEP)
                clock.advance(IDLE_STEP)
        await task
    finally:
        task.cancel()
        panel.close()
        keypad.close()


def confirm(evening: Evening) -> None:
    """The simulated table confirms a round the collector sent as soon as it is on the
    set-up page: a round taken clears `finished`, and the last game (over, or resumed after
    a restart) is not of this round."""
    if evening.finished or evening.held is not None or not evening.setup.event.tournament:
        return
    last = evening.box
    if (
        last is not None
        and last.session.header is not None
        and GameSetup.from_header(last.session.header).event == evening.setup.event
    ):
        return  # played (its end not yet told to the evening) or in play
    try:
        evening.start(evening.setup)
    except (EveningError, SetupError) as exc:
        log.warning("the simulated table can't start the round: %s", exc)


def simulated_settings(settings: Settings) -> Settings:
    """No real keypad or voice: the simulated table gives every input, tapping its mock
    pads (which `input: auto` takes for no pads at all: a laptop's), so pads it is."""
    method = "pads" if settings.input == "auto" else settings.input
    return replace(settings, keypad=replace(settings.keypad, kind="none"), input=method)
