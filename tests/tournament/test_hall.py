"""Every table's state on the organiser's page, on a clock the test moves: seated (its
round not sent), sent, playing (since when, the phase its box says), delivered, silent
(its box has said nothing for a while), with the games waiting in its box's outbox; a
table whose box was given to another table has no box."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from narrator.tournament.hall import current_round
from narrator.tournament.signing import sign_request
from narrator.tournament.wire import STATUS_PATH, BoxStatus, to_bytes
from tests.tournament.cup import KEY, Cup, deliver, make_cup

T0 = 1_796_000_000.0


def test_every_tables_state(tmp_path: Path) -> None:
    now = [T0]
    asyncio.run(_hall(make_cup(tmp_path, now=lambda: now[0]), now))


async def _hall(cup: Cup, now: list[float]) -> None:
    view = cup.collector.view
    async with TestClient(TestServer(cup.collector.app())) as client:

        async def status(box: str, **said: Any) -> int:
            body = to_bytes(BoxStatus(box, 8080, "Cup", **said))
            reply = await client.post(
                STATUS_PATH, data=body, headers=sign_request(KEY, "POST", STATUS_PATH, body)
            )
            return reply.status

        states = {s.table: s.state for s in view().tables()}
        assert states == {1: "sent", 2: "sent"}  # make_cup sent round 1 to both boxes
        assert (
            await status(
                "Box 1",
                round=1,
                table=1,
                game=1,
                playing=True,
                phase="day",
                number=2,
                since=T0 - 600,
                waiting=0,
            )
            == 200
        )
        assert (
            await status(
                "Box 2",
                round=1,
                table=2,
                game=1,
                playing=True,
                phase="night",
                number=1,
                since=T0 - 300,
                waiting=2,
            )
            == 200
        )
        tables = {s.table: s for s in view().tables()}
        assert (tables[1].state, tables[1].phase, tables[1].number, tables[1].since) == (
            "playing",
            "day",
            2,
            T0 - 600,
        )
        assert (tables[2].state, tables[2].waiting) == ("playing", 2)
        page = await (await client.get("/?lang=en")).text()
        assert "Tables, round 1" in page and "playing since" in page and ", day 2" in page
        assert "2 game(s) waiting in its outbox" in page and "last word 0 s ago" in page
        ru = await (await client.get("/?lang=ru")).text()
        assert "Столы, тур 1" in ru and "ночь 1" in ru

        assert (await deliver(client, cup.game(1, 1, seed=12)))[1]["kept"] == "new"
        now[0] = T0 + 200  # box 2 says nothing for 200 s: dead, off, or out of the network
        tables = {s.table: s for s in view().tables()}
        assert (tables[1].state, tables[2].state, int(tables[2].silent_for)) == ("delivered", "silent", 200)
        page = await (await client.get("/?lang=en")).text()
        assert "silent for 3 min" in page and "game in at" in page

        # A box that never was found by mDNS (no multicast here) says it is there: a spare.
        assert await status("Spare box", round=None, table=None) == 200
        spare = next(b for b in cup.store.boxes() if b.name == "Spare box")
        assert spare.table is None and spare.host == "127.0.0.1"
        # The organiser gives it table 2: the dead box becomes the spare, table 2 not yet sent to it.
        cup.store.assign("Spare box", 2)
        tables = {s.table: s for s in view().tables()}
        assert (tables[2].state, tables[2].box) == ("seated", "Spare box")
        assert next(b for b in cup.store.boxes() if b.name == "Box 2").table is None
        # A status never moves a known box: the address stays the one mDNS found.
        assert await status("Box 1", round=1, table=1) == 200
        assert next(b for b in cup.store.boxes() if b.name == "Box 1").port == 8081
        cup.store.assign("Box 1", None)
        assert {s.table: s.state for s in view().tables()}[1] == "delivered"
        assert current_round(cup.store.seating(), cup.store.games()) == 1
