"""The collector's page: both languages have every word; a stranger reads and changes
nothing; the key is in no page; every control of the organiser is labelled and names a
game by its round, table and result; a refusal (a correction out of the rule set's
bounds, a round that can't be sent) is said on the page in words, in the page's language;
a correction is a record with who and why, in the log for everyone to read."""

from __future__ import annotations

import asyncio
import json
import re
from html.parser import HTMLParser
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from narrator.tournament.language import words
from narrator.tournament.signing import sign_request
from narrator.tournament.wire import Delivery
from narrator.uplink.rounds import words as box_words
from tests.tournament.cup import KEY, Cup, deliver, make_cup, organiser


def test_both_languages_have_every_word() -> None:
    assert set(words("en")) == set(words("ru"))
    assert set(box_words("en")) == set(box_words("ru"))  # the box's tournament page
    assert all(words("ru")[k] != words("en")[k] for k in ("standings", "players", "total", "where_title"))
    for key, text in words("en").items():  # the same blanks to fill in both
        assert set(re.findall(r"{(\w+)}", text)) == set(re.findall(r"{(\w+)}", words("ru")[key])), key


class Controls(HTMLParser):
    """Every input and select, and whether it sits inside a label."""

    def __init__(self) -> None:
        super().__init__()
        self.labels = 0
        self.fields: list[tuple[str, bool]] = []
        self.options: list[str] = []
        self._select = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "label":
            self.labels += 1
        if tag in ("input", "select") and a.get("type") != "hidden":
            self.fields.append((a.get("name") or "", self.labels > 0))
        if tag == "select":
            self._select = a.get("name") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self.labels -= 1

    def handle_data(self, data: str) -> None:
        if self._select == "game_id" and data.strip():
            self.options.append(data.strip())


def test_strangers_read_the_organiser_acts(tmp_path: Path) -> None:
    asyncio.run(_page(make_cup(tmp_path)))


async def _page(cup: Cup) -> None:
    async with TestClient(TestServer(cup.collector.app())) as client:
        home = await client.get("/?lang=ru")
        text = await home.text()
        assert home.status == 200 and "Таблица" in text and "Где я сижу" in text
        assert "/corrections" not in text and KEY not in text
        assert (await client.post("/seating")).status == 401
        assert (await client.post("/players", data={"name": "X"})).status == 401
        assert (await client.post("/login", data={"key": "WRONG-KEY"}, allow_redirects=False)).status == 401
        signed = await client.post("/login", data={"key": KEY.lower()}, allow_redirects=False)
        assert signed.status == 303
        token = signed.cookies["narrator_tournament"].value
        assert token not in str(cup.store.get("sessions"))  # the store keeps no cookie

        # A game is in: the organiser's controls name it and label every field.
        assert (await deliver(client, cup.game(1, 1, seed=5)))[1]["kept"] == "new"
        page = await (await client.get("/?lang=en")).text()
        assert KEY not in page
        parser = Controls()
        parser.feed(page)
        assert parser.fields and all(inside for _name, inside in parser.fields), parser.fields
        game = cup.store.games()[0]
        assert parser.options and parser.options[0].startswith("Round 1 · Table 1: ")
        assert game.uid not in parser.options[0]

        # A correction out of the rule set's bounds: refused, the reason on the page.
        fix = {
            "game_id": game.uid,
            "kind": "extra",
            "seat": "3",
            "value": "5",
            "who": "Ann",
            "why": "good play",
        }
        refused = await client.post("/corrections?lang=en", data=fix)
        assert refused.status == 400
        assert "Not done: seat 3: extra points go from -1 to 1, not 5" in await refused.text()
        refused = await client.post("/corrections?lang=ru", data={**fix, "seat": "11", "value": "0.5"})
        assert refused.status == 400 and "места 11 нет (за столом 10 мест)" in await refused.text()
        for change, said in (
            (
                {"kind": "winner", "value": "green"},
                "the winner must be a team of this game (black, red), not green",
            ),
            ({"kind": "fouls", "value": "9"}, "seat 3: fouls go from 0 to 4, not 9"),
            ({"why": ""}, "say why"),
            ({"who": ""}, "say who corrects"),
        ):
            answer = await client.post("/corrections?lang=en", data={**fix, "value": "0.5", **change})
            assert answer.status == 400 and said in await answer.text(), change
        assert cup.store.games()[0].corrections == ()
        answer = await client.post("/corrections", json={**fix, "value": "0.5"})
        assert answer.status == 200 and "id" in await answer.json()
        kept = cup.store.games()[0].corrections
        assert [(c.who, c.why, c.change.kind, c.change.seat, c.change.value) for c in kept] == [
            ("Ann", "good play", "extra", 3, 0.5)
        ]
        after = await client.post("/corrections?lang=en", data={**fix, "value": "0.5"}, allow_redirects=True)
        assert "The correction is kept." in await after.text()  # said once, after the redirect
        assert "The correction is kept." not in await (await client.get("/?lang=en")).text()
        answer = await client.post("/rounds/9/send?lang=en", data={})
        assert answer.status == 400 and "there is no round 9" in await answer.text()
        # "Send round" says on the page what each table answered (nothing listens at the
        # boxes' addresses here), and that a table whose game is in was left alone.
        sent = await (await client.post("/rounds/1/send?lang=en", data={})).text()
        assert "Round 1: table 1: its game is in, table 2: out of reach." in sent

    # The log is public: everybody reads who corrected what and why.
    async with TestClient(TestServer(cup.collector.app())) as anon:
        text = await (await anon.get("/?lang=en")).text()
        assert "Ann: seat 3: extra points 0.5 · good play" in text
        state = await (await anon.get("/api/state")).json()
        assert KEY not in json.dumps(state) and "refused" not in state  # the organiser's only
        csv = await (await anon.get("/export/standings.csv")).text()
        assert csv.splitlines()[0].startswith("place,name,club,rating_id") and len(csv.splitlines()) == 21
        assert "FIIM-10" in csv


