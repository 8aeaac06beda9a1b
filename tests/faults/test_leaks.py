"""Corrections at night are refused whatever device asks, the same with or without taps."""

from __future__ import annotations

import asyncio

from narrator.box.build import build
from narrator.box.session import Unrecorded
from narrator.clock import FakeClock
from narrator.engine.actions import Tap, Undo, Unfoul
from narrator.engine.game import Game
from narrator.engine.tasks import CallOut
from narrator.phrases.book import PhraseBook
from narrator.rules.loader import load_bundled
from narrator.voice.fake import FakeSpeaker

SPORT = ("civilian",) * 6 + ("sheriff", "mafia", "mafia", "don")


def night_with_undo(tap: bool) -> tuple[list[str], int, bool]:
    clock = FakeClock()

    async def main() -> tuple[list[str], int, bool]:
        game = Game(load_bundled("sport"), 10, 3, SPORT)
        speaker = FakeSpeaker(clock)
        box = build(Unrecorded(game), speaker, PhraseBook.load("en"), clock)
        timers = box.performer.timers
        box.start(list(game.opening))
        unchanged = True
        done = False
        for _ in range(50_000):
            st = game.state
            if not done and st.phase_label() == "night-1" and isinstance(st.current, CallOut) \
                    and timers.is_open(st.window):
                done = True
                if tap:
                    box.handle(Tap(8))  # a mafia player taps
                before = game.state.to_json()
                # The voice's "undo" + "yes", the keypad's undo key, a correction of a foul:
                for action in (Undo(), Undo(), Unfoul(3)):
                    assert box.handle(action) is None
                unchanged = game.state.to_json() == before
            if box.performer.phase == "day-2":
                break
            await clock.step()
        await box.stop()
        said = [t for _a, t in speaker.said]
        return said, box.refused, unchanged

    return asyncio.run(main())


def test_an_undo_at_night_is_refused_and_tells_nothing() -> None:
    quiet, refused_quiet, same_quiet = night_with_undo(tap=False)
    busy, refused_busy, same_busy = night_with_undo(tap=True)
    assert refused_quiet == refused_busy == 3
    assert same_quiet and same_busy
    night = [t for t in quiet if t]
    assert len(night) > 30
    # What the table hears up to the morning is the same (the kill is said at dawn, so
    # compare up to it).
    dawn = next(i for i, t in enumerate(quiet) if "morning" in t.lower())
    assert quiet[:dawn] == busy[:dawn]
