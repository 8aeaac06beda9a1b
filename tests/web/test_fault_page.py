"""A technical pause (the journal cannot be written) is on the live page, in both
languages, and goes away when the disk is back (issue 13)."""

from __future__ import annotations

import asyncio
import json

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient

from narrator.engine.deal import deal
from narrator.rules.loader import load_bundled
from narrator.web import pages
from narrator.web.text import text
from tests.web.harness import Served

Client = TestClient[web.Request, web.Application]
WORDS = {"en": ("Technical pause", "The game record cannot be written"),
         "ru": ("Техническая пауза", "Не удаётся записать протокол игры")}


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_page_shows_the_fault_and_clears_it(served: Served, lang: str) -> None:
    badge, sentence = WORDS[lang]

    async def main() -> None:
        async with served(roles=deal(load_bundled("sport"), 10, 3), seed=3, lang=lang) as (table, client):
            await table.until(lambda: table.state.phase == "day" and table.window_running())
            page = await (await client.get("/game")).text()
            assert badge not in page and 'class="fault"' not in page
            table.box.disk_failed(OSError(28, "No space left on device"))
            await settle()
            state = json.loads(await (await client.get("/api/state")).text())
            assert state["fault"] == "journal_unwritable"  # a word; the exception is logged
            page = await (await client.get("/game")).text()
            assert badge in page and sentence in page and "No space left on device" not in page
            assert 'role="alert"' in page
            table.box.disk_recovered()
            await settle()
            state = json.loads(await (await client.get("/api/state")).text())
            assert state["fault"] is None
            page = await (await client.get("/game")).text()
            # (The cue being said, "the technical pause is over", may still be on it.)
            assert 'class="fault"' not in page and sentence not in page

    asyncio.run(main())


def test_the_fault_is_told_in_words_never_as_the_exception() -> None:
    view = {"game": {"over": False, "phase": "night", "day": 1, "paused": False},
            "seats": [], "said": "", "eliminations": [], "fault": "OSError: <b>&</b>"}
    html = pages.live_fragment(text("en"), view)
    assert "OSError" not in html and "<b>" not in html and "&lt;b&gt;" not in html
    assert WORDS["en"][1] in html
