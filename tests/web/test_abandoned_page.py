"""The page after the organiser abandons a game: it says the game was abandoned, links its
protocol, offers the next game without asking to abandon again, and offers no correction
of a game that is gone (found at a club evening: it went on showing the abandoned game's
night with every correction, and "Next game" asked to abandon it once more)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient

from narrator.box.service import Service
from narrator.clock import FakeClock
from narrator.devices.keypads import FakeKeypad
from tests.box.test_service import make_service
from tests.web.harness import serve_service

PIN = "1357"


async def abandon_on_day_one(service: Service, clock: FakeClock, client: TestClient[Any, Any]) -> None:
    """Plays on to the first day, signs the organiser in and abandons the game."""
    while service.box is None or service.box.game.state.phase != "day":
        if not await clock.step():
            clock.advance(1.0)
    r = await client.post("/login", data={"pin": PIN, "next": "/game"}, allow_redirects=False)
    assert r.status == 303
    assert (await client.post("/api/abandon")).status == 200


def test_an_abandoned_game_shows_as_abandoned_not_in_play(tmp_path: Path) -> None:
    clock = FakeClock()
    service, _panel, _speaker = make_service(tmp_path, clock, FakeKeypad())

    async def main() -> None:
        async with serve_service(service, clock, pin=PIN) as client:
            await abandon_on_day_one(service, clock, client)
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


def test_an_abandoned_game_s_protocol_is_the_organiser_s_only(tmp_path: Path) -> None:
    """Found by a stranger at the table (issue 33): abandoned on day 1, the game's protocol
    (every player's role) was anyone's at /protocols/<id>.json and .html, and for the
    organiser its links answered 404 until the next game began. Signed out: no role, and
    the archive links nothing of it; signed in: every format, at once."""
    clock = FakeClock()
    service, _panel, _speaker = make_service(tmp_path, clock, FakeKeypad())

    async def main() -> None:
        async with serve_service(service, clock, pin=PIN) as client:
            await abandon_on_day_one(service, clock, client)
            game_id = (await (await client.get("/api/state")).json())["game"]["id"]
            names = (f"{game_id}.json", f"{game_id}.polemica.json", f"{game_id}.html")
            for name in names:  # the organiser's, right after the abandon
                r = await client.get(f"/protocols/{name}")
                assert r.status == 200, (name, r.status)
            sheet = await (await client.get(f"/protocols/{game_id}.json")).json()
            assert sheet["abandoned"] is True and sheet["seats"][0]["role"]
            archive = await (await client.get("/archive")).text()
            assert f"/protocols/{game_id}.html" in archive
            client.session.cookie_jar.clear()  # a stranger's phone
            for name in names:
                r = await client.get(f"/protocols/{name}", allow_redirects=False)
                body = await r.text()
                assert r.status in (303, 401), (name, r.status)
                assert "mafia" not in body.lower() and "sheriff" not in body.lower(), body
            r = await client.get(f"/protocols/{game_id}.html", allow_redirects=False)
            assert r.headers["Location"] == f"/login?next=/protocols/{game_id}.html"
            archive = await (await client.get("/archive")).text()
            assert f"/protocols/{game_id}" not in archive

    asyncio.run(main())
