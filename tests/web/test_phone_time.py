"""The date on the protocols of a box without a real-time clock or a network (a Pi boots
in 1970 on a fresh card, or at its last shutdown's time): the organiser's phone tells it
through the page, the first game (begun at boot, before any phone) is dated by it, a later
jump of the system clock (NTP when a network is plugged in) moves nothing, and a protocol
dated by the box's own clock says so. On a virtual clock; the page through aiohttp's test
client, signed in with the PIN."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from narrator.box.service import Service
from narrator.clock import FakeClock
from narrator.devices.keypads import FakeKeypad
from narrator.wallclock import FLOOR, WallClock
from narrator.web.auth import PinGate
from narrator.web.site import make_server
from tests.box.test_service import drive, make_service, start

Client = TestClient[web.Request, web.Application]
PIN = "1357"
PHONE = 1_795_000_000.0  # 2026-11-18, what the organiser's phone says
TOLD_AT = 100.0  # seconds into the game on the monotonic clock


def local(seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(seconds))


def protocol_of(state: Path) -> tuple[dict[str, Any], str]:
    path = next(p for p in (state / "protocols").glob("*.json")
                if not p.name.endswith(".polemica.json"))
    return json.loads(path.read_text()), path.with_suffix(".html").read_text()


def play(tmp: Path, tell: bool) -> tuple[Service, list[int], float]:
    # Returns the service, the page's answers, and how long after the game's start it told.
    """One game on a box whose system clock says 1970 and jumps to 2030 mid-game; the
    phone tells the time (through the page) at TOLD_AT when `tell`."""
    clock = FakeClock()
    keypad = FakeKeypad()
    service, _panel, _speaker = make_service(tmp, clock, keypad)
    wall = service.wallclock
    wall.synced = lambda: False
    wall.system = lambda: 3600.0 + clock.now() + (9e8 if clock.now() > 300 else 0)  # NTP
    keypad.attach(service.submit)
    server = make_server(service, PinGate(PIN, clock.now), clock, service.evening)
    answers: list[int] = []
    begun: list[float] = []
    service.on_box.append(lambda _box: begun.append(clock.now()))  # as the game begins

    async def main() -> float:
        client: Client = TestClient(TestServer(server.app))
        await client.start_server()
        try:
            task = await start(service)
            while clock.now() < TOLD_AT:
                assert await clock.step()
            begun.append(clock.now())  # when the phone tells, on the monotonic clock
            if tell:
                body = {"now": PHONE * 1000}
                answers.append((await client.post("/api/clock", json=body)).status)
                await client.post("/login", data={"pin": PIN, "next": "/game"},
                                  allow_redirects=False)
                for bad in ({"now": "today"}, {"now": 1000}, {"now": True}, [1]):
                    answers.append((await client.post("/api/clock", json=bad)).status)
                told = await client.post("/api/clock", json=body)
                answers.append(told.status)
                assert (await told.json()) == {"clock": "phone"}
            await drive(clock, task)
            await task
            return begun[1] - begun[0]
        finally:
            await client.close()

    return service, answers, asyncio.run(main())


def test_the_phone_dates_the_first_game_and_a_clock_jump_moves_nothing(tmp_path: Path) -> None:
    service, answers, began = play(tmp_path, tell=True)
    assert answers == [401, 400, 400, 400, 400, 200]  # only a signed-in phone, a real time
    data, sheet = protocol_of(tmp_path / "state")
    game = data["game"]
    assert game["clock"] == "phone"
    # Told `began` seconds after the game began: the start is the phone's time
    # then, not 1970; the end is the phone's time carried on, not the jumped system clock.
    assert game["started"] == local(PHONE - began)
    assert local(PHONE) < game["finished"] < local(PHONE + 20_000)
    assert "the date may be wrong" not in sheet and "never set" not in sheet
    assert service.wallclock.source == "phone"


def test_a_protocol_dated_by_the_unset_box_clock_says_so(tmp_path: Path) -> None:
    _service, _answers, _began = play(tmp_path, tell=False)
    data, sheet = protocol_of(tmp_path / "state")
    assert data["game"]["clock"] == "unset"
    assert data["game"]["started"].startswith("1970-01-01")
    assert "the box&#x27;s clock was never set: the date is wrong" in sheet


def test_the_wall_clock_follows_the_phone_on_the_monotonic_clock() -> None:
    mono = [50.0]
    system = [FLOOR + 10]
    wall = WallClock(lambda: mono[0], system=lambda: system[0], synced=lambda: False)
    assert wall.source == "box" and wall.now() == FLOOR + 10
    system[0] = 5.0
    assert wall.source == "unset"
    wall.synced = lambda: True
    assert wall.source == "network"
    heard: list[int] = []
    wall.listeners.append(lambda: heard.append(1))
    assert not wall.tell(1000.0) and not wall.tell(float("inf")) and not heard
    assert wall.tell(PHONE) and heard == [1]
    mono[0] += 30
    system[0] += 86_400  # the system clock jumps: the phone's time goes on unmoved
    assert wall.now() == PHONE + 30 and wall.at(50.0) == PHONE and wall.source == "phone"
    assert wall.tell(PHONE + 31) and heard == [1]  # told again: heard once only
