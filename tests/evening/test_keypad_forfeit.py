"""The host's keypad gives sport's game to the other team for a severe breach (001) with
`/ / N Enter`, asked for again like the abandon: the first time the box says what the
keys will do, the same keys within the confirmation time do it; a rule set without the
forfeit refuses the keys ("not now" in the day). By voice: test_voice_forfeit.py."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from narrator.box.desk import CONFIRM_SECONDS
from narrator.box.service import Service
from narrator.clock import FakeClock
from narrator.devices.keypads import FakeKeypad
from narrator.evening import GameSetup
from narrator.phrases.book import PhraseBook
from narrator.voice.fake import FakeSpeaker
from tests.box.test_service import make_service

Test = Callable[[Service, FakeKeypad, FakeSpeaker, FakeClock], Awaitable[None]]

EN = PhraseBook.load("en")


async def wait(clock: FakeClock, seconds: float) -> None:
    end = clock.now() + seconds
    while clock.now() < end:
        if not await clock.step():
            clock.advance(end - clock.now())


def play_to_the_first_day(tmp_path: Path, rules: str, test: Test) -> None:
    clock = FakeClock()
    keypad = FakeKeypad()
    service, _panel, speaker = make_service(tmp_path, clock, keypad)
    service.evening.setup = GameSetup(rules=rules)

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(service.run(games=1))
        while service.box is None or service.box.game.state.phase != "day" \
                or not service.box.performer.idle:
            assert await clock.step()
        await test(service, keypad, speaker, clock)
        task.cancel()

    asyncio.run(main())


def test_slash_slash_seat_enter_twice_gives_the_game_to_the_other_team(tmp_path: Path) -> None:
    async def test(service: Service, keypad: FakeKeypad, speaker: FakeSpeaker,
                   clock: FakeClock) -> None:
        box = service.box
        assert box is not None
        seat = box.game.state.living()[0]
        black = box.game.state.roles[seat] in ("mafia", "don")
        ask = EN.render("confirm_forfeit", {"seat": seat})
        keypad.press("/", "/", str(seat), "enter")
        while speaker.said[-1][1] != ask:
            assert await clock.step()
        assert not box.game.over
        await wait(clock, CONFIRM_SECONDS + 1)  # too late: asked again, nothing done
        asked = sum(t == ask for _a, t in speaker.said)
        keypad.press("/", "/", str(seat), "enter")
        while sum(t == ask for _a, t in speaker.said) == asked:
            assert await clock.step()
        assert not box.game.over
        # The host hears the question out, takes a breath, types the same keys: done.
        await wait(clock, speaker.seconds(ask) + 2)
        keypad.press("/", "/", str(seat), "enter")
        await wait(clock, 0.5)
        assert box.game.over
        outcome = box.game.state.outcome
        assert outcome is not None and outcome.reason == "forfeit"
        assert outcome.winner == ("red" if black else "black")

    play_to_the_first_day(tmp_path, "sport", test)


def test_another_seat_or_a_rule_set_without_it_does_not_confirm(tmp_path: Path) -> None:
    async def test(service: Service, keypad: FakeKeypad, speaker: FakeSpeaker,
                   clock: FakeClock) -> None:
        box = service.box
        assert box is not None
        a, b = box.game.state.living()[:2]
        keypad.press("/", "/", str(a), "enter")
        keypad.press("/", "/", str(b), "enter")  # another seat: asked for that one
        await wait(clock, 0.5)
        assert not box.game.over
        keypad.press("/", "0", "enter")  # the abandon's keys don't confirm it either
        await wait(clock, 0.5)
        assert not box.game.over and service.evening.in_play

    play_to_the_first_day(tmp_path / "sport", "sport", test)

    async def club(service: Service, keypad: FakeKeypad, speaker: FakeSpeaker,
                   clock: FakeClock) -> None:
        box = service.box
        assert box is not None
        seat = box.game.state.living()[0]
        keypad.press("/", "/", str(seat), "enter")
        while speaker.said[-1][1] != EN.render("not_now"):
            assert await clock.step()
        keypad.press("/", "/", str(seat), "enter")
        await wait(clock, 0.5)
        assert not box.game.over
        assert EN.render("confirm_forfeit", {"seat": seat}) not in [t for _a, t in speaker.said]

    play_to_the_first_day(tmp_path / "club", "club", club)
