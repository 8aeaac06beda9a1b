"""The box's own notices on the organiser's page (narrator.box.notices): the memory card that
refuses to save is on the page while it lasts, live, and gone once the card is back; every
notice has its words in both languages."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from narrator.box.notices import Notices
from narrator.clock import FakeClock
from narrator.devices.keypads import FakeKeypad
from narrator.web.auth import PinGate
from narrator.web.pages import box_notes as notes
from narrator.web.site import make_server
from narrator.web.text import text
from tests.box.test_service import make_service

Client = TestClient[web.Request, web.Application]


def test_the_card_refusing_to_save_is_on_the_page_until_it_is_back(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    service, _panel, _speaker = make_service(tmp_path, clock, FakeKeypad())
    blocked = tmp_path / "state" / "journal"
    blocked.parent.mkdir(parents=True)
    blocked.write_text("not a folder")  # the card refuses the journal's folder
    server = make_server(service, PinGate("1357", clock.now), clock, service.evening)
    # The live page is told of every change (its hub pokes the open pages).
    assert server.hub.poke in service.notices.listeners

    async def main() -> None:
        client: Client = TestClient(TestServer(server.app))
        await client.start_server()
        task = asyncio.get_running_loop().create_task(service.run())
        try:
            while "card" not in service.notices.items:
                assert await clock.step()
            page = await (await client.get("/game")).text()
            assert "No game can begin: the memory card cannot be written" in page
            # Words, not the exception: what the card answered is in the log only.
            assert "File exists" not in page and "Errno" not in page and 'role="alert"' in page
            blocked.unlink()
            while service.box is None:
                assert await clock.step()
            page = await (await client.get("/game")).text()
            assert "memory card" not in page
        finally:
            task.cancel()
            await client.close()

    asyncio.run(main())
    assert "File exists" in caplog.text  # the detail, for whoever reads the log


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_notice_has_its_words(lang: str) -> None:
    notices = Notices()
    notices.set("card", "card_unwritable", reason="<Read-only file system>")
    notices.set("unsaved", "protocol_unsaved", game="g1", reason="x")
    notices.set("record", "journal_unreadable", file="/s/current.broken-1.jsonl", reason="y")
    html = notes(text(lang), notices)
    assert html.count("<p") == 3 and "notice_" not in html  # a missing word shows its key
    assert "Read-only file system" not in html and "current.broken-1.jsonl" in html
