"""The organiser's side of the collector, behind the tournament key: signing in, players,
the seating, sending a round, the boxes' tables, corrections and the decisions on a box's
changed result.

A form's outcome is said on the page in its language: done, the page is shown again
with a notice saying what was done (a round sent: what each table answered); refused, the
page comes back (400) with the refusal in words at its top. A JSON client gets JSON.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, Protocol

from aiohttp import web

from narrator.errors import ConfigError
from narrator.tournament import changes, corrections, page
from narrator.tournament.corrections import Change, CorrectionError
from narrator.tournament.event import Tournament
from narrator.tournament.http import COOKIE, html
from narrator.tournament.http import token_hash as _hash
from narrator.tournament.language import Why, Words
from narrator.tournament.seating import SeatingError, seat_named
from narrator.tournament.signing import normal_key
from narrator.tournament.stages import Stage, complete, next_stage
from narrator.tournament.standings import Line
from narrator.tournament.store import Store, StoreError

Fields = dict[str, Any]
Action = Callable[[Fields, Words], Awaitable[tuple[str, dict[str, Any]]]]


class Collector(Protocol):
    """What these routes need of narrator.tournament.collector.Collector."""

    store: Store
    key: str
    t: Tournament
    sessions: set[str]
    flash: dict[str, tuple[str, bool]]

    def now(self) -> float: ...

    def standings(self, public: bool = False) -> list[Line]: ...

    def words(self, request: web.Request) -> Words: ...

    def session(self, request: web.Request) -> str: ...

    def signed_in(self, request: web.Request) -> bool: ...

    def render(
        self, request: web.Request, notice: str = "", refusal: bool = False, status: int = 200
    ) -> web.Response: ...

    async def push_round(self, rnd: int) -> dict[int, str]: ...


def routes(c: Collector, app: web.Application) -> None:
    _html = html

    def json_wanted(request: web.Request) -> bool:
        return request.content_type == "application/json" or "json" in request.headers.get("Accept", "")

    async def login_page(request: web.Request) -> web.Response:
        return _html(page.login(c.words(request), wrong=False))

    async def login(request: web.Request) -> web.StreamResponse:
        fields = await _fields(request)
        t = c.words(request)
        if normal_key(str(fields.get("key", ""))) != normal_key(c.key):
            return _html(page.login(t, wrong=True), status=401)
        token = secrets.token_urlsafe(24)
        c.sessions.add(_hash(token))
        c.store.put(sessions=sorted(c.sessions))
        response = web.HTTPSeeOther(f"/?lang={t.lang}")
        response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/")
        raise response

    async def logout(request: web.Request) -> web.StreamResponse:
        c.sessions.discard(c.session(request))
        c.store.put(sessions=sorted(c.sessions))
        response = web.HTTPSeeOther("/")
        response.del_cookie(COOKIE, path="/")
        raise response

    def handler(action: Action) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        async def handle(request: web.Request) -> web.StreamResponse:
            t = c.words(request)
            if not c.signed_in(request):
                if json_wanted(request):
                    raise web.HTTPUnauthorized(
                        text='{"error": "sign in with the tournament key first"}',
                        content_type="application/json",
                    )
                return _html(page.login(t, wrong=False), status=401)
            fields = {**request.match_info, **(await _fields(request))}
            try:
                said, data = await action(fields, t)
            except Why as exc:
                if json_wanted(request):
                    return web.json_response(exc.to_json(), status=400)
                return c.render(request, t.why(exc), refusal=True, status=400)
            if json_wanted(request):
                return web.json_response(data)
            c.flash[c.session(request)] = (said, False)
            raise web.HTTPSeeOther(f"/?lang={t.lang}")

        return handle

    async def add_player(fields: Fields, t: Words) -> tuple[str, dict[str, Any]]:
        player = c.store.add_player(
            str(fields.get("name", "")), str(fields.get("club", "")), str(fields.get("rating_id", ""))
        )
        return player.name, player.to_json()

    async def seat(fields: Fields, t: Words) -> tuple[str, dict[str, Any]]:
        # 300 players take seconds (BENCHMARKS.md): the page and the boxes' deliveries go
        # on meanwhile.
        await asyncio.to_thread(make_seating, c)
        return t("make_seating") + " ✓", {"rounds": c.t.rounds}

    def reseated(t: Words, done: changes.Reseated) -> str:
        said = t("reseated", first=done.first, last=done.last)
        return said + (" " + t("reseated_fewer", names=", ".join(done.fewer)) if done.fewer else "")

    async def late(fields: Fields, t: Words) -> tuple[str, dict[str, Any]]:
        name = str(fields.get("name", ""))
        done = await asyncio.to_thread(
            changes.arrive, c, name, str(fields.get("club", "")), str(fields.get("rating_id", ""))
        )
        return f"{name.strip()}: {reseated(t, done)}", {
            "first": done.first,
            "last": done.last,
            "fewer": done.fewer,
        }

    async def withdraw(fields: Fields, t: Words) -> tuple[str, dict[str, Any]]:
        name = str(fields.get("name", ""))
        done = await asyncio.to_thread(changes.withdraw, c, name)
        said = t("withdrawn", name=name.strip()) + " " + reseated(t, done)
        return said, {"first": done.first, "last": done.last, "fewer": done.fewer}

    async def substitute(fields: Fields, t: Words) -> tuple[str, dict[str, Any]]:
        try:
            rnd, table, seat = (int(str(fields.get(k, ""))) for k in ("round", "table", "seat"))
        except ValueError:
            raise StoreError(
                "no_seat",
                round=fields.get("round", "?"),
                table=fields.get("table", "?"),
                seat=fields.get("seat", "?"),
            ) from None
        name = str(fields.get("name", ""))
        replaced = changes.substitute(c, rnd, table, seat, name, str(fields.get("club", "")))
        said = t("substituted", name=name.strip(), replaced=replaced, round=rnd, table=table, seat=seat)
        return said, {"replaced": replaced, "round": rnd, "table": table, "seat": seat}

    async def seat_next(fields: Fields, t: Words) -> tuple[str, dict[str, Any]]:
        stage = await asyncio.to_thread(seat_stage, c)
        rounds = c.store.get("stages")[stage.name]
        return t("stage_seated", stage=t(f"stage_{stage.name}"), first=rounds[0], last=rounds[1]), {
            "stage": stage.name,
            "rounds": rounds,
        }

    async def send(fields: Fields, t: Words) -> tuple[str, dict[str, Any]]:
        try:
            rnd = int(str(fields.get("n", "")))
        except ValueError:
            raise StoreError("no_such_round", round=fields.get("n", "?")) from None
        if not c.store.seated():
            raise StoreError("not_seated")
        results = await c.push_round(rnd)
        words = {
            k: f"send_{k}"
            for k in ("taken", "played", "counted", "no_box", "busy", "stranger", "out_of_reach")
        }
        told = ", ".join(
            t("sent_table", table=table, what=t(words[what]) if what in words else t("send_other", why=what))
            for table, what in sorted(results.items())
        )
        return t("sent_result", n=rnd, tables=told), {"round": rnd, "tables": results}

    async def number_box(fields: Fields, t: Words) -> tuple[str, dict[str, Any]]:
        raw = str(fields.get("table") if fields.get("table") is not None else "").strip()
        if raw in ("", "spare", "none"):
            table = None
        else:
            try:
                table = int(raw)
            except ValueError:
                raise StoreError("table_number") from None
            most = c.t.table_count(len(c.store.players()))
            if not 1 <= table <= most:
                raise StoreError("table_range", tables=most)
        name = str(fields.get("name", ""))
        c.store.assign(name, table)
        boxes = [{"name": b.name, "table": b.table} for b in c.store.boxes()]
        return f"{name}: {t('table_n', n=table) if table else t('spare')}", {"boxes": boxes}

    async def correct(fields: Fields, t: Words) -> tuple[str, dict[str, Any]]:
        uid = str(fields.get("game_id", ""))
        game = c.store.game(uid)
        if game is None:
            raise StoreError("no_game", game=uid or "-")
        change, who, why = corrections.checked(fields, game.protocol, c.t.rule_set)
        number = c.store.correct(uid, change, who, why, now=c.now())
        return t("corrected_done"), {"corrected": uid, "id": number}

    async def decide(fields: Fields, t: Words) -> tuple[str, dict[str, Any]]:
        try:
            number = int(str(fields.get("id", "")))
        except ValueError:
            raise CorrectionError("not_pending") from None
        who = str(fields.get("who") or "").strip()
        if not who or len(who) > corrections.WHO_MAX or not who.isprintable():
            raise CorrectionError("need_who", most=corrections.WHO_MAX)
        yes = str(fields.get("yes", "")).lower() in ("1", "yes", "true")
        for game in c.store.games():
            decided = corrections.decisions(game.corrections)
            for fix in game.corrections:
                if fix.id == number and corrections.status(fix, decided) == "pending":
                    kind = "approve" if yes else "decline"
                    why = str(fields.get("why") or "").strip()[: corrections.WHY_MAX] or kind
                    c.store.correct(game.uid, Change(kind), who, why, parent=number, now=c.now())
                    return t("decided_done"), {"decided": number, "yes": yes}
        raise CorrectionError("not_pending")

    r = app.router
    r.add_get("/login", login_page)
    r.add_post("/login", login)
    r.add_post("/logout", logout)
    r.add_post("/players", handler(add_player))
    r.add_post("/seating", handler(seat))
    r.add_post("/stages/next", handler(seat_next))
    r.add_post("/players/late", handler(late))
    r.add_post("/players/withdraw", handler(withdraw))
    r.add_post("/substitute", handler(substitute))
    r.add_post("/rounds/{n}/send", handler(send))
    r.add_post("/boxes", handler(number_box))
    r.add_post("/corrections", handler(correct))
    r.add_post("/corrections/{id}/decide", handler(decide))


def make_seating(c: Collector) -> None:
    """Every round's seating (narrator.tournament.seating), once: any field, every player
    the same games (`games`, else one every round), the rest sitting out in turn; the
    tournament then knows its rounds and tables."""
    players = c.store.players()
    t = c.t
    try:
        seating = seat_named(
            [p.name for p in players],
            [p.club for p in players],
            t.games or t.rounds,
            t.tables or None,
            t.seating_rules(),
            t.seed,
            t.seats,
        )
    except (SeatingError, ConfigError) as exc:
        raise StoreError("seating", problem=str(exc)) from None
    ids = [p.id for p in players]
    c.store.set_seating(
        [{n: [ids[i] for i in table] for n, table in enumerate(rnd, 1)} for rnd in seating.rounds]
    )
    c.t = replace(t, rounds=len(seating.rounds), tables=t.tables or max(len(rnd) for rnd in seating.rounds))
    c.store.set_tournament(c.t)
    c.store.put(stages={"main": [1, len(seating.rounds)]})


def seat_stage(c: Collector) -> Stage:
    """The next stage (a semi-final, the final) seated from the standings once every game
    of the stages before it is in: its top players, its own games, at its tables."""
    if not c.store.seated():
        raise StoreError("not_seated")
    rounds: dict[str, list[int]] = dict(c.store.get("stages") or {"main": [1, c.t.rounds]})
    stage = next_stage(c.t.stages(), rounds)
    if stage is None:
        raise StoreError("no_stage")
    seating = c.store.seating()
    done = [(g.round, g.table) for g in c.store.games()]
    if not complete(range(1, max(seating) + 1), seating, done):
        raise StoreError("stage_incomplete")
    lines = c.standings()
    if len(lines) < stage.players:
        raise StoreError("stage_few", players=len(lines), needed=stage.players)
    top = [line.player for line in lines[: stage.players]]
    try:
        seated = seat_named(
            [p.name for p in top],
            [p.club for p in top],
            stage.games,
            stage.players // c.t.seats,
            c.t.seating_rules(),
            c.t.seed,
            c.t.seats,
        )
    except (SeatingError, ConfigError) as exc:
        raise StoreError("seating", problem=str(exc)) from None
    first = c.store.add_rounds(
        [{n: [top[i].id for i in table] for n, table in enumerate(rnd, 1)} for rnd in seated.rounds]
    )
    last = first + len(seated.rounds) - 1
    c.store.put(stages={**rounds, stage.name: [first, last]})
    c.t = replace(c.t, rounds=last)
    c.store.set_tournament(c.t)
    return stage


async def _fields(request: web.Request) -> dict[str, Any]:
    if request.content_type == "application/json":
        try:
            data = json.loads(await request.text())
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}
    return {k: v for k, v in (await request.post()).items() if isinstance(v, str)}