def test_a_box_in_play_cannot_put_its_game_on_the_public_page(tmp_path: Path) -> None:
    asyncio.run(_in_play(make_cup(tmp_path)))


async def _in_play(cup: Cup) -> None:
    game = cup.game(1, 1, seed=6).to_json()
    game["protocol"]["over"] = False
    async with TestClient(TestServer(cup.collector.app())) as client:
        body = json.dumps(game).encode()
        sent = await client.post(
            "/api/box/protocol", data=body, headers=sign_request(KEY, "POST", "/api/box/protocol", body)
        )
        assert sent.status == 400 and "only a finished game counts" in (await sent.json())["reason"]
        assert (await (await client.get("/api/state")).json())["games"] == []
        await organiser(client)


def test_a_boxs_changed_result_waits_for_the_organisers_yes(tmp_path: Path) -> None:
    asyncio.run(_yes(make_cup(tmp_path)))


async def _yes(cup: Cup) -> None:
    game = cup.game(1, 2, seed=16)
    changed = Delivery(game.box, game.port, game.protocol.with_extra({5: 0.5}), game.journal)
    async with TestClient(TestServer(cup.collector.app())) as client:
        assert (await deliver(client, game))[1]["kept"] == "new"
        assert (await deliver(client, changed))[1]["kept"] == "pending"
        before = {line.player.name: line.total for line in cup.collector.standings()}
        await organiser(client)
        page = await (await client.get("/?lang=en")).text()
        assert "Table 2, round 1: the box gives extra points 5: +0.5" in page
        [fix] = cup.store.games()[0].corrections
        no_name = await client.post(f"/corrections/{fix.id}/decide?lang=en", data={"yes": "1"})
        assert no_name.status == 400 and "say who corrects" in await no_name.text()
        assert {line.player.name: line.total for line in cup.collector.standings()} == before
        yes = await client.post(
            f"/corrections/{fix.id}/decide?lang=en", data={"yes": "1", "who": "Judge Ann"}
        )
        assert yes.status == 200 and "The decision is kept." in await yes.text()
        seat5 = cup.seat(1, 2)[4]
        after = {line.player.name: line.total for line in cup.collector.standings()}
        assert after == {**before, seat5: before[seat5] + 0.5}
        again = await client.post(f"/corrections/{fix.id}/decide?lang=en", data={"yes": "0", "who": "Bob"})
        assert again.status == 400 and "that change is not waiting for a decision" in await again.text()
        log = await (await client.get("/?lang=en")).text()
        assert "Judge Ann: yes to change #" in log and "in force" in log


def test_the_address_printed_is_one_a_phone_opens(tmp_path: Path) -> None:
    cup = make_cup(tmp_path)

    async def listen() -> str:
        await cup.collector.start("0.0.0.0", 0)
        try:
            return cup.collector.address
        finally:
            await cup.collector.stop()

    address = asyncio.run(listen())
    assert address.startswith("http://") and address.endswith(f":{cup.collector.port}/")
    assert not address.startswith(("http://0.0.0.0", "http://127.", "http://localhost")), address
