"""The performer carries out every kind of effect the engine gives, each its own way (its
table, narrator.box.performer.PERFORM): a new kind of effect with no entry would be
dropped with an error in the log, an entry under the wrong kind would do the wrong thing.

Driven through a box's performer on a virtual clock: each effect is handed over alone and
what the ports and the timers show afterwards is read."""

from __future__ import annotations

import asyncio

from narrator.box.build import build
from narrator.box.performer import PERFORM
from narrator.box.session import Unrecorded
from narrator.clock import FakeClock
from narrator.devices.fake import FakeSeatPanel
from narrator.engine import effects
from narrator.engine.effects import (
    CloseWindow,
    Effect,
    ExtendWindow,
    OpenWindow,
    PauseTimers,
    Phase,
    ResumeTimers,
    Say,
)
from narrator.engine.game import Game
from narrator.phrases.book import PhraseBook
from narrator.rules.loader import load_bundled
from narrator.voice.fake import FakeSpeaker


def test_every_kind_of_effect_has_its_entry() -> None:
    kinds = {c for c in vars(effects).values()
             if isinstance(c, type) and issubclass(c, Effect) and c is not Effect}
    assert len(kinds) >= 13
    assert set(PERFORM) == kinds


def test_each_effect_does_what_its_kind_says() -> None:
    clock = FakeClock()
    paused: list[bool] = []
    panel = FakeSeatPanel(10)

    async def main() -> list[str]:
        game = Game(load_bundled("sport"), 10, 3)
        speaker = FakeSpeaker(clock)
        box = build(Unrecorded(game), speaker, PhraseBook.load("en"), clock, panel=panel,
                    on_pause=[paused.append])
        performer, timers = box.performer, box.performer.timers
        seen: list[str] = []

        async def perform(effect: Effect) -> None:
            performer.submit([effect])
            for _ in range(20):  # the loop's turns: no time passes for the timers
                await asyncio.sleep(0)
            while not performer.idle:  # a cue: the fake speaker speaks on the clock
                await clock.step()

        box.start([])
        await perform(OpenWindow(7, "speech", 60.0, 1))
        seen.append(f"open {timers.is_open(7)} {timers.remaining(7)}")
        await perform(ExtendWindow(7, 30.0))
        seen.append(f"extend {timers.remaining(7)}")
        await perform(PauseTimers())
        seen.append(f"pause {timers.paused} {paused}")
        await perform(ResumeTimers())
        seen.append(f"resume {timers.paused} {paused}")
        await perform(CloseWindow(7))
        seen.append(f"close {timers.is_open(7)}")
        await perform(Phase("day", 2))
        seen.append(f"phase {performer.phase}")
        await perform(Say("new_game", {}))
        seen.append(f"say {[s.cue for s in performer.spoken]} {performer.last_said != ''}")
        await box.stop()
        return seen

    assert asyncio.run(main()) == [
        "open True 60.0", "extend 90.0", "pause True [True]", "resume False [True, False]",
        "close False", "phase day-2", "say ['new_game'] True"]
