"""The collector: the tournament's web server on a laptop (or one of the boxes).

- the public page (standings, seating, tables, games and their protocol sheets, exports)
  and its JSON (`/api/standings`, `/api/state`): anybody on the network may read them;
- the organiser's controls behind the tournament key (`/login`): add players, seat the
  rounds, send a round to the boxes, correct a game;
- `/api/box/protocol`: a box delivers a finished game, signed with the key
  (narrator.tournament.signing); the answer is signed too, and acknowledges it.

Sending a round pushes each table's seating to the box that has its table number,
signed; the box answers, signed, that it has taken it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import aiohttp
from aiohttp import web

from narrator.tournament import page
from narrator.tournament.exports import polemica_of, standings_csv
from narrator.tournament.seating import SeatingError, SeatingRules, seat_named
from narrator.tournament.signing import NONCE, SIGNATURE, Verifier, answer_ok, sign_request, signed_json
from narrator.tournament.standings import Line, standings
from narrator.tournament.store import Store, StoreError

log = logging.getLogger("narrator.tournament")

COOKIE = "narrator_tournament"
ROUND_PATH = "/api/tournament/round"  # on the box
PROTOCOL_PATH = "/api/box/protocol"  # here
BODY_MAX = 4 * 1024 * 1024


@dataclass
class Tournament:
    """What the organiser set when starting the collector."""

    name: str
    rules: str = "sport"
    settings: Mapping[str, Any] = field(default_factory=dict)
    lang: str = "en"
    tables: int = 0  # at most this many a round; 0: as many as the players fill
    rounds: int = 1  # once seated: the rounds the seating has
    seats: int = 10
    seed: int = 1
    games: int = 0  # each player's; 0: one a round, `rounds` of them
    seating: SeatingRules | None = None  # None: the defaults (narrator/tournament/seating.yaml)


class Collector:
    def __init__(self, store: Store, key: str, tournament: Tournament) -> None:
        self.store = store
        self.key = key
        self.t = tournament
        self.verifier = Verifier(key, seen=store.nonce_book())
        # The organisers signed in, as hashes of their cookies, kept in the store: a restart
        # does not sign them out, and the store holds nothing a cookie could be made from.
        self.sessions: set[str] = set(store.get("sessions", []))
        self.url = ""  # where the boxes deliver: set once listening
        self.port = 0
        self._runner: web.AppRunner | None = None
        if store.seated():
            tournament.rounds = max(store.seating())
        store.put(
            name=tournament.name,
            rules=tournament.rules,
            settings=dict(tournament.settings),
            lang=tournament.lang,
            tables=tournament.tables,
            rounds=tournament.rounds,
        )

    # -- the server
    def app(self) -> web.Application:
        app = web.Application(client_max_size=BODY_MAX)
        r = app.router
        r.add_get("/", self.home)
        r.add_get("/static/style.css", self.style)
        r.add_get("/login", self.login_page)
        r.add_post("/login", self.login)
        r.add_post("/logout", self.logout)
        r.add_post("/players", self.add_player)
        r.add_post("/seating", self.seat)
        r.add_post("/rounds/{n}/send", self.send_round)
        r.add_post("/corrections", self.correct)
        r.add_post("/boxes", self.number_box)
        r.add_get("/games/{id}", self.protocol_sheet)
        r.add_get("/export/standings.csv", self.export_csv)
        r.add_get("/export/sheet", self.export_sheet)
        r.add_get("/export/polemica.json", self.export_polemica)
        r.add_get("/api/standings", self.api_standings)
        r.add_get("/api/state", self.api_state)
        r.add_post(PROTOCOL_PATH, self.take_protocol)
        return app

    async def start(self, host: str, port: int) -> None:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else port
        self.url = f"http://{host}:{self.port}"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    # -- what the pages show
    def standings(self) -> list[Line]:
        return standings(self.store.players(), self.store.seating(), self.store.games())

    def _words(self, request: web.Request) -> page.Words:
        lang = request.query.get("lang") or (
            "ru" if request.headers.get("Accept-Language", "").lower().startswith("ru") else self.t.lang
        )
        return page.Words(lang)

    def signed_in(self, request: web.Request) -> bool:
        return _hash(request.cookies.get(COOKIE, "")) in self.sessions

    def _live(self, t: page.Words) -> str:
        return page.live(
            t,
            self.t.name,
            self.standings(),
            self.store.players(),
            self.store.boxes(),
            self.store.seating(),
            self.store.sent(),
            self.store.games(),
        )

    async def home(self, request: web.Request) -> web.Response:
        t = self._words(request)
        if request.query.get("fragment"):
            return _html(self._live(t))
        signed = self.signed_in(request)
        controls = (
            page.controls(t, self.t.rounds, self.store.seated(), self.store.games(), self.store.boxes())
            if signed
            else ""
        )
        return _html(page.page(t, self.t.name, self.t.rules, self._live(t), controls, signed))

    async def style(self, request: web.Request) -> web.Response:
        css = (resources.files("narrator.web.static") / "style.css").read_text(encoding="utf-8")
        return web.Response(text=css, content_type="text/css")

    async def login_page(self, request: web.Request) -> web.Response:
        return _html(page.login(self._words(request), wrong=False))

    async def login(self, request: web.Request) -> web.StreamResponse:
        from narrator.tournament.signing import normal_key

        fields = await _fields(request)
        if normal_key(str(fields.get("key", ""))) != normal_key(self.key):
            return _html(page.login(self._words(request), wrong=True), status=401)
        token = secrets.token_urlsafe(24)
        self.sessions.add(_hash(token))
        self.store.put(sessions=sorted(self.sessions))
        response = web.HTTPSeeOther(f"/?lang={self._words(request).lang}")
        response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/")
        raise response

    async def logout(self, request: web.Request) -> web.StreamResponse:
        self.sessions.discard(_hash(request.cookies.get(COOKIE, "")))
        self.store.put(sessions=sorted(self.sessions))
        response = web.HTTPSeeOther("/")
        response.del_cookie(COOKIE, path="/")
        raise response

    # -- the organiser's controls
    def _organiser(self, request: web.Request) -> None:
        if not self.signed_in(request):
            raise web.HTTPUnauthorized(text="sign in with the tournament key first")

    async def add_player(self, request: web.Request) -> web.StreamResponse:
        self._organiser(request)
        fields = await _fields(request)
        try:
            player = self.store.add_player(
                str(fields.get("name", "")), str(fields.get("club", "")), str(fields.get("rating_id", ""))
            )
        except StoreError as exc:
            return _refuse(request, str(exc))
        return _done(request, player.to_json())

    async def seat(self, request: web.Request) -> web.StreamResponse:
        self._organiser(request)
        try:
            # 300 players take seconds (BENCHMARKS.md): the page and the boxes' deliveries
            # go on meanwhile.
            await asyncio.to_thread(self.make_seating)
        except (SeatingError, StoreError) as exc:
            return _refuse(request, str(exc))
        return _done(request, {"rounds": self.t.rounds})

    def make_seating(self) -> None:
        players = self.store.players()
        seating = seat_named(
            [p.name for p in players],
            [p.club for p in players],
            self.t.games or self.t.rounds,
            self.t.tables or None,
            self.t.seating,
            self.t.seed,
            self.t.seats,
        )
        ids = [p.id for p in players]
        self.store.set_seating([[[ids[i] for i in table] for table in rnd] for rnd in seating.rounds])
        self.t.rounds = len(seating.rounds)
        self.store.put(rounds=self.t.rounds)

    async def send_round(self, request: web.Request) -> web.StreamResponse:
        self._organiser(request)
        try:
            rnd = int(request.match_info["n"])
        except ValueError:
            raise web.HTTPNotFound() from None
        results = await self.push_round(rnd)
        return _done(request, {"round": rnd, "tables": results})

    async def push_round(self, rnd: int) -> dict[int, str]:
        """Send each table that has not taken it its seating for round `rnd` (a table that
        has is left alone: it may be playing it, or be done): table -> "taken" or why not."""
        seating = self.store.seating().get(rnd)
        if not seating:
            return {}
        names = {p.id: p.name for p in self.store.players()}
        taken = self.store.sent()
        out: dict[int, str] = {}
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as http:
            for table, seated in sorted(seating.items()):
                if (rnd, table) in taken:
                    out[table] = "taken"
                    continue
                box = self.store.box_at(table)
                if box is None:
                    out[table] = "no box"
                    continue
                body = json.dumps(
                    {
                        "tournament": self.t.name,
                        "collector": self.url_for(box.host),
                        "table": table,
                        "round": rnd,
                        "game": rnd,
                        "rules": self.t.rules,
                        "settings": dict(self.t.settings),
                        "lang": self.t.lang,
                        "seats": len(seated),
                        "names": [names[p] for p in seated],
                    },
                    ensure_ascii=False,
                ).encode()
                out[table] = await self._post(http, box.host, box.port, body)
                if out[table] == "taken":
                    self.store.mark_sent(rnd, table)
        log.info("round %d sent: %s", rnd, out)
        return out

    async def _post(self, http: aiohttp.ClientSession, host: str, port: int, body: bytes) -> str:
        headers = sign_request(self.key, "POST", ROUND_PATH, body)
        try:
            async with http.post(
                f"http://{_host(host)}:{port}{ROUND_PATH}",
                data=body,
                headers={**headers, "Content-Type": "application/json"},
            ) as reply:
                answer = await reply.read()
                if not answer_ok(
                    self.key, reply.status, headers[NONCE], answer, reply.headers.get(SIGNATURE)
                ):
                    return f"not the tournament's box (answer {reply.status})"
                if reply.status != 200:
                    return str(json.loads(answer).get("error", reply.status))
                return "taken"
        except (TimeoutError, aiohttp.ClientError, OSError, ValueError) as exc:
            return f"unreachable: {exc.__class__.__name__}"

    def url_for(self, box_host: str) -> str:
        """The collector's address as the box at `box_host` can reach it."""
        if self.url and not self.url.startswith(("http://0.0.0.0", "http://[::]")):
            return self.url
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((box_host, 9))  # no packet is sent: the route picks our address
                return f"http://{s.getsockname()[0]}:{self.port}"
        except OSError:
            return f"http://127.0.0.1:{self.port}"

    async def number_box(self, request: web.Request) -> web.StreamResponse:
        self._organiser(request)
        fields = await _fields(request)
        try:
            self.store.assign(str(fields.get("name", "")), int(str(fields.get("table", ""))))
        except ValueError:
            return _refuse(request, "table: a number")
        except StoreError as exc:
            return _refuse(request, str(exc))
        return _done(request, {"boxes": [{"name": b.name, "table": b.table} for b in self.store.boxes()]})

    async def correct(self, request: web.Request) -> web.StreamResponse:
        self._organiser(request)
        fields = await _fields(request)
        change: dict[str, Any] = {}
        if fields.get("winner") in ("red", "black", "draw"):
            change["winner"] = fields["winner"]
        extra = fields.get("extra")
        if isinstance(extra, str) and extra.strip():
            try:
                change["extra"] = {
                    str(int(k)): float(v)
                    for k, v in (part.split("=") for part in extra.replace(" ", "").split(","))
                }
            except ValueError:
                return _refuse(request, "extra points: seat=points, separated by commas (3=0.5,7=-0.25)")
        elif isinstance(extra, dict):
            change["extra"] = {str(k): float(v) for k, v in extra.items()}
        if not change:
            return _refuse(request, "nothing to correct: a winner or extra points")
        try:
            self.store.correct(str(fields.get("game_id", "")), change)
        except StoreError as exc:
            return _refuse(request, str(exc))
        return _done(request, {"corrected": fields.get("game_id")})

    # -- public reading
    async def protocol_sheet(self, request: web.Request) -> web.Response:
        from narrator.records.protocol_html import render_html

        for g in self.store.games():
            if g["_uid"] == request.match_info["id"]:
                return _html(render_html({k: v for k, v in g.items() if not k.startswith("_")}))
        raise web.HTTPNotFound(text="no such game")

    async def export_csv(self, request: web.Request) -> web.Response:
        return web.Response(
            text=standings_csv(self.standings()),
            content_type="text/csv",
            headers={"Content-Disposition": 'attachment; filename="standings.csv"'},
        )

    async def export_sheet(self, request: web.Request) -> web.Response:
        return _html(page.sheet(self._words(request), self.t.name, self.standings()))

    async def export_polemica(self, request: web.Request) -> web.Response:
        from narrator.records.export_polemica import ExportError

        records = []
        for g in self.store.games():
            try:
                records.append(polemica_of(g, self.t.name))
            except ExportError:
                continue
        return web.json_response(records)

    async def api_standings(self, request: web.Request) -> web.Response:
        return web.json_response(
            {"tournament": self.t.name, "standings": [line.to_json() for line in self.standings()]}
        )

    async def api_state(self, request: web.Request) -> web.Response:
        names = {p.id: p.name for p in self.store.players()}
        seating = {
            str(r): {str(t): [names.get(p, "") for p in seated] for t, seated in tables.items()}
            for r, tables in self.store.seating().items()
        }
        return web.json_response(
            {
                "tournament": self.t.name,
                "rules": self.t.rules,
                "tables": self.t.tables,
                "rounds": self.t.rounds,
                "boxes": [
                    {"name": b.name, "table": b.table, "host": b.host, "port": b.port}
                    for b in self.store.boxes()
                ],
                "players": len(names),
                "seating": seating,
                "sent": sorted(self.store.sent()),
                "games": [
                    {
                        "id": g["_uid"],
                        "event": g["game"].get("event"),
                        "winner": g.get("winner"),
                        "corrections": g["_corrections"],
                    }
                    for g in self.store.games()
                ],
            }
        )

    # -- the boxes
    async def take_protocol(self, request: web.Request) -> web.Response:
        body = await request.read()
        why = self.verifier.check("POST", PROTOCOL_PATH, request.headers, body)
        if why is not None:
            log.warning("a delivery from %s refused: %s", request.remote, why)
            return web.json_response({"error": why}, status=401)
        nonce = request.headers[NONCE]
        try:
            data = json.loads(body)
            protocol = data["protocol"]
            event = protocol["game"].get("event") or {}
            if event.get("tournament") != self.t.name:
                raise StoreError(f"the game is not of this tournament ({event.get('tournament')!r})")
            if not protocol.get("over") or protocol.get("abandoned"):
                # The page is public: a game in play must show nothing of its night.
                raise StoreError("only a finished game's protocol is taken")
            kept = self.store.take_protocol(str(data.get("box", "")), protocol)
            port = data.get("port")
            if isinstance(port, int) and request.remote:
                self.store.saw_box(str(data.get("box", "")), request.remote, port)
        except (ValueError, KeyError, TypeError, AttributeError, StoreError) as exc:
            return self._signed(400, nonce, {"error": str(exc) or exc.__class__.__name__})
        log.info("game %s from %s: %s", protocol["game"]["id"], data.get("box"), kept)
        return self._signed(200, nonce, {"ok": True, "game_id": protocol["game"]["id"], "kept": kept})

    def _signed(self, status: int, nonce: str, data: Mapping[str, Any]) -> web.Response:
        body, headers = signed_json(self.key, status, nonce, data)
        return web.Response(body=body, status=status, content_type="application/json", headers=headers)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _html(text: str, status: int = 200) -> web.Response:
    return web.Response(
        text=text, status=status, content_type="text/html", headers={"Cache-Control": "no-store"}
    )


async def _fields(request: web.Request) -> dict[str, Any]:
    if request.content_type == "application/json":
        try:
            data = json.loads(await request.text())
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}
    return {k: v for k, v in (await request.post()).items() if isinstance(v, str)}


def _wants_json(request: web.Request) -> bool:
    return request.content_type == "application/json" or "json" in request.headers.get("Accept", "")


def _refuse(request: web.Request, why: str) -> web.StreamResponse:
    if _wants_json(request):
        return web.json_response({"error": why}, status=400)
    return web.Response(text=why, status=400)


def _done(request: web.Request, data: Mapping[str, Any]) -> web.StreamResponse:
    if _wants_json(request):
        return web.json_response(dict(data))
    raise web.HTTPSeeOther("/")
