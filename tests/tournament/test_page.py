"""The collector's page: both languages have every word; a stranger reads the standings
and changes nothing; the key is in no page, signed in or not."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from narrator.tournament.collector import Collector, Tournament
from narrator.tournament.page import words
from narrator.tournament.signing import sign_request
from narrator.tournament.store import Store
from narrator.uplink.rounds import words as box_words

KEY = "WXYZ-2345-6789-ABCD"


def test_both_languages_have_every_word() -> None:
    assert set(words("en")) == set(words("ru"))
    assert set(box_words("en")) == set(box_words("ru"))  # the box's tournament page
    assert all(words("ru")[k] != words("en")[k] for k in ("standings", "players", "total"))


def test_strangers_read_the_organiser_acts(tmp_path: Path) -> None:
    asyncio.run(_page(tmp_path))


async def _page(tmp: Path) -> None:
    store = Store(tmp / "t.sqlite")
    for n in range(10):
        store.add_player(f"Игрок <{n}>", "Клуб")
    collector = Collector(store, KEY, Tournament("Кубок", tables=1, rounds=2))
    async with TestClient(TestServer(collector.app())) as client:
        home = await client.get("/?lang=ru")
        text = await home.text()
        assert home.status == 200 and "Таблица" in text and "&lt;0&gt;" in text and "<0>" not in text
        assert "/seating" not in text and KEY not in text
        assert (await client.post("/seating")).status == 401
        assert (await client.post("/players", data={"name": "X"})).status == 401
        assert (await client.post("/login", data={"key": "WRONG-KEY"}, allow_redirects=False)).status == 401
        signed = await client.post("/login", data={"key": KEY.lower()}, allow_redirects=False)
        assert signed.status == 303
        token = signed.cookies["narrator_tournament"].value
        # A restarted collector keeps the organiser signed in, and keeps no cookie itself.
        again = Collector(store, KEY, Tournament("Кубок", tables=1, rounds=2))
        assert again.sessions == collector.sessions and token not in str(store.get("sessions"))
        text = await (await client.get("/")).text()
        assert "/seating" in text and KEY not in text
        answer = await client.post("/seating", headers={"Accept": "application/json"})
        assert answer.status == 200
        state = await (await client.get("/api/state")).json()
        assert sorted(state["seating"]) == ["1", "2"] and KEY not in str(state)
        # The organiser numbers the tables as they stand in the hall.
        store.saw_box("Box A", "127.0.0.1", 8081)
        store.saw_box("Box B", "127.0.0.1", 8082)
        assert [(b.name, b.table) for b in store.boxes()] == [("Box A", 1), ("Box B", 2)]
        numbered = await client.post("/boxes", json={"name": "Box B", "table": 1})
        assert numbered.status == 200
        assert [(b.name, b.table) for b in store.boxes()] == [("Box B", 1), ("Box A", 2)]
        assert (await client.post("/boxes", json={"name": "Nobody", "table": 3})).status == 400
        # Even a box with the key can't put a game in play on the public page.
        body = json.dumps(
            {"box": "T1", "protocol": {"game": {"id": "g1", "event": {"tournament": "Кубок"}}, "over": False}}
        ).encode()
        sent = await client.post(
            "/api/box/protocol", data=body, headers=sign_request(KEY, "POST", "/api/box/protocol", body)
        )
        assert sent.status == 400 and "finished" in (await sent.json())["error"]
        assert (await (await client.get("/api/state")).json())["games"] == []
        csv = await (await client.get("/export/standings.csv")).text()
        assert csv.splitlines()[0].startswith("place,name,club") and len(csv.splitlines()) == 11
