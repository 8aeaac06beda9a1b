"""What was chosen for a game is on its live page, in the page's language: how the players
give their inputs (pads, the keypad alone, both), which the cues say aloud anyway; the
rule sets' names on the set-up form and in the archive come from the phrase books (not on
the live page: "Sports mafia" names a role before the end)."""

from __future__ import annotations

import asyncio
import json

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient

from narrator.engine.deal import deal
from narrator.phrases.book import PhraseBook
from narrator.rules.loader import bundled_names, load_bundled
from tests.web.harness import Served

Client = TestClient[web.Request, web.Application]
SHOWN = {"en": "Players give their inputs with: the private keypad alone",
         "ru": "Игроки вводят: только тайной клавиатурой"}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_live_page_shows_the_input_method(served: Served, lang: str) -> None:
    inputs = SHOWN[lang]

    async def main() -> None:
        roles = deal(load_bundled("sport"), 10, 3)
        async with served(roles=roles, lang=lang, input="keypad") as (table, client):
            page = await (await client.get("/game")).text()
            assert inputs in page
            state = json.loads(await (await client.get("/api/state")).text())
            assert (state["game"]["input"], state["game"]["deal"]) == ("keypad", "cards")
            await table.until(lambda: table.state.phase == "day")
            page = await (await client.get("/game")).text()
            assert inputs in page  # the whole game long

    asyncio.run(main())


def test_every_bundled_rule_set_has_a_name_in_both_books() -> None:
    en, ru = PhraseBook.load("en"), PhraseBook.load("ru")
    assert set(en.rule_sets) == set(ru.rule_sets) == set(bundled_names())
    for name in bundled_names():
        assert en.rule_set_name(name) != ru.rule_set_name(name), name
    assert ru.rule_set_name("my-club.yaml", "My club") == "My club"  # a club's own file


def test_the_russian_set_up_form_names_the_rule_sets_in_russian(served: Served) -> None:
    async def main() -> None:
        async with served() as (_table, client):
            page = await (await client.get("/setup?rules=sport&seats=10&lang=ru")).text()
            ru = PhraseBook.load("ru")
            for name in bundled_names():
                assert f">{ru.rule_set_name(name)}</option>" in page, name
                assert load_bundled(name).title not in page, name

    asyncio.run(main())
