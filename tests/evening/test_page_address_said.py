"""The page's address is said once an evening, even when the first game is abandoned
before the box got to say it: the next game's opening says it then."""

from __future__ import annotations

import asyncio
from pathlib import Path

from narrator.box.referee import Box
from narrator.clock import FakeClock
from narrator.devices.keypads import FakeKeypad
from narrator.engine.effects import Say
from narrator.evening import GameSetup
from tests.box.test_service import make_service

ADDRESS = Say("web_page", {"address": "ten dot zero dot zero dot seven", "port": 8080})


def test_a_game_abandoned_at_once_leaves_the_address_to_the_next(tmp_path: Path) -> None:
    clock = FakeClock()
    service, _panel, speaker = make_service(tmp_path, clock, FakeKeypad())
    service.announce.append(ADDRESS)
    boxes: list[Box] = []
    service.on_box.append(boxes.append)
    text = service.book.render(ADDRESS.cue, ADDRESS.params)

    async def next_game(games: int) -> None:
        for _ in range(20_000):
            if len(boxes) >= games:
                return
            if not await clock.step():
                await asyncio.sleep(0)
        raise AssertionError("the next game did not begin")

    async def said(what: str, times: int) -> None:
        for _ in range(20_000):
            if [t for _at, t in speaker.said].count(what) >= times:
                return
            if not await clock.step():
                await asyncio.sleep(0)
        raise AssertionError(f"{what!r} was not said {times} times")

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(service.run(games=3))
        await next_game(1)
        # The organiser abandons the first game at once, from the page, for another.
        service.evening.abandon()
        service.evening.start(GameSetup())
        await next_game(2)
        await said(text, 1)
        await said("A new game begins.", 1)
        service.evening.abandon()
        service.evening.start(GameSetup())
        await next_game(3)
        await said("A new game begins.", 2)
        task.cancel()

    asyncio.run(main())
    texts = [t for _at, t in speaker.said]
    assert texts.count(text) == 1, texts
    assert texts.index(text) < texts.index("A new game begins.")
