"""A restart between games (the box power-cycled, the daemon restarted after a game ended
or was abandoned) waits for the next game to be asked for, as after a game's end: found
at a club evening, where such a restart started the configured game unasked. A restart in
the middle of a game still resumes it (tests/box/test_service.py)."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

from narrator.box.ports import Ports
from narrator.box.service import Service
from narrator.box.setups import initial_setup
from narrator.boxconfig import load_settings
from narrator.clock import FakeClock
from narrator.devices.fake import FakeSeatPanel
from narrator.devices.keypads import FakeKeypad
from narrator.engine.requests import NextGame
from narrator.evening import GameSetup
from narrator.evening.setup import Event
from narrator.sdnotify import Notifier
from narrator.voice.fake import FakeSpeaker
from tests.box.test_service import drive, seat_players

WAITING = "Waiting for the next game. To start it, press Enter on the keypad, or use the organiser's page."


def make(tmp_path: Path, clock: FakeClock, keypad: FakeKeypad,
         setup: GameSetup | None = None) -> tuple[Service, FakeSpeaker]:
    settings = load_settings(None, {"state_dir": str(tmp_path / "state"),
                                    "cache_dir": str(tmp_path / "cache"), "keypad": "none"})
    speaker = FakeSpeaker(clock)
    panel = FakeSeatPanel(10, clock)
    service = Service(settings, Ports(speaker, panel, [keypad]), clock, Notifier(""), setup=setup)
    service.on_box.append(lambda box: seat_players(box, panel, keypad, clock))
    return service, speaker


async def first_evening_game(tmp_path: Path, finish: bool) -> None:
    """Game 6 of an evening, played to its end or abandoned in its first day."""
    clock = FakeClock()
    keypad = FakeKeypad()
    settings = load_settings(None, {"state_dir": str(tmp_path / "state")})
    setup = dataclasses.replace(initial_setup(settings), event=Event(game=6))
    service, _speaker = make(tmp_path, clock, keypad, setup)
    service.evening.next()  # the host asks for the game: nothing starts unasked
    task = asyncio.get_running_loop().create_task(service.run(games=1))
    if not finish:
        while service.box is None or service.box.game.state.phase != "day":
            if not await clock.step():
                clock.advance(1.0)
        service.evening.abandon()
    await drive(clock, task)
    await task


@pytest.mark.parametrize(("finish", "number"), [(True, 7), (False, 6)])
def test_a_restart_between_games_waits_for_the_next_game(tmp_path: Path, finish: bool,
                                                         number: int) -> None:
    async def restarted() -> None:
        clock = FakeClock()
        keypad = FakeKeypad()
        service, speaker = make(tmp_path, clock, keypad)  # the config's game: no number
        task = asyncio.get_running_loop().create_task(service.run(games=1))
        while WAITING not in [text for _at, text in speaker.said]:
            if not await clock.step():
                clock.advance(1.0)
            assert clock.now() < 600, "the box never said that it waits"
        for _ in range(100):  # an hour of nobody asking: still nothing played
            clock.advance(36.0)
            await clock.step()
        said = [text for _at, text in speaker.said]
        assert said[0] == "The narrator is ready." and said[-1] == WAITING
        assert service.box is None and "A new game begins." not in said
        assert service.games == 0 and not service.evening.starting
        if finish:
            keypad.press("enter")  # the keypad's start key, as after a game's end
        else:
            service.submit(NextGame(), "voice")  # "next game"
        assert service.evening.starting
        await drive(clock, task)
        await task
        assert service.box is not None and service.box.game.over
        assert [text for _at, text in speaker.said].count("A new game begins.") == 1
        # The last game's set-up: game 7 after a finished game 6, 6 again after an abandon.
        assert service.evening.setup.event.game == number

    asyncio.run(first_evening_game(tmp_path, finish))
    asyncio.run(restarted())


def test_a_power_cut_in_the_game_begun_after_waiting_resumes_it(tmp_path: Path) -> None:
    """The between-games note goes when a game begins: a restart in that game resumes it."""
    async def waited_then_cut() -> None:
        clock = FakeClock()
        keypad = FakeKeypad()
        service, speaker = make(tmp_path, clock, keypad)
        task = asyncio.get_running_loop().create_task(service.run(games=1))
        while WAITING not in [text for _at, text in speaker.said]:
            if not await clock.step():
                clock.advance(1.0)
        keypad.press("enter")
        while service.box is None or service.box.game.state.phase != "day":
            if not await clock.step():
                clock.advance(1.0)
        task.cancel()  # the power cord is kicked
        with pytest.raises(asyncio.CancelledError):
            await task

    async def resumed() -> None:
        clock = FakeClock()
        service, speaker = make(tmp_path, clock, FakeKeypad())
        task = asyncio.get_running_loop().create_task(service.run(games=1))
        while service.box is None:
            if not await clock.step():
                clock.advance(1.0)
        said = [text for _at, text in speaker.said]
        assert service.box.game.state.phase == "day" and WAITING not in said
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(first_evening_game(tmp_path, finish=False))
    asyncio.run(waited_then_cut())
    assert not (tmp_path / "state" / "between-games.json").exists()
    asyncio.run(resumed())


def test_the_between_games_note(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from narrator.box.memory import ENDED, forget_end, last_end, remember_end

    assert last_end(tmp_path) is None  # a box that has not played: the game starts
    remember_end(tmp_path, "finished")
    assert last_end(tmp_path) == "finished" and oct((tmp_path / ENDED).stat().st_mode)[-3:] == "600"
    (tmp_path / ENDED).write_text("{torn")  # a damaged note still means a game ended
    assert last_end(tmp_path) == "abandoned" and "unreadable" in caplog.text
    forget_end(tmp_path)
    forget_end(tmp_path)  # a game begun twice over (a resume): nothing to remove
    assert last_end(tmp_path) is None
