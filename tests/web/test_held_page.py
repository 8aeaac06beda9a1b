"""The page of a box whose unfinished game can't go on (found on start; the keypad's
screen is gone): it says so and why in the game's language, and the PIN holder sets the
game aside with the abandon button; then the page offers a new game."""

from __future__ import annotations

import asyncio
from pathlib import Path

from narrator.clock import FakeClock
from narrator.devices.keypads import FakeKeypad
from tests.evening.test_resume_needs_display import box, play_into_night_zero, until
from tests.web.harness import PIN, serve_service


def test_the_page_says_why_the_game_is_held_and_abandons_it(tmp_path: Path) -> None:
    play_into_night_zero(tmp_path, lang="ru")
    clock = FakeClock()
    service, _speaker = box(tmp_path, clock, FakeKeypad(display=False, clock=clock), lang="en")

    async def main() -> None:
        async with serve_service(service, clock) as client:
            await until(clock, lambda: service.evening.held is not None)
            page = await (await client.get("/game")).text()
            assert "Незаконченную игру нельзя продолжить" in page  # the game's language
            assert "Этой коробке негде показать ответы проверок" in page
            assert service.evening.held is not None
            assert f"Игра {service.evening.held.game_id}" in page
            assert 'data-evening="abandon"' not in page  # the PIN first
            r = await client.post("/login", data={"pin": PIN, "next": "/game"},
                                  allow_redirects=False)
            assert r.status == 303
            page = await (await client.get("/game")).text()
            assert 'data-evening="abandon"' in page and 'data-confirm="confirm_abandon"' in page
            form = await (await client.get("/setup")).text()  # another game sets it aside:
            assert "An unfinished game this box can&#x27;t play now is waiting" in form
            r = await client.post("/api/abandon")
            assert r.status == 200, await r.text()
            assert service.evening.held is None and service.evening.abandoned is not None
            page = await (await client.get("/game")).text()
            assert "Незаконченную" not in page and "Waiting for the next game" in page
            assert 'data-evening="next-game"' in page  # as after a game's end

    asyncio.run(main())
