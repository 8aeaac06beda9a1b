"""What a seat tile does on the organiser's page at each moment of the day, in each rule
set's terms: classic's accusation and its second, a hand raised and lowered and the count
(through the real server), and the live part's marks for it (which moment, whose hand)."""

from __future__ import annotations

import asyncio
import re

from narrator.engine.deal import deal
from narrator.engine.tasks import Accusations, AwaitSecond, Discussion, VoteOn
from narrator.rules.loader import load_bundled
from narrator.web.pages import live_fragment
from narrator.web.text import text
from tests.web.harness import Served
from tests.web.test_api import sign_in


def test_classic_accuses_seconds_and_counts_from_the_page(served: Served) -> None:
    async def main() -> None:
        roles = deal(load_bundled("classic"), 8, 3)
        async with served(rules="classic", seats=8, roles=roles, seed=3) as (table, client):
            await table.until(lambda: isinstance(table.state.current, Discussion)
                              and table.window_running())
            await sign_in(client)
            assert (await client.post("/api/action", json={"kind": "start_voting"})).status == 200
            assert isinstance(table.state.current, Accusations)
            page = await (await client.get("/game")).text()
            assert 'data-tap="nominate"' in page  # a tile accuses, as the keypad's N Enter

            # Seat 2 accuses seat 5 (who accuses whom: M . N); then seat 7's tile seconds.
            r = await client.post("/api/action", json={"kind": "nominate", "target": 5, "by": 2})
            assert r.status == 200
            await table.until(lambda: isinstance(table.state.current, AwaitSecond))
            assert 'data-tap="second"' in await (await client.get("/game")).text()
            assert (await client.post("/api/action", json={"kind": "second", "by": 7})).status == 200
            await table.until(lambda: isinstance(table.state.current, VoteOn))
            window = table.state.window

            # Hands: up, up, one down again; the count is the page's to give.
            for voter in (1, 3, 4):
                r = await client.post("/api/action", json={"kind": "vote", "voter": voter})
                assert r.status == 200
            r = await client.post("/api/action", json={"kind": "lower_hand", "voter": 3})
            assert r.status == 200
            view = await r.json()
            assert view["counting"] and view["timer_left"] is None
            assert view["ballot"]["votes"] == {"5": [1, 4]}
            r = await client.post("/api/action", json={"kind": "lower_hand", "voter": 3})
            assert r.status == 409
            assert (await r.json())["error"] == "Seat 3 has no hand up for this candidate."
            page = await (await client.get("/game")).text()
            assert 'data-tap="hand"' in page and "Hands up for seat 5: 2" in page
            for _ in range(6):  # a minute goes by, far past the ballot's 5 s: it waits
                table.clock.advance(10.0)
                for _ in range(20):
                    await asyncio.sleep(0)
            assert table.state.window == window and not table.box.performer.timers.is_open(window)
            assert (await client.post("/api/action", json={"kind": "count"})).status == 200
            assert table.state.window != window
            # Acquitted with 2 hands of 7: the accusations go on.
            await table.until(lambda: isinstance(table.state.current, Accusations))

    asyncio.run(main())


def _view(moment: str, ballot: dict[str, object] | None = None) -> dict[str, object]:
    seats = [{"seat": s, "name": f"P{s}", "alive": True, "fouls": 0, "nominated": False}
             for s in range(1, 7)]
    return {"game": {"id": "g", "over": False, "phase": "day", "day": 1, "paused": False},
            "seats": seats, "speaker": 0, "moment": moment, "timer_left": None,
            "timer_running": False, "said": "", "nominations": [], "ballot": ballot,
            "eliminations": [], "counting": ballot is not None}


def test_the_live_part_says_what_a_tile_does_and_whose_hand_is_up() -> None:
    for lang, words in (("en", "Hands up to lift them all: 1"), ("ru", "Поднятых рук за подъём всех: 1")):
        t = text(lang)
        assert 'data-tap="nominate"' in live_fragment(t, _view("proposals"))
        assert 'data-tap' not in live_fragment(t, _view("last_word"))
        ballot = {"kind": "elect", "round": 1, "candidates": [2, 5], "current": 5,
                  "votes": {"2": [1], "5": [3, 4]}}
        html = live_fragment(t, _view("ballot", ballot))
        assert 'data-tap="hand"' in html
        # Only the hands for the candidate voted on now are up on the tiles.
        hands = re.findall(r'<li class="([^"]*)" data-seat="(\d)"', html)
        assert [seat for classes, seat in hands if "hand" in classes.split()] == ["3", "4"]
        lift = {"kind": "lift", "round": 1, "candidates": [2, 5], "current": None,
                "votes": {"lift": [6]}}
        assert words in live_fragment(t, _view("lift_ballot", lift))
