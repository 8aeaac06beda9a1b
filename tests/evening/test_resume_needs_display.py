"""A game resumed after a power cut is checked like a new one: when the box can't play it
as it is now (its checks' answers would go nowhere: the keypad's screen is gone), it is
not played. The box says so, the status LED shows a fault, the page says why; the host
sets it aside with /0 Enter twice (or the page's abandon), or restarts the box with the
screen back and the game resumes where it stood."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from narrator.box.ports import Ports
from narrator.box.service import Service
from narrator.boxconfig import load_settings
from narrator.clock import FakeClock
from narrator.devices.keypads import FakeKeypad
from narrator.evening import GameSetup
from narrator.phrases.book import PhraseBook
from narrator.records.journal import CURRENT, games_dir, journal_dir
from narrator.records.session import protocols_dir
from narrator.sdnotify import Notifier
from narrator.voice.fake import FakeSpeaker


def box(tmp_path: Path, clock: FakeClock, keypad: FakeKeypad, lang: str = "en"
        ) -> tuple[Service, FakeSpeaker]:
    settings = load_settings(None, {"state_dir": str(tmp_path / "state"),
                                    "cache_dir": str(tmp_path / "cache"), "keypad": "none"})
    speaker = FakeSpeaker(clock)
    service = Service(settings, Ports(speaker, None, [keypad]), clock, Notifier(""),
                      setup=GameSetup(rules="sport", lang=lang, input="keypad"))
    return service, speaker


async def until(clock: FakeClock, done: object, limit: float = 600.0) -> None:
    """Step the virtual clock until `done()`; start-up works in a thread for a moment."""
    deadline = time.monotonic() + 60
    while not done():  # type: ignore[operator]
        if not await clock.step():
            await asyncio.sleep(0.01)
        assert clock.now() < limit and time.monotonic() < deadline, "it never happened"


def play_into_night_zero(tmp_path: Path, lang: str = "en") -> None:
    """A game on a box with the keypad's screen, cut off in its night zero (the power)."""
    clock = FakeClock()
    service, _speaker = box(tmp_path, clock, FakeKeypad(clock=clock), lang)
    service.evening.next()  # the host asks for the game: nothing starts unasked

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(service.run())
        await until(clock, lambda: service.box is not None
                    and service.box.performer.timers.open_windows() != [])
        task.cancel()

    asyncio.run(main())
    assert (journal_dir(tmp_path / "state") / CURRENT).is_file()


def test_a_resumed_game_without_its_answer_display_is_held_not_played(tmp_path: Path) -> None:
    play_into_night_zero(tmp_path)
    clock = FakeClock()
    keypad = FakeKeypad(display=False, clock=clock)  # the screen is gone after the restart
    # The config's own set-up can't be played either: the box still starts (no exit 2),
    # since what it plays first is the unfinished game, and it must say what is wrong.
    service, speaker = box(tmp_path, clock, keypad)
    refused = PhraseBook.load("en").render("resume_refused")

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(service.run())
        await until(clock, lambda: refused in [t for _at, t in speaker.said])
        held = service.evening.held
        assert held is not None and held.problem.code == "answer_display"
        assert "the checks of don, sheriff" in held.problem.reason
        assert service.box is None  # nothing is played: no night, no window
        assert service.status_light.state == "error"
        texts = [t for _at, t in speaker.said]
        assert texts[0] == PhraseBook.load("en").render("ready")
        assert not any("night" in t.lower() for t in texts)
        # A bare Enter can't start another game over it.
        keypad.press("enter")
        await until(clock, lambda: True)
        assert service.evening.held is not None and not service.evening.starting
        # /0 Enter asks first, then sets it aside.
        keypad.press("/", "0", "enter")
        ask = PhraseBook.load("en").render("confirm_abandon")
        await until(clock, lambda: speaker.said[-1][1] == ask)
        assert service.evening.held is not None
        keypad.press("/", "0", "enter")
        gone = PhraseBook.load("en").render("game_abandoned")
        await until(clock, lambda: speaker.said[-1][1] == gone)
        assert service.evening.held is None
        assert service.status_light.state != "error"
        task.cancel()

    asyncio.run(main())
    state = tmp_path / "state"
    assert not (journal_dir(state) / CURRENT).exists()
    assert len(list(games_dir(state).glob("*.jsonl"))) == 1
    assert service.evening.abandoned is not None
    assert list(protocols_dir(state).glob("*.json"))


def test_with_the_screen_back_the_held_game_resumes(tmp_path: Path) -> None:
    play_into_night_zero(tmp_path)
    clock = FakeClock()
    held, speaker = box(tmp_path, clock, FakeKeypad(display=False, clock=clock), lang="ru")

    async def hold() -> None:
        task = asyncio.get_running_loop().create_task(held.run())
        # The held game speaks its own language (its set-up's), not the config's.
        refused = PhraseBook.load("en").render("resume_refused")
        await until(clock, lambda: refused in [t for _at, t in speaker.said])
        task.cancel()

    asyncio.run(hold())
    clock = FakeClock()
    service, speaker = box(tmp_path, clock, FakeKeypad(clock=clock))

    async def resume() -> None:
        task = asyncio.get_running_loop().create_task(service.run())
        await until(clock, lambda: service.box is not None)
        assert service.evening.held is None
        assert service.box is not None and service.box.game.state.phase == "night"
        task.cancel()

    asyncio.run(resume())
