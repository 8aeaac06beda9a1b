"""The organiser's page across a restart of the box: still signed in (the sessions are
kept in the state folder until they expire), and between games it offers "Next game"
and the set-up (found at a club evening: a restart signed the page out)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient

from narrator.clock import FakeClock
from narrator.devices.keypads import FakeKeypad
from narrator.web.auth import COOKIE, SESSION_HOURS, SESSIONS_FILE, PinGate
from tests.box.test_restart_between_games import WAITING, first_evening_game, make
from tests.web.harness import serve_service

Client = TestClient[web.Request, web.Application]
PIN = "731946"


class Wall:
    def __init__(self) -> None:
        self.t = 1.8e9

    def __call__(self) -> float:
        return self.t


def test_a_session_outlives_a_restart_until_it_expires_or_signs_out(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    store, wall, clock = tmp_path / "state" / SESSIONS_FILE, Wall(), FakeClock()
    gate = PinGate(PIN, clock.now, store=store, wall=wall)
    token = gate.try_pin("phone", PIN)
    other = gate.try_pin("laptop", PIN)
    assert token and other
    kept = store.read_text()
    assert token not in kept and PIN not in kept and oct(store.stat().st_mode)[-3:] == "600"
    assert token not in caplog.text and PIN not in caplog.text
    restarted = PinGate(PIN, FakeClock().now, store=store, wall=wall)
    assert restarted.valid(token) and restarted.valid(other) and not restarted.valid("forged")
    restarted.end(other)  # signed out: also after the next restart
    again = PinGate(PIN, FakeClock().now, store=store, wall=wall)
    assert again.valid(token) and not again.valid(other)
    assert not PinGate("000000", clock.now, store=store, wall=wall).valid(token)  # a new PIN
    wall.t += SESSION_HOURS * 3600 + 1
    assert not PinGate(PIN, clock.now, store=store, wall=wall).valid(token)
    store.write_text("{not json")
    assert not PinGate(PIN, clock.now, store=store, wall=wall).valid(token)  # logged, not fatal


def test_after_a_restart_between_games_the_page_is_signed_in_and_offers_the_next_game(
        tmp_path: Path) -> None:
    store = tmp_path / "state" / SESSIONS_FILE
    token = PinGate(PIN, FakeClock().now, store=store).try_pin("phone", PIN)  # before the restart
    assert token is not None
    asyncio.run(first_evening_game(tmp_path, finish=True))

    async def restarted() -> None:
        clock = FakeClock()
        service, speaker = make(tmp_path, clock, FakeKeypad())
        async with serve_service(service, clock, PinGate(PIN, clock.now, store=store)) as client:
            client.session.cookie_jar.update_cookies({COOKIE: token})  # the phone's, from before
            while WAITING not in [text for _at, text in speaker.said]:
                if not await clock.step():
                    clock.advance(1.0)
            page = await (await client.get("/game")).text()
            assert 'data-evening="next-game"' in page and 'href="/setup"' in page
            assert 'action="/logout"' in page  # signed in: the sign-out button
            assert service.box is None
            r = await client.post("/api/next-game")
            assert r.status == 200
            while service.box is None:
                if not await clock.step():
                    clock.advance(1.0)
            page = await (await client.get("/game")).text()
            assert 'data-kind="foul"' in page  # the corrections: still signed in

    asyncio.run(restarted())
