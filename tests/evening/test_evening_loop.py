"""The evening loop on the service (fake ports, virtual clock): the winner and why are
said, then "protocol saved"; a bare Enter (the keypad's start key) or "next game" starts
the next game with the same names; the keypad (/0 Enter twice) and the voice ("abandon
the game", then "yes") abandon a game; a key the box refuses in the day gets "not now",
at night nothing at all."""

from __future__ import annotations

import asyncio
from pathlib import Path

from narrator.clock import FakeClock
from narrator.devices.keypads import FakeKeypad
from narrator.engine.requests import AbandonGame, NextGame
from narrator.evening import GameSetup
from narrator.voice.command_confirm import Act, Ask, Confirmer
from narrator.voice.commands import CommandSet, to_action
from tests.box.test_service import drive, make_service

TEN = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")


def test_the_end_is_said_and_a_bare_enter_starts_the_next_game(tmp_path: Path) -> None:
    clock = FakeClock()
    keypad = FakeKeypad()
    service, _panel, speaker = make_service(tmp_path, clock, keypad)
    service.evening.setup = GameSetup(names=TEN)

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(service.run(games=2))

        async def host() -> None:
            while service.games < 1:
                await clock.sleep(5)
            keypad.press("enter")  # nothing typed: the start key

        asyncio.get_running_loop().create_task(host())
        await drive(clock, task)
        await task

    asyncio.run(main())
    texts = [text for _at, text in speaker.said]
    assert texts.count("A new game begins.") == 2
    assert texts.count("The protocol is saved.") == 2
    ends = [i for i, t in enumerate(texts) if t == "The protocol is saved."]
    # The winner, then why, then the protocol.
    assert texts[ends[0] - 2] in ("The town wins.", "The mafia wins.", "The game is a draw.")
    assert texts[ends[0] - 1] in ("Every black player has left the table.",
                                  "The black players are as many as the red ones.",
                                  "Nobody has left the table for too many rounds.")
    assert service.evening.setup.names == TEN


def test_not_now_in_the_day_nothing_at_night_and_abandon_from_the_keypad(tmp_path: Path) -> None:
    clock = FakeClock()
    keypad = FakeKeypad()
    service, _panel, speaker = make_service(tmp_path, clock, keypad)

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(service.run(games=1))
        while service.box is None or service.box.performer.timers.open_windows() == []:
            assert await clock.step()
        box = service.box
        phase: str = box.game.state.phase  # read now: the loop below reads it afresh
        assert phase == "night"
        said = len(speaker.said)
        keypad.press("9", "9", "enter")  # no seat 99: refused, silently at night
        for _ in range(5):
            await asyncio.sleep(0)
        assert len(speaker.said) == said
        assert box.refused == 1
        while box.game.state.phase != "day" or not box.performer.idle:
            assert await clock.step()
        keypad.press("9", "9", "enter")
        while not speaker.said or speaker.said[-1][1] != "Not now.":
            assert await clock.step()
        assert box.refused == 2
        # Abandon: asked once, then confirmed by the same keys.
        keypad.press("/", "0", "enter")
        while speaker.said[-1][1] != "Abandon this game? Say yes, or type slash zero and Enter again.":
            assert await clock.step()
        assert service.evening.in_play
        keypad.press("/", "0", "enter")
        await drive(clock, task)
        await task
        assert service.evening.abandoned is not None
        assert speaker.said[-1][1] == "The game is abandoned."

    asyncio.run(main())


def test_the_voice_abandons_after_yes_and_asks_for_the_next_game() -> None:
    commands = CommandSet.for_language("en")
    clock = FakeClock()
    confirmer = Confirmer(clock)
    heard = commands.parse("abandon the game")
    assert heard is not None
    ask = confirmer.hear(heard)
    assert [type(d) for d in ask] == [Ask]  # the box says "Abandon this game?" first
    act = confirmer.hear(commands.parse("yes"))  # type: ignore[arg-type]
    assert isinstance(act[0], Act) and to_action(act[0].command) == AbandonGame()
    assert to_action(commands.parse("next game")) == NextGame()  # type: ignore[arg-type]
    ru = CommandSet.for_language("ru")
    assert to_action(ru.parse("прервать игру")) == AbandonGame()  # type: ignore[arg-type]
    assert to_action(ru.parse("следующая игра")) == NextGame()  # type: ignore[arg-type]


def test_an_abandoned_game_is_said_so_in_its_own_language(tmp_path: Path) -> None:
    """The page abandons a Russian game to start an English one: "the game is abandoned"
    is said in Russian, to the table that was playing it."""
    clock = FakeClock()
    keypad = FakeKeypad()
    service, _panel, speaker = make_service(tmp_path, clock, keypad)
    service.evening.setup = GameSetup(lang="ru", names=TEN)

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(service.run(games=2))
        while service.box is None:
            await asyncio.sleep(0.01)
        service.evening.abandon()  # what the set-up page does, then starts the next
        service.evening.start(GameSetup(lang="en", names=TEN))
        while "A new game begins." not in [text for _at, text in speaker.said]:
            if not await clock.step():
                await asyncio.sleep(0.01)
        task.cancel()

    asyncio.run(main())
    texts = [text for _at, text in speaker.said]
    assert "Игра прервана." in texts and "The game is abandoned." not in texts


def test_a_late_entry_after_the_end_does_not_start_the_next_game(tmp_path: Path) -> None:
    # Found at a club evening: the host's last vote typed as the game ended ("6 Enter")
    # started the next game at once; so would a stray "next speaker" key or a pad's long
    # press. Only the start key (a bare Enter), "next game" or the page start it.
    from narrator.engine.actions import EndSpeech

    clock = FakeClock()
    keypad = FakeKeypad()
    service, _panel, speaker = make_service(tmp_path, clock, keypad)
    service.evening.setup = GameSetup(names=TEN)
    stray_started: list[bool] = []

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(service.run(games=2))

        async def host() -> None:
            while service.games < 1:
                await clock.sleep(1)
            keypad.press("6", "enter")  # a late entry
            keypad.press(".")  # "next speaker"
            service.submit(EndSpeech(), "pads")  # a long press on a pad
            await clock.sleep(120)
            stray_started.append(service.evening.starting or service.evening.in_play)
            keypad.press("enter")  # the start key

        asyncio.get_running_loop().create_task(host())
        await drive(clock, task)
        await task

    asyncio.run(main())
    assert stray_started == [False]
    assert [t for _at, t in speaker.said].count("A new game begins.") == 2
