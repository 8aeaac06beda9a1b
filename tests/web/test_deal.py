"""Dealing without cards: each seat sees only its own role, in turn, and never again."""

from __future__ import annotations

import asyncio

from aiohttp import web
from aiohttp.test_utils import TestClient

from narrator.web.phone_deal import PhoneDeal
from tests.web.harness import PIN, Served

Client = TestClient[web.Request, web.Application]


def test_the_deal_goes_round_once_and_closes() -> None:
    done: list[bool] = []
    deal = PhoneDeal(["mafia", "civilian", "sheriff"], lambda: done.append(True))
    seen = []
    while not deal.closed:
        seen.append(deal.peek())
        deal.pass_on()
    assert seen == ["mafia", "civilian", "sheriff"] and done == [True]
    deal.pass_on()
    assert done == [True]


def test_the_page_shows_only_the_seat_whose_turn_it_is(served: Served) -> None:
    async def main() -> None:
        async with served() as (table, client):
            roles = ["don", "civilian", "sheriff"]
            table.server.deal = PhoneDeal(roles)
            assert (await client.post("/api/deal/peek?seat=1")).status == 401
            await client.post("/login", data={"pin": PIN}, allow_redirects=False)
            page = await (await client.get("/deal")).text()
            assert "Seat 1" in page and "Don" not in page  # the role comes only on a tap
            r = await client.post("/api/deal/peek?seat=2")
            assert r.status == 409
            r = await client.post("/api/deal/peek?seat=1")
            assert (await r.json())["role"] == "Don"
            for seat in (2, 3):
                r = await client.post("/api/deal/next")
                assert (await r.json()) == {"seat": seat, "closed": False}
            assert (await client.post("/api/deal/peek?seat=1")).status == 409
            await client.post("/api/deal/next")
            assert (await client.post("/api/deal/peek?seat=3")).status == 409
            page = await (await client.get("/deal")).text()
            assert "can&#x27;t be opened again" in page

    asyncio.run(main())
