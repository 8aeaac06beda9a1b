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

from narrator.box.evening import Evening
from narrator.boxconfig import Settings
from narrator.errors import InputFileError
from narrator.evening import SetupError
from narrator.evening.setup import Event, GameSetup
from narrator.tournament.signing import NONCE, Verifier, normal_key, signed_json
from narrator.tournament.wire import ROUND_PATH, RoundOrder, WireError
from narrator.uplink import pairing
from narrator.uplink.outbox import played_here, read_answers, scan
from narrator.yamlfile import parse_yaml

log = logging.getLogger("narrator.uplink")


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
        body = f'<section class="box"><h2>{escape(w["title"])}</h2>{state}{outbox_part(w)}{form}</section>'
        return server.html(w["title"], body, "tournament", request)

    def outbox_part(w: dict[str, str]) -> str:
        """The games of the tournament on this box: waiting to be delivered, delivered,
        refused by the collector (and why), and those no round asked for."""
        answers, note = read_answers(folder)
        ledger = scan(folder, answers)
        lines = [w["waiting"].format(count=len(ledger.waiting)), w["kept"].format(count=len(ledger.kept))]
        if ledger.own:
            lines.append(w["own"].format(count=len(ledger.own)))
        out = "".join(f"<p>{escape(line)}</p>" for line in lines)
        if ledger.refused:
            items = "".join(
                f"<li>{escape(w['refused_item'].format(game=game, why=why))}</li>"
                for game, why in ledger.refused
            )
            out += f"<p>{escape(w['refused'])}</p><ul>{items}</ul>"
        if note:
            out += f"<p><small>{escape(w['last_error'].format(error=note))}</small></p>"
        return out

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
            order = RoundOrder.from_bytes(body)
            setup = GameSetup(
                rules=order.rules,
                seats=order.seats,
                lang=order.lang,
                names=order.names,
                event=Event(order.tournament, order.table, order.round, order.game),
                settings=dict(order.settings),
            )
            checked = evening.check(setup)
        except SetupError as exc:
            return answer(400, exc.to_json())
        except WireError as exc:
            return answer(400, {"error": str(exc)})
        # A round signed with the key says where the collector is now, whatever the box
        # makes of it: a box in play delivers its game there when it ends.
        if current.collector != order.collector:
            log.info("the collector is at %s now", order.collector)
        current = current.with_collector(order.collector)
        pairing.save(folder, current)
        if played_here(folder, order.place) is not None:
            # Sent again after the table played it (the collector lost the answer, or moved):
            # it stays played; the outbox delivers it.
            pairing.save(folder, current.with_round(order))
            return answer(200, {"ok": True, "played": True})
        if evening.in_play:
            return answer(409, {"error": "a game is in play at this table: send the round again after it"})
        pairing.save(folder, current.with_round(order))
        evening.setup = checked
        evening.finished = False  # the set-up page offers this game, not one after it
        log.info("round %s taken: table %s", checked.event.round, checked.event.table)
        return answer(200, {"ok": True, "round": checked.event.round, "table": checked.event.table})

    app.router.add_get("/tournament", page)
    app.router.add_post("/api/tournament/key", set_key)
    app.router.add_post(ROUND_PATH, take_round)
