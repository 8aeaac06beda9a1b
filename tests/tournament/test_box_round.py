"""A round sent to a real box (the service and its page on a virtual clock, simulated
players): refused, signed, while a game is in play; refused unsigned, with another key,
or replayed; taken once the game is over, and then shown on the set-up page (names by
seat, tournament, table, round) for the table to confirm; sent again once played, it stays
played. Every round signed with the key, even one refused for now, tells the box where its
collector is."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

from narrator.rules.loader import load_bundled
from narrator.rules.settings import with_preset
from narrator.tournament.signing import NONCE, SIGNATURE, answer_ok, make_key, sign_request
from narrator.uplink import pairing
from tests.web.evening_box import PIN, EveningBox

KEY = make_key()
NAMES = [f"Игрок {n}" for n in range(1, 11)]
PRESET = with_preset(load_bundled("sport"), "tournament", {})  # as `narrator tournament --preset` sends it
ROUND = {
    "tournament": "Spring cup",
    "collector": "http://127.0.0.1:9",
    "table": 3,
    "round": 2,
    "game": 2,
    "rules": "sport",
    "settings": {k: list(v) if isinstance(v, tuple) else v for k, v in PRESET.items()},
    "lang": "en",
    "seats": 10,
    "names": NAMES,
}


def call(
    opener: urllib.request.OpenerDirector, url: str, body: bytes, headers: dict[str, str]
) -> tuple[int, bytes, dict[str, str]]:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with opener.open(request, timeout=10) as reply:
            return reply.status, reply.read(), dict(reply.headers)
    except urllib.error.HTTPError as err:
        return err.code, err.read(), dict(err.headers)


def test_a_round_waits_for_the_game_then_shows_on_the_setup_page(tmp_path: Path) -> None:
    box = EveningBox(tmp_path)
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    path = "/api/tournament/round"
    url = box.url + path
    body = json.dumps(ROUND).encode()
    try:
        assert call(opener, url, body, sign_request(KEY, "POST", path, body))[0] == 403  # not paired
        call(opener, box.url + "/login", f"pin={PIN}&next=/tournament".encode(), {})
        status, _, _ = call(
            opener,
            box.url + "/api/tournament/key",
            json.dumps({"key": KEY}).encode(),
            {"Content-Type": "application/json"},
        )
        assert status == 200
        shown = opener.open(box.url + "/tournament", timeout=10).read().decode()
        assert "paired" in shown.lower() and KEY not in shown  # the key is never shown again

        headers = sign_request(KEY, "POST", path, body)
        status, answer, got = call(opener, url, body, headers)
        assert status == 409  # the box's first game is in play
        assert answer_ok(KEY, 409, headers[NONCE], answer, got.get(SIGNATURE))
        # Refused for now, the round still tells the box where its collector is now.
        assert pairing.load(tmp_path / "state").collector == ROUND["collector"]
        assert pairing.load(tmp_path / "state").orders == ()  # but it has not taken it
        assert call(opener, url, body, headers)[0] == 401  # the same request again: a replay
        assert call(opener, url, body, sign_request(make_key(), "POST", path, body))[0] == 401
        assert call(opener, url, body, {})[0] == 401

        box.until(lambda: box.box is not None and box.box.game.over)
        box.settle()
        headers = sign_request(KEY, "POST", path, body)
        status, answer, got = call(opener, url, body, headers)
        assert status == 200, answer
        assert answer_ok(KEY, 200, headers[NONCE], answer, got.get(SIGNATURE))
        setup = box.service.evening.setup
        assert dict(setup.settings) == ROUND["settings"]
        assert setup.names == tuple(NAMES) and (setup.event.table, setup.event.round) == (3, 2)
        page = urllib.request.urlopen(box.url + "/setup", timeout=10).read().decode()
        assert "Spring cup" in page and "Игрок 10" in page
        assert pairing.load(tmp_path / "state").tournament == "Spring cup"
        assert pairing.load(tmp_path / "state").orders == (("Spring cup", 2, 3, 2),)
        assert not box.service.evening.starting  # the table confirms: nothing starts by itself

        # The table confirms and plays it; the same round sent again leaves it played.
        async def confirm() -> None:
            box.service.evening.start(box.service.evening.setup)

        box.loop.call(confirm())

        def round_over() -> bool:
            game = box.box
            return (
                game is not None
                and game.session.header is not None
                and tuple(game.session.header.names) == tuple(NAMES)
                and game.game.over
            )

        box.until(round_over)
        box.settle()
        headers = sign_request(KEY, "POST", path, body)
        status, answer, _ = call(opener, url, body, headers)
        assert status == 200 and json.loads(answer).get("played") is True
        assert box.service.evening.finished and not box.service.evening.starting
    finally:
        box.close()
