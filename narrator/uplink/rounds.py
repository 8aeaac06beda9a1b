"""The box's page, tournament part: the key typed once by the signed-in organiser
(`/tournament`), and the round the collector sends (`POST /api/tournament/round`), signed
with that key. A round becomes the next game's set-up (names by seat, tournament, table,
round and game number, rule set and settings), shown on the set-up page for the table to
confirm. A request not signed with this box's key changes nothing: a box takes seating
only from its own tournament's collector.
"""

from __future__ import annotations

import json
import logging
from functools import cache
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from aiohttp import web

from narrator.boxconfig import Settings
from narrator.errors import InputFileError
from narrator.evening import Evening, SetupError
from narrator.evening.setup import Event, GameSetup
from narrator.tournament.signing import NONCE, Verifier, normal_key, signed_json
from narrator.uplink import pairing
from narrator.yamlfile import parse_yaml

log = logging.getLogger("narrator.uplink")

ROUND_PATH = "/api/tournament/round"


class Host(Protocol):
    @property
    def settings(self) -> Settings: ...


class Page(Protocol):
    """What these routes need of the box's web server (narrator.web.server.WebServer)."""

    evening: Evening | None

    @property
    def host(self) -> Host: ...

    @property
    def lang(self) -> str:
        """The page's language (the game's, between games the evening's)."""
        ...

    def signed_in(self, request: web.Request) -> bool: ...

    def html(self, title: str, body: str, page: str, request: web.Request) -> web.Response:
        """The box's page layout (its navigation, the sign-in) around `body`."""
        ...


@cache
def words(lang: str) -> dict[str, str]:
    """The tournament part's words on the box's page, in English or Russian."""
    name = lang if lang in ("en", "ru") else "en"
    text = (resources.files("narrator.uplink") / "words" / f"{name}.yaml").read_text(encoding="utf-8")
    data = parse_yaml(text, f"narrator/uplink/words/{name}.yaml", InputFileError)
    return {str(k): str(v) for k, v in data.items()}


def state_dir_of(server: Page) -> Path:
    return Path(server.host.settings.state_dir)


def routes(server: Page, app: web.Application) -> None:
    folder = state_dir_of(server)
    verifiers: dict[str, Verifier] = {}

    def verifier(key: str) -> Verifier:
        if key not in verifiers:
            verifiers.clear()
            verifiers[key] = Verifier(key)
        return verifiers[key]

    async def page(request: web.Request) -> web.Response:
        current = pairing.load(folder)
        lang = str(request.query.get("lang") or server.lang)
        w = words(lang)
        if not current.paired:
            state = f"<p>{escape(w['not_paired'])}</p>"
        elif current.tournament:
            state = (
                f"<p>{escape(w['paired'].format(tournament=current.tournament))}</p>"
                f"<p><small>{escape(w['collector'].format(collector=current.collector))}</small></p>"
            )
        else:
            state = f"<p>{escape(w['paired_waiting'])}</p>"
        form = (
            f'<form method="post" action="/api/tournament/key"><label>{escape(w["key"])} '
            '<input name="key" type="password" autocomplete="off" required></label> '
            f"<button>{escape(w['save'])}</button></form>"
            if server.signed_in(request)
            else f'<p><a href="/login?next=/tournament">{escape(w["sign_in"])}</a></p>'
        )
        # In the box's layout: its navigation leads back to the game (found by a new user:
        # the page had none).
        body = f'<section class="box"><h2>{escape(w["title"])}</h2>{state}{form}</section>'
        return server.html(w["title"], body, "tournament", request)

    async def set_key(request: web.Request) -> web.StreamResponse:
        if not server.signed_in(request):
            return web.json_response({"error": "enter the PIN first"}, status=401)
        if request.content_type == "application/json":
            try:
                data = json.loads(await request.text())
            except ValueError:
                data = {}
            key = data.get("key") if isinstance(data, dict) else None
        else:
            key = (await request.post()).get("key")
        if not isinstance(key, str) or len(normal_key(key)) < 12 or len(key) > 100:
            return web.json_response(
                {"error": "key: the tournament key as the collector shows it"}, status=400
            )
        pairing.save(folder, pairing.Pairing(key=key.strip()))
        log.info("paired with a tournament key")
        if request.content_type == "application/json":
            return web.json_response({"paired": True})
        raise web.HTTPSeeOther("/tournament")

    async def take_round(request: web.Request) -> web.Response:
        current = pairing.load(folder)
        body = await request.read()
        if not current.paired:
            return web.json_response({"error": "this box has no tournament key"}, status=403)
        why = verifier(current.key).check("POST", ROUND_PATH, request.headers, body)
        if why is not None:
            log.warning("a round from %s refused: %s", request.remote, why)
            return web.json_response({"error": why}, status=401)
        nonce = request.headers[NONCE]

        def answer(status: int, data: dict[str, Any]) -> web.Response:
            raw, headers = signed_json(current.key, status, nonce, data)
            return web.Response(body=raw, status=status, content_type="application/json", headers=headers)

        evening = server.evening
        if evening is None:
            return answer(409, {"error": "this box has no set-up"})
        try:
            data = json.loads(body)
            setup = GameSetup(
                rules=str(data["rules"]),
                seats=int(data["seats"]),
                lang=str(data["lang"]),
                names=tuple(str(n) for n in data["names"]),
                event=Event(
                    str(data["tournament"]), int(data["table"]), int(data["round"]), int(data["game"])
                ),
                settings=dict(data.get("settings") or {}),
            )
            checked = evening.check(setup)
            collector = str(data["collector"])
            if not collector.startswith(("http://", "https://")):
                raise ValueError("collector: not an address")
        except SetupError as exc:
            return answer(400, exc.to_json())
        except (ValueError, KeyError, TypeError) as exc:
            return answer(400, {"error": f"not a round: {exc}"})
        if evening.in_play:
            return answer(409, {"error": "a game is in play at this table: send the round again after it"})
        if evening.finished and evening.setup.event == checked.event:
            # Sent again after the table played it (the collector lost the answer): keep it played.
            return answer(200, {"ok": True, "played": True})
        pairing.save(folder, current.with_round(checked.event.tournament, collector))
        evening.setup = checked
        evening.finished = False  # the set-up page offers this game, not one after it
        log.info("round %s taken: table %s", checked.event.round, checked.event.table)
        return answer(200, {"ok": True, "round": checked.event.round, "table": checked.event.table})

    app.router.add_get("/tournament", page)
    app.router.add_post("/api/tournament/key", set_key)
    app.router.add_post(ROUND_PATH, take_round)
