"""The page after the organiser abandons a game: it says the game was abandoned, links its
protocol, offers the next game without asking to abandon again, and offers no correction
of a game that is gone (found at a club evening: it went on showing the abandoned game's
night with every correction, and "Next game" asked to abandon it once more)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from narrator.clock import FakeClock
from narrator.devices.keypads import FakeKeypad
from tests.box.test_service import make_service
from tests.web.harness import serve_service

PIN = "1357"


def test_an_abandoned_game_shows_as_abandoned_not_in_play(tmp_path: Path) -> None:
    clock = FakeClock()
    service, _panel, _speaker = make_service(tmp_path, clock, FakeKeypad())

    async def main() -> None:
        async with serve_service(service, clock, pin=PIN) as client:
            while service.box is None or service.box.game.state.phase != "day":
                if not await clock.step():
                    clock.advance(1.0)
            r = await client.post("/login", data={"pin": PIN, "next": "/game"},
                                  allow_redirects=False)
            assert r.status == 303
            assert (await client.post("/api/abandon")).status == 200
            state = await (await client.get("/api/state")).json()
            game = state["game"]
            assert (game["over"], game["winner"], game.get("abandoned")) == (True, None, True)
            assert "role" not in state["seats"][0]  # nothing revealed by an abandon
            page = await (await client.get("/game")).text()
            assert "The game was abandoned" in page
            assert f"/protocols/{game['id']}.html" in page
            assert 'data-kind="foul"' not in page and 'data-confirm="confirm_abandon"' not in page
            assert 'data-evening="next-game"' in page and 'data-confirm="confirm_next"' not in page

    asyncio.run(main())
