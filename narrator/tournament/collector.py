"""The collector: the tournament's web server on a laptop (or one of the boxes).

- the public page (where do I sit, every table's state, standings, games and their
  protocol sheets, the corrections' log, the seating, exports) and its JSON
  (`/api/standings`, `/api/state`): anybody on the network may read them;
- the organiser's controls behind the tournament key (`/login`; narrator.tournament.organiser);
- the boxes' side (narrator.tournament.wire): `Delivery` of a finished game, checked
  against the seating and replayed through the engine before it counts
  (narrator.tournament.intake), and `BoxStatus`, each signed with the key, each answered
  signed. A refused delivery is kept with its reason, for the organiser to see.

Sending a round pushes each table's seating to the box that has its table (a `RoundOrder`,
signed); the box answers, signed, that it has taken it or played it already.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import socket
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace as dc_replace
from typing import Any

import aiohttp
from aiohttp import web

from narrator.lan import reachable_host
from narrator.pagestyle import stylesheet
from narrator.tournament import page
from narrator.tournament.corrections import in_force
from narrator.tournament.event import Tournament
from narrator.tournament.exports import polemica_records, standings_csv
from narrator.tournament.hall import SILENT_AFTER, current_round
from narrator.tournament.http import COOKIE, html, token_hash
from narrator.tournament.intake import Plan, PlannedSeat, Refused, check
from narrator.tournament.language import Why, Words
from narrator.tournament.signing import NONCE, Verifier, signed_json
from narrator.tournament.stages import Plan as StagePlan
from narrator.tournament.stages import plan as plan_stages
from narrator.tournament.standings import Line, counted, standings
from narrator.tournament.store import GameRecord, Player, Store, StoreError
from narrator.tournament.wire import (
    DELIVERY_PATH,
    STATUS_PATH,
    BoxStatus,
    Delivery,
    Receipt,
    RoundOrder,
    WireError,
    post,
)

log = logging.getLogger("narrator.tournament")

BODY_MAX = 4 * 1024 * 1024
_EXTRA_KINDS = ("extra", "approve", "decline")


class Collector:
    def __init__(
        self,
        store: Store,
        key: str,
        tournament: Tournament,
        now: Callable[[], float] = time.time,
        silent_after: float = SILENT_AFTER,
    ) -> None:
        self.store = store
        self.key = key
        self.t = tournament
        self.now = now
        self.silent_after = silent_after
        store.set_tournament(tournament)
        self.verifier = Verifier(key, seen=store.nonce_book())
        # The organisers signed in, as hashes of their cookies, kept in the store: a restart
        # does not sign them out, and the store holds nothing a cookie could be made from.
        self.sessions: set[str] = set(store.get("sessions", []))
        self.flash: dict[str, tuple[str, bool]] = {}  # a session's next notice: (words, refusal)
        self.host = ""
        self.url = ""  # where the boxes deliver: set once listening
        self.port = 0
        self._runner: web.AppRunner | None = None

    # -- the server
    def app(self) -> web.Application:
        from narrator.tournament.organiser import routes

        app = web.Application(client_max_size=BODY_MAX)
        r = app.router
        r.add_get("/", self.home)
        r.add_get("/static/style.css", self.style)
        r.add_get("/games/{id}", self.protocol_sheet)
        r.add_get("/export/standings.csv", self.export_csv)
        r.add_get("/export/sheet", self.export_sheet)
        r.add_get("/export/polemica.json", self.export_polemica)
        r.add_get("/api/standings", self.api_standings)
        r.add_get("/api/state", self.api_state)
        r.add_post(DELIVERY_PATH, self.take_delivery)
        r.add_post(STATUS_PATH, self.take_status)
        routes(self, app)
        return app

    async def start(self, host: str, port: int) -> None:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else port
        self.host = host
        self.url = f"http://{_host(host)}:{self.port}"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def address(self) -> str:
        """The page's address as a phone on the club's network opens it."""
        return f"http://{_host(reachable_host(self.host or '0.0.0.0'))}:{self.port}/"

    # -- what the pages show
    def standings(self, public: bool = False) -> list[Line]:
        """`public`: as strangers see them (a hidden stage's extra points left out)."""
        games = self.store.games()
        return self._standings(games, self.store.players(), self.stage_plan(games), public)

    def _standings(
        self, games: Sequence[GameRecord], players: Sequence[Player], stages: StagePlan, public: bool
    ) -> list[Line]:
        rules = self.t.rule_set
        return standings(players, counted(games, rules), rules, self.t.scoring_of(), stages, public)

    def stage_plan(
        self,
        games: Sequence[GameRecord] | None = None,
        seating: Mapping[int, Mapping[int, Sequence[int]]] | None = None,
    ) -> StagePlan:
        seating = self.store.seating() if seating is None else seating
        rounds = self.store.get("stages") or ({"main": [1, max(seating)]} if seating else {})
        done = [(g.round, g.table) for g in (self.store.games() if games is None else games)]
        return plan_stages(self.t.stages(), rounds, seating, done, self.t.hide_extra)

    def public_games(
        self, games: Sequence[GameRecord], hidden: frozenset[int] | None = None
    ) -> list[GameRecord]:
        """The games as strangers see them: a hidden stage's games without their extra
        points, nor the corrections and decisions about them."""
        hidden = self.stage_plan(games).hidden if hidden is None else hidden
        return [
            dc_replace(
                g,
                protocol=g.protocol.with_extra({}),
                corrections=tuple(c for c in g.corrections if c.change.kind not in _EXTRA_KINDS),
            )
            if g.round in hidden
            else g
            for g in games
        ]

    def view(self, public: bool = False) -> page.View:
        rules = self.t.rule_set
        games = self.store.games()
        seating = self.store.seating()
        players = self.store.players()
        stages = self.stage_plan(games, seating)
        lines = self._standings(games, players, stages, public)
        if public and stages.hidden:
            games = self.public_games(games, stages.hidden)
        return page.View(
            tournament=self.t,
            players=players,
            lines=lines,
            seating=seating,
            boxes=self.store.boxes(),
            orders=self.store.orders(),
            games=games,
            results={g.uid: in_force(g.protocol, g.corrections, rules) for g in games},
            refusals=self.store.refusals(),
            now=self.now(),
            address=self.address,
            silent_after=self.silent_after,
            stage_rounds=dict(stages.rounds),
        )

    def plan(self) -> Plan:
        names = {p.id: p.name for p in self.store.players()}
        seating = self.store.seating()
        return Plan(
            self.t.rounds,
            {
                (rnd, table): PlannedSeat(
                    rnd, table, rnd, tuple(seated), tuple(names.get(p, "") for p in seated)
                )
                for rnd, tables in seating.items()
                for table, seated in tables.items()
            },
        )

    def words(self, request: web.Request) -> Words:
        lang = request.query.get("lang") or (
            "ru" if request.headers.get("Accept-Language", "").lower().startswith("ru") else self.t.lang
        )
        return Words(lang)

    def session(self, request: web.Request) -> str:
        return token_hash(request.cookies.get(COOKIE, ""))

    def signed_in(self, request: web.Request) -> bool:
        return self.session(request) in self.sessions

    def render(
        self, request: web.Request, notice: str = "", refusal: bool = False, status: int = 200
    ) -> web.Response:
        from narrator.tournament.page_forms import controls

        t = self.words(request)
        signed = self.signed_in(request)
        view = self.view(public=not signed)
        if not notice and signed:
            notice, refusal = self.flash.pop(self.session(request), ("", False))
        body = page.page(
            t,
            view,
            controls(t, view) if signed else "",
            page.notice(t, notice, refusal),
            signed,
            who=request.query.get("who", "")[:80],
        )
        return html(body, status)

    async def home(self, request: web.Request) -> web.Response:
        part = request.query.get("fragment")
        if part:
            signed = self.signed_in(request)
            return html(page.live(self.words(request), self.view(public=not signed), signed, part))
        return self.render(request)

    async def style(self, request: web.Request) -> web.Response:
        return web.Response(text=stylesheet().decode("utf-8"), content_type="text/css")

    # -- sending a round
    async def push_round(self, rnd: int) -> dict[int, str]:
        """Send each table of round `rnd` whose game is not in its seating, to the box that
        has the table: table -> "taken", "played", "counted", "no_box", "busy",
        "stranger", "out_of_reach" or the box's refusal in its words. Sent again to a box
        that took it, the round tells the box where the collector is now."""
        seating = self.store.seating().get(rnd)
        if not seating:
            raise StoreError("no_such_round", round=rnd)
        names = {p.id: p.name for p in self.store.players()}
        done = {(g.round, g.table) for g in self.store.games()}
        out: dict[int, str] = {}
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as http:
            for table, seated in sorted(seating.items()):
                if (rnd, table) in done:
                    out[table] = "counted"
                    continue
                box = self.store.box_at(table)
                if box is None:
                    out[table] = "no_box"
                    continue
                order = RoundOrder(
                    tournament=self.t.name,
                    collector=self.url_for(box.host),
                    table=table,
                    round=rnd,
                    game=rnd,
                    rules=self.t.rules,
                    seats=len(seated),
                    names=tuple(names[p] for p in seated),
                    lang=self.t.lang,
                    settings=self.t.settings,
                )
                reply = await post(http, f"http://{_host(box.host)}:{box.port}", self.key, order)
                if reply.problem:
                    out[table] = "out_of_reach"
                elif not reply.genuine:
                    out[table] = "stranger"
                elif reply.status == 200:
                    out[table] = "played" if reply.data.get("played") else "taken"
                    self.store.add_order(rnd, table, box.name, self.now())
                elif reply.status == 409:
                    out[table] = "busy"
                else:
                    out[table] = str(reply.data.get("error") or reply.status)[:200]
        log.info("round %d sent: %s", rnd, out)
        return out

    def url_for(self, box_host: str) -> str:
        """The collector's address as the box at `box_host` can reach it."""
        if self.host not in ("", "0.0.0.0", "::"):
            return self.url
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((box_host, 9))  # no packet is sent: the route picks our address
                return f"http://{s.getsockname()[0]}:{self.port}"
        except OSError:
            return f"http://127.0.0.1:{self.port}"

    # -- public reading
    async def protocol_sheet(self, request: web.Request) -> web.Response:
        from narrator.records.protocol_html import render_html

        game = self.store.game(request.match_info["id"])
        if game is None:
            raise web.HTTPNotFound(text="no such game")
        if not self.signed_in(request):
            game = self.public_games([game])[0]
        return html(render_html(game.protocol.to_json()))

    async def export_csv(self, request: web.Request) -> web.Response:
        return web.Response(
            text=standings_csv(self.standings(public=not self.signed_in(request))),
            content_type="text/csv",
            headers={"Content-Disposition": 'attachment; filename="standings.csv"'},
        )

    def sheet(self, t: Words, public: bool = False) -> str:
        games = self.store.games()
        done = {(g.round, g.table) for g in games}
        seating = self.store.seating()
        complete = [r for r in sorted(seating) if all((r, table) in done for table in seating[r])]
        after = max(complete, default=0)
        return page.sheet(t, self.t, self.standings(public), after, self.now())

    async def export_sheet(self, request: web.Request) -> web.Response:
        return html(self.sheet(self.words(request), public=not self.signed_in(request)))

    async def export_polemica(self, request: web.Request) -> web.Response:
        games = self.store.games()
        if not self.signed_in(request):
            games = self.public_games(games)
        out = polemica_records(games, self.t, self.store.players(), self.t.rule_set)
        return web.json_response(out.records, headers={"X-Narrator-Skipped": str(len(out.skipped))})

    async def api_standings(self, request: web.Request) -> web.Response:
        return web.json_response(
            {
                "tournament": self.t.name,
                "standings": [line.to_json() for line in self.standings(not self.signed_in(request))],
            }
        )

    async def api_state(self, request: web.Request) -> web.Response:
        view = self.view(public=not self.signed_in(request))
        names = {p.id: p.name for p in view.players}
        seating = {
            str(r): {str(t): [names.get(p, "") for p in seated] for t, seated in tables.items()}
            for r, tables in view.seating.items()
        }
        signed = self.signed_in(request)
        return web.json_response(
            {
                "tournament": self.t.name,
                "rules": self.t.rules,
                "preset": self.t.preset,
                "tables": self.t.tables,
                "rounds": self.t.rounds,
                "date": self.t.date,
                "address": view.address,
                "boxes": [
                    {"name": b.name, "table": b.table, "host": b.host, "port": b.port, "heard": b.heard}
                    for b in view.boxes
                ],
                "players": len(names),
                "seating": seating,
                "round": current_round(view.seating, view.games) if view.seating else None,
                "hall": [s.__dict__ for s in view.tables()] if view.seating else [],
                "orders": [o.__dict__ for o in view.orders],
                "games": [
                    {
                        "id": g.uid,
                        "round": g.round,
                        "table": g.table,
                        "box": g.box,
                        "event": g.protocol.event.to_json(),
                        "played": g.protocol.winner,
                        "winner": view.results[g.uid].winner,
                        "annulled": view.results[g.uid].annulled,
                        "corrections": len(g.corrections),
                    }
                    for g in view.games
                ],
                "corrections": [c.to_json() for g in view.games for c in g.corrections],
                **(
                    {
                        "refused": [
                            {
                                "box": r.box,
                                "round": r.round,
                                "table": r.table,
                                "game": r.game_id,
                                "code": r.why.code,
                                "reason": str(r.why),
                            }
                            for r in view.refusals
                        ]
                    }
                    if signed
                    else {}
                ),
            }
        )

    # -- the boxes
    async def take_delivery(self, request: web.Request) -> web.Response:
        body = await request.read()
        why = self.verifier.check("POST", DELIVERY_PATH, request.headers, body)
        if why is not None:
            log.warning("a delivery from %s refused: %s", request.remote, why)
            return web.json_response({"error": why}, status=401)
        nonce = request.headers[NONCE]
        sha = hashlib.sha256(body).hexdigest()
        remote = request.remote or ""
        try:
            delivery = Delivery.from_bytes(body)
        except WireError as exc:
            refusal = Why("not_a_message", problem=str(exc))
            self.store.refuse("?", remote, refusal, sha=sha, now=self.now())
            return self._signed(400, nonce, Receipt("refused", "", str(refusal)).to_json())
        event = delivery.protocol.event
        where = (event.round, event.table)
        self.store.heard(delivery.box, None, self.now())
        try:
            played = await asyncio.to_thread(check, self.t, self.plan(), delivery)
            kept, uid = self.store.keep(
                delivery.box, played.protocol, delivery.journal, played.seat.players, self.now()
            )
        except (Refused, StoreError) as exc:
            if self.store.refuse(
                delivery.box, remote, exc, where, delivery.protocol.game.id, sha, self.now()
            ):
                log.warning("game %s from %s refused: %s", delivery.protocol.game.id, delivery.box, exc)
            return self._signed(400, nonce, Receipt("refused", delivery.protocol.game.id, str(exc)).to_json())
        log.info("game %s from %s: %s", uid, delivery.box, kept)
        return self._signed(200, nonce, Receipt(kept, uid).to_json())

    async def take_status(self, request: web.Request) -> web.Response:
        body = await request.read()
        why = self.verifier.check("POST", STATUS_PATH, request.headers, body)
        if why is not None:
            return web.json_response({"error": why}, status=401)
        nonce = request.headers[NONCE]
        try:
            status = BoxStatus.from_bytes(body)
        except WireError as exc:
            return self._signed(400, nonce, {"error": str(exc)})
        if not self.store.heard(status.box, status.to_json(), self.now()) and request.remote:
            # A box the network did not show (no multicast here): a spare, until the
            # organiser gives it a table. A status never moves a known box's address.
            try:
                self.store.saw_box(status.box, request.remote, status.port, tables=0, now=self.now())
                self.store.heard(status.box, status.to_json(), self.now())
            except StoreError as exc:
                return self._signed(400, nonce, {"error": str(exc)})
        return self._signed(200, nonce, {"ok": True, "tournament": self.t.name})

    def _signed(self, status: int, nonce: str, data: Mapping[str, Any]) -> web.Response:
        body, headers = signed_json(self.key, status, nonce, data)
        return web.Response(body=body, status=status, content_type="application/json", headers=headers)


def _host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
