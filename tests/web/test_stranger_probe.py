"""A stranger at the table, signed out, asks the box for everything it serves (every GET
route, the judge's and the deal's, each protocol format of the game, the live stream's
first message) in every state a game can be in: night, day, paused, abandoned on day 1,
unplayed (abandoned at night zero), a judge's game at night, and over. Until the game is
over no answer holds a role (a seat's, in any language, or any role word on the live
view); the organiser signed in reads an abandoned game's roles (issue 33: they were
anyone's, at /protocols/<id>.json); once it is over its protocol is anyone's.

The box is `narrator run`'s Service on a virtual clock, its page served over real HTTP
(aiohttp's test server), the stranger a client of its own with no cookie.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from narrator.clock import FakeClock
from narrator.daemon import Box
from narrator.devices.keypads import FakeKeypad
from narrator.engine.actions import Pause, Resume
from narrator.evening import GameSetup
from narrator.records.session import GameSession
from narrator.web.reading import role_words
from tests.box.test_service import make_service
from tests.web.harness import serve_service

PIN = "1357"
# The routes that show a game's moment: no role word there before the end, in any form.
LIVE = ("/game", "/api/state", "/api/events", "/judge", "/api/judge", "/deal", "/api/undo")


def routes_of(app: web.Application, game_id: str) -> list[str]:
    paths = []
    for route in app.router.routes():
        path = route.resource.canonical if route.resource is not None else ""
        if route.method != "GET" or path == "/api/events":
            continue
        if path == "/protocols/{name}":
            paths += [f"/protocols/{game_id}.{ext}" for ext in ("html", "json", "polemica.json")]
        elif path == "/static/{name}":
            paths += ["/static/app.js", "/static/style.css"]
        elif path == "/judge/{name}":
            paths += ["/judge/judge.js"]
        elif "{" not in path:
            paths.append(path)
    return [*paths, "/login/button?next=/game"]


async def stranger_reads(base: str, app: web.Application, game_id: str) -> dict[str, tuple[int, str]]:
    seen: dict[str, tuple[int, str]] = {}
    async with aiohttp.ClientSession() as http:  # no cookie: a phone never signed in
        for path in routes_of(app, game_id):
            async with http.get(base + path, allow_redirects=False) as r:
                seen[path] = (r.status, await r.text())
        async with http.get(base + "/api/events") as r:
            first = await asyncio.wait_for(r.content.readuntil(b"\n\n"), 30)
            seen["/api/events"] = (r.status, first.decode())
    return seen


def readable(body: str) -> str:
    """What an answer says: a JSON answer's (or live message's) values, not its keys (the
    voice cache's "done" is no don); anything else as it is."""
    text = body.split("data: ", 1)[1] if body.startswith(("retry:", "data:")) else body
    try:
        data = json.loads(text)
    except ValueError:
        return body

    def values(node: Any) -> list[str]:
        if isinstance(node, dict):
            return [v for item in node.values() for v in values(item)]
        if isinstance(node, list):
            return [v for item in node for v in values(item)]
        return [str(node)]

    return " ".join(values(data))


def roles_told(seen: dict[str, tuple[int, str]], box: Box) -> list[str]:
    """Where an answer tells a role: a seat's role in a protocol or JSON, or a role word on
    a route that shows the game."""
    rules = box.game.engine.rules
    words = role_words(tuple(rules.roles))
    found = []
    for path, (_status, body) in seen.items():
        if path.startswith("/static") or path.startswith("/judge/"):
            continue  # the box's own scripts: the same bytes in every game
        if '"role"' in body or "role:" in body.lower():
            found.append(f"{path}: a role field")
        if path.split("?")[0] in LIVE or path.startswith("/protocols/"):
            hit = words.search(readable(body))
            if hit:
                found.append(f"{path}: {hit.group(0)!r}")
    return found


def probe(tmp: Path, setup: GameSetup, moments: list[str]) -> dict[str, Any]:
    """Play a game to each moment (night, day, paused, abandon_day, abandon_night, over)
    and let the stranger read everything there."""
    clock = FakeClock()
    service, _panel, _speaker = make_service(tmp, clock, FakeKeypad(), asked=False)
    service.evening.start(setup)
    out: dict[str, Any] = {}

    async def main() -> None:
        async with serve_service(service, clock, pin=PIN) as client:
            base = str(client.make_url("")).rstrip("/")
            app = client.app  # the page's own
            assert app is not None

            async def until(done: Any) -> None:
                while not done():
                    if not await clock.step():
                        clock.advance(1.0)
                    assert clock.now() < 50_000, "the game did not get there"

            await until(lambda: service.box is not None)
            box = service.box
            assert box is not None and isinstance(box.session, GameSession)
            game_id = box.session.header.game_id
            signed = await client.post("/login", data={"pin": PIN, "next": "/game"},
                                       allow_redirects=False)
            assert signed.status == 303
            while setup.deal == "phone":  # the phone goes round: the box waits for it
                passed = await (await client.post("/api/deal/next")).json()
                if passed.get("closed", True):
                    break
            for moment in moments:
                if moment == "night":
                    await until(lambda: box.game.state.phase == "night"
                                and box.game.state.number >= 1)
                elif moment in ("day", "abandon_day"):
                    await until(lambda: box.game.state.phase == "day")
                elif moment == "paused":
                    await until(lambda: box.game.state.phase == "day")
                    box.apply_now(Pause(), "page")
                    await clock.step()
                elif moment == "over":
                    await until(lambda: box.game.over)
                if moment.startswith("abandon"):
                    assert (await client.post("/api/abandon")).status == 200
                    for _ in range(5):
                        await clock.step()
                seen = await stranger_reads(base, app, game_id)
                out[moment] = (seen, roles_told(seen, box), box.game.state.phase_label())
                if moment == "paused":
                    box.apply_now(Resume(), "page")
                if moment.startswith("abandon"):  # the organiser reads what the stranger can't
                    r = await client.get(f"/protocols/{game_id}.json")
                    sheet = json.loads(await r.text())
                    # (abandoned at night zero with cards at the table: no role learned yet)
                    assert r.status == 200 and (moment == "abandon_night" or sheet["seats"][0]["role"])
                    return

    asyncio.run(main())
    return out


def test_a_stranger_learns_no_role_until_the_end(tmp_path: Path) -> None:
    got = probe(tmp_path, GameSetup(rules="sport", lang="en"), ["day", "paused", "night",
                                                                  "abandon_day"])
    for moment, (seen, told, phase) in got.items():
        assert told == [], (moment, phase, told)
        assert seen["/judge"][0] == 303 and seen["/deal"][0] == 303, moment
        assert seen["/api/judge"][0] == 401 and seen["/api/undo"][0] == 401, moment
    seen = got["abandon_day"][0]
    assert all(seen[p][0] in (303, 401) for p in seen if p.startswith("/protocols/")), seen


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_stranger_learns_no_role_of_an_unplayed_game_or_a_judge_s_night(tmp_path: Path,
                                                                          lang: str) -> None:
    got = probe(tmp_path / "judge", GameSetup(rules="sport", lang=lang, deal="phone", judge=True),
                ["night", "day", "abandon_day"])
    for moment, (_seen, told, phase) in got.items():
        assert told == [], (moment, phase, told)
    unplayed = probe(tmp_path / "unplayed", GameSetup(rules="sport", lang=lang), ["abandon_night"])
    seen, told, phase = unplayed["abandon_night"]
    assert phase == "night-0" and told == [], told
    assert all(seen[p][0] in (303, 401, 404) for p in seen if p.startswith("/protocols/")), seen


def test_once_over_the_protocol_is_anyone_s(tmp_path: Path) -> None:
    got = probe(tmp_path, GameSetup(rules="sport", lang="en"), ["over"])
    seen, _told, _phase = got["over"]
    for ext in ("html", "json", "polemica.json"):
        status, _body = next(v for p, v in seen.items() if p.endswith("." + ext))
        assert status == 200, (ext, status)
    assert '"role"' in next(v for p, v in seen.items() if p.endswith(".json"))[1]
    with contextlib.suppress(KeyError):
        assert seen["/api/judge"][0] == 401
