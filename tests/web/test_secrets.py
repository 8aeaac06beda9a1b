"""The PIN stays secret: nothing the box says in a whole game (start-up included, in
English and Russian) and nothing served to a client that is not signed in (every GET
route, the live event stream, the public pages, at every phase of that game) holds the
PIN, as digits or as the phrase books' number words.

The box runs as `narrator run` builds it (narrator.box.service.Service with the page served
by narrator.web.site.serve on 127.0.0.1), on a virtual clock with simulated players; the
page is read over real HTTP by a client without a session cookie.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import aiohttp
import pytest

from narrator.box.ports import Ports
from narrator.box.service import Service
from narrator.boxconfig import load_settings
from narrator.clock import FakeClock
from narrator.devices.fake import FakeSeatPanel
from narrator.devices.keypads import FakeKeypad
from narrator.phrases.numbers import cardinal
from narrator.voice.fake import FakeSpeaker
from narrator.web.server import WebServer
from narrator.web.site import serve
from tests.box.test_service import seat_players

# No seat call-out, seat number or time says these digits in this order.
PIN = "80590"


def pin_forms(pin: str) -> list[re.Pattern[str]]:
    """The PIN as digits (any separators between them) and as number words, in each of the
    phrase books' languages, masculine, feminine and neuter."""
    forms = [re.compile(r"\D{0,3}".join(pin))]
    for lang in ("en", "ru"):
        for gender in ("m", "f", "n"):
            words = [re.escape(cardinal(int(d), lang, gender)) for d in pin]
            forms.append(re.compile(r"\W{0,4}".join(words), re.IGNORECASE))
    return forms


def leaks(text: str, pin: str = PIN) -> list[str]:
    return [form.pattern for form in pin_forms(pin) if form.search(text)]


def test_the_check_finds_the_pin_in_every_form() -> None:
    """The check itself: the old cue's words, digits and spaced digits are all found."""
    assert leaks("The PIN is eight, zero, five, nine, zero.")
    assert leaks("ПИН-код: восемь, ноль, пять, девять, ноль.")
    assert leaks('{"said": "8 0 5 9 0"}') and leaks("<b>80590</b>")
    assert not leaks("Seats eight, nine and ten. Night 5, 9 seats, day 0.")


async def _get_all(http: aiohttp.ClientSession, base: str, server: WebServer,
                   game_id: str | None, over: bool) -> dict[str, str]:
    """Every GET route of the page as a visitor without a session sees it."""
    paths: list[str] = []
    for route in server.app.router.routes():
        if route.method != "GET":
            continue
        path = route.resource.canonical if route.resource is not None else ""
        if path == "/api/events":
            continue
        if path == "/static/{name}":
            paths += ["/static/app.js", "/static/style.css"]
        elif path == "/protocols/{name}":
            if game_id is not None and over:
                paths += [f"/protocols/{game_id}.{ext}" for ext in ("html", "json", "polemica.json")]
        elif "{" not in path:
            paths.append(path)
    paths += ["/login?code=123456", "/login/button?next=/game"]
    seen: dict[str, str] = {}
    for path in paths:
        async with http.get(base + path, allow_redirects=False) as response:
            seen[path] = f"{response.status} {dict(response.headers)} {await response.text()}"
    async with http.post(base + "/login", data={"pin": "11111", "next": "/game"},
                         allow_redirects=False) as response:
        seen["POST /login (wrong)"] = await response.text()
    async with http.get(base + "/api/events") as response:  # the live stream's first message
        seen["/api/events"] = (await asyncio.wait_for(response.content.readuntil(b"\n\n"), 30)
                               ).decode()
    assert "/game" in seen and "/api/state" in seen and "/setup" in seen and "/archive" in seen
    return seen


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_word_and_no_answer_to_a_stranger_holds_the_pin(tmp_path: Path, lang: str) -> None:
    settings = load_settings(None, {
        "state_dir": str(tmp_path / "state"), "cache_dir": str(tmp_path / "cache"),
        "keypad": "none", "game": {"lang": lang},
        "web": {"listen": "127.0.0.1:0", "pin": PIN}})

    async def main() -> tuple[list[str], dict[str, str], int]:
        clock = FakeClock()
        speaker = FakeSpeaker(clock, lang)
        panel = FakeSeatPanel(10, clock)
        keypad = FakeKeypad()
        service = Service(settings, Ports(speaker, panel, [keypad]), clock)
        service.on_box.append(lambda box: seat_players(box, panel, keypad, clock))
        keypad.attach(service.submit)
        page = await serve(service, settings, clock, service.announce, service.evening)
        assert page is not None
        base = f"http://127.0.0.1:{page.port}"
        task = asyncio.get_running_loop().create_task(service.run(games=1))
        seen: dict[str, str] = {}
        moments = 0
        try:
            async with aiohttp.ClientSession() as http:
                # Start-up: the box waits for a game to be asked for (nothing starts unasked).
                for _ in range(200):
                    if any("Enter" in text for _at, text in speaker.said):
                        break
                    if not await clock.step():
                        await asyncio.sleep(0)
                assert service.box is None
                seen.update({f"waiting {k}": v for k, v in
                             (await _get_all(http, base, page, None, False)).items()})
                keypad.press("enter")  # the host's start key
                last = None
                while True:
                    box = service.box
                    where = (box.game.state.phase_label(), box.game.over) if box else None
                    if where != last:  # every phase of the game, and its end
                        last = where
                        moments += 1
                        game_id = box.session.header.game_id if box is not None else None
                        got = await _get_all(http, base, page, game_id, bool(where and where[1]))
                        seen.update({f"{where} {k}": v for k, v in got.items()})
                    if task.done():
                        break
                    if not await clock.step():
                        clock.advance(1.0)
                    assert clock.now() < 20_000, "the game did not end"
        finally:
            task.cancel()
            await page.stop()
        return [text for _at, text in speaker.said], seen, moments

    said, seen, moments = asyncio.run(main())
    assert moments >= 6 and len(said) > 100  # a whole game was heard and read
    assert any(where.startswith("('over'") or ", True)" in where for where in seen)
    assert any("Enter" in s for s in said[:4])  # the start-up's words are among them
    for text in said:
        assert not leaks(text), text
    for where, body in seen.items():
        assert not leaks(body), where
