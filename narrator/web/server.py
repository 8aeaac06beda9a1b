"""The organiser's web server: aiohttp on the daemon's own asyncio loop.

It reads the game only through the public view (narrator.web.view) and changes it only
through the engine: every correction is an action the Box applies like a tap or a voice
command, journalled first. A request the page can't use gets a 4xx with a message and
leaves the game alone; a fault while serving is logged and answered with a 500 that says
nothing about the game (never a traceback).

Routes: the pages (/game, /setup, /archive, /deal; sign-in is narrator.web.sign_in's),
the JSON API (/api/state, /api/action, /api/events for live updates, /api/undo for the undo's confirm step,
/api/next-game, /api/abandon), the box's own static files and the protocol sheets of
finished games.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from aiohttp import web

from narrator.boxconfig import Settings
from narrator.clock import Clock
from narrator.daemon import Box
from narrator.engine.actions import Action, Undo
from narrator.errors import RuleError
from narrator.evening.judging import judged
from narrator.notices import Notices
from narrator.records.session import GameSession, protocols_dir
from narrator.voice.voice_status import VoiceStatus
from narrator.wallclock import WallClock
from narrator.warmup import Progress
from narrator.web import actions as page_actions
from narrator.web import pages
from narrator.web.auth import COOKIE, PinGate
from narrator.web.live import Hub
from narrator.web.malformed import REQUESTS
from narrator.web.passes import HostButton, Invites
from narrator.web.phone_deal import PhoneDeal
from narrator.web.reading import (
    Undos,
    abandoned_view,
    journal_actions,
    phone_deal,
    state_before,
    step_of,
    view_of,
)
from narrator.web.refusals import answer, rule_answer, words
from narrator.web.text import Text, text
from narrator.web.view import View

if TYPE_CHECKING:
    from narrator.evening import Evening

log = logging.getLogger("narrator.web")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Pages = Callable[["WebServer", web.Application], None]
_PROTOCOL = re.compile(r"^(?P<id>[A-Za-z0-9_-]{1,80})\.(?P<fmt>html|json|polemica\.json)$")
_STATIC = {"app.js": "text/javascript", "style.css": "text/css"}
MAX_BODY = 64 * 1024


class Host(Protocol):
    """What the server needs of the service: the current game, its settings, and a hook
    that hears of every new game's box."""

    @property
    def box(self) -> Box | None: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def on_box(self) -> list[Callable[[Box], None]]: ...


# What the running box's service (narrator.service.Service) has for the page beyond a
# bare host (a bench's, a test's), each looked for where it is used: a test's host may
# be given one later.
@runtime_checkable
class WarmingHost(Protocol):
    @property
    def warmup(self) -> Progress:
        """The speech rendered ahead."""
        ...


@runtime_checkable
class NoticesHost(Protocol):
    @property
    def notices(self) -> Notices:
        """The box's own troubles (the card, the record)."""
        ...


@runtime_checkable
class VoiceHost(Protocol):
    @property
    def voice_status(self) -> VoiceStatus:
        """Why voice commands are off, when they are."""
        ...


@runtime_checkable
class ClockHost(Protocol):
    @property
    def wallclock(self) -> WallClock:
        """The date and time, as the organiser's phone tells it."""
        ...


class WebServer:
    def __init__(self, host: Host, gate: PinGate, clock: Clock, evening: Evening | None = None,
                 pages: Sequence[Pages] = ()) -> None:
        """`pages`: what adds the routes of the pages beyond the game's own (set-up,
        archive, deal: narrator.web.site has the box's list)."""
        self.host = host
        self._pages = tuple(pages)
        self.evening = evening
        self.deal: PhoneDeal | None = None  # a deal without cards in progress
        self.gate = gate
        self.clock = clock
        # Ways in besides the PIN (narrator.web.sign_in has their routes).
        self.button = HostButton(clock.now)
        self.invites = Invites(clock.now)
        self.hub = Hub(self._message)
        self.undos = Undos()
        self._runner: web.AppRunner | None = None
        self._static = {name: (resources.files("narrator.web") / "static" / name).read_bytes()
                        for name in _STATIC}
        self.app = self._make_app()
        host.on_box.append(self.attach)
        if isinstance(host, WarmingHost):  # the speech rendered ahead: the page follows it
            host.warmup.listeners.append(self.hub.poke)
        if host.box is not None:
            self.attach(host.box)
        if evening is not None:  # a held game set aside, a game asked for: the page follows
            evening.listeners.append(lambda _what: self.hub.poke())

    # the game
    def attach(self, box: Box) -> None:
        """A new game's box: follow its actions and its performer."""
        self.undos = Undos()
        session = box.session
        if isinstance(session, GameSession):
            self.undos.stack = journal_actions(session)
        box.listeners.append(self._heard)
        box.performer.on_change.append(self.hub.poke)
        self.deal = phone_deal(box)
        self.hub.poke()

    def _heard(self, action: Action | None, _effects: list[Any]) -> None:
        self.undos.hear(action)
        self.hub.poke()

    @property
    def lang(self) -> str:
        box = self.host.box
        if box is not None and isinstance(box.session, GameSession):
            return box.session.header.lang
        held = self.evening.held if self.evening is not None else None
        if held is not None:
            return held.setup.lang
        if self.evening is not None:  # between games: the last game's (after a restart too)
            return self.evening.setup.lang
        return self.host.settings.game.lang

    def no_game(self, t: Text) -> str:
        """The page with no game in play: an unfinished game held (and why), or none."""
        held = self.evening.held if self.evening is not None else None
        if held is None:
            if self.evening is None:
                return pages.no_game(t)
            # No "next game, same names" on a box that has not played a game yet.
            return pages.between_games(t) if self.evening.ended_before else pages.first_game(t)
        return pages.held(t, held.game_id, held.problem.code, held.problem.reason)

    def text(self) -> Text:
        return text(self.lang)

    def view(self, organiser: bool = False) -> dict[str, Any] | None:
        """The view's JSON, as the page's fragments read it."""
        view = self.view_value(organiser)
        return view.to_json() if view is not None else None

    def view_value(self, organiser: bool = False) -> View | None:
        """The public view; the signed-in `organiser`'s also shows the cue being said when
        it names a role (a night's "Sheriff, wake up"), to be read aloud where the box has
        no speaker. Cues are said the same whatever the night's input, so the cue tells
        nothing of it; the public page keeps no role word before the end all the same."""
        box = self.host.box
        if box is None:
            return None
        view = view_of(box, every_cue=organiser)
        evening = self.evening
        if evening is not None and evening.box is box and not evening.in_play \
                and not box.game.over:
            view = abandoned_view(view, evening.abandoned)
        warmup = self.host.warmup if isinstance(self.host, WarmingHost) else None
        if warmup is not None and warmup.started and not warmup.ready:
            view = replace(view, voice_cache=warmup.to_json())
        return view

    def voice_note(self, t: Text) -> str:
        """A line above the game when voice commands are off, saying why."""
        host = self.host
        notes = pages.box_notes(t, host.notices if isinstance(host, NoticesHost) else None)
        status = host.voice_status if isinstance(host, VoiceHost) else None
        if status is None or status.off is None:
            return notes
        return notes + pages.voice_off(t, status.off, status.lang)

    def _message(self, organiser: bool = False) -> bytes:
        view = self.view(organiser)
        t = self.text()
        fragment = self.voice_note(t) + (pages.live_fragment(t, view) if view
                                         else self.no_game(t))
        game = view["game"] if view else None
        held = self.evening.held if self.evening is not None else None
        game_id = game["id"] if game else held.game_id if held else None
        data = {"game": game_id, "over": bool(game and game["over"]), "html": fragment}
        return b"data: " + json.dumps(data, ensure_ascii=False).encode() + b"\n\n"

    # serving
    def _make_app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._errors])
        r = app.router
        r.add_get("/", self.index)
        r.add_get("/game", self.game_page)
        r.add_get("/api/state", self.api_state)
        r.add_post("/api/action", self.api_action)
        r.add_get("/api/events", self.api_events)
        r.add_get("/api/undo", self.api_undo)
        r.add_get("/static/{name}", self.static)
        r.add_get("/protocols/{name}", self.protocol)
        for add in self._pages:
            add(self, app)
        app.on_shutdown.append(self._on_shutdown)
        return app

    async def start(self, host: str, port: int, sock: socket.socket | None = None) -> None:
        """Listen on host:port, or on `sock` when systemd handed one over."""
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False,
                                     logger=REQUESTS)
        await self._runner.setup()
        site: web.BaseSite
        if sock is not None:
            site = web.SockSite(self._runner, sock)
        else:
            site = web.TCPSite(self._runner, host, port, reuse_address=True)
        await site.start()

    @property
    def port(self) -> int:
        """The port it listens on (the one the system gave when asked for port 0)."""
        assert self._runner is not None, "not started"
        return int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        # The open pages' live streams end first: aiohttp waits for every handler before
        # it stops, and a stream only ends when told.
        self.hub.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _on_shutdown(self, _app: web.Application) -> None:
        self.hub.close()

    @web.middleware
    async def _errors(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        except web.HTTPException:
            raise
        except (asyncio.CancelledError, ConnectionResetError):
            raise
        except Exception:
            log.exception("the page failed on %s %s", request.method, request.path)
            t = self.text()
            if request.path.startswith("/api/"):
                return answer(500, t, "server_failed", "the box could not answer this request")
            return web.Response(text=words(t, "server_failed"), status=500)

    # helpers
    def signed_in(self, request: web.Request) -> bool:
        return self.gate.valid(request.cookies.get(COOKIE))

    def reads_roles(self, request: web.Request) -> bool:
        """Signed in with the PIN (or a code), not by the box's Next button: the judge's
        page, a deal's cards, an abandoned game's sheet."""
        return self.gate.reads_roles(request.cookies.get(COOKIE))

    def html(self, title: str, body: str, page: str, request: web.Request,
             status: int = 200, t: Text | None = None, refresh: int = 0) -> web.Response:
        t = t or self.text()
        box = self.host.box
        doc = pages.layout(t, title, body, page=page, signed_in=self.signed_in(request),
                           refresh=refresh, judge=box is not None and judged(box))
        return web.Response(text=doc, content_type="text/html", charset="utf-8", status=status,
                            headers=_NO_STORE)

    # pages
    async def index(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound("/game" if self.host.box is not None else "/setup")

    async def game_page(self, request: web.Request) -> web.StreamResponse:
        t = self.text()
        view = self.view(self.signed_in(request))
        fragment = self.voice_note(t) + (pages.live_fragment(t, view) if view
                                         else self.no_game(t))
        controls = ""
        held = self.evening.held if self.evening is not None else None
        if view is not None:
            controls = (pages.controls(t, view) if self.signed_in(request)
                        else pages.sign_in_hint(t))
        elif held is not None:
            controls = pages.held_controls(t) if self.signed_in(request) else pages.sign_in_hint(t)
        elif self.evening is not None and not self.evening.starting:  # between games
            controls = (pages.between_controls(t, self.evening.ended_before)
                        if self.signed_in(request) else pages.sign_in_hint(t))
        game_id = view["game"]["id"] if view else held.game_id if held else None
        body = pages.game_page(t, fragment, controls, game_id, bool(view and view["game"]["over"]))
        return self.html(t("title_game"), body, "game", request)

    # the JSON API
    async def api_state(self, request: web.Request) -> web.StreamResponse:
        view = self.view_value(self.signed_in(request))
        if view is None:
            return answer(404, self.text(), "no_game", "no game is running")
        if isinstance(self.host, VoiceHost):
            view = replace(view, voice=self.host.voice_status.to_json())
        return web.json_response(view.to_json(), headers=_NO_STORE, dumps=_dumps)

    async def api_action(self, request: web.Request) -> web.StreamResponse:
        t = self.text()
        if not self.signed_in(request):
            return answer(401, t, "sign_in_first", "enter the PIN first")
        try:
            data = await request.json()
        except (ValueError, RecursionError):  # not UTF-8, not JSON, nested too deeply
            return answer(400, t, "bad_request", "the body is not JSON")
        # An undo confirmed on the page names the step it was asked at (GET /api/undo):
        # the game goes on while the organiser reads the question.
        step = data.pop("step", None) if isinstance(data, dict) and data.get("kind") == "undo" else None
        if step is not None and (not isinstance(step, int) or isinstance(step, bool)):
            return answer(400, t, "bad_request", "step: expected a whole number")
        try:
            action = page_actions.parse_action(data)
        except page_actions.BadBody as exc:
            return answer(400, t, "bad_request", str(exc))
        box = self.host.box
        if box is None or box.game.over:
            return answer(409, t, "no_game", "no game is running")
        if step is not None and step != step_of(box):
            return _error(409, t("undo_moved_on"))
        return self.apply(box, action)

    def apply(self, box: Box, action: Action) -> web.Response:
        """One action from the page through the engine; the answer is the new view."""
        game = box.game
        t = self.text()
        reason = page_actions.refusal_at_night(game.state, action)
        if reason is not None:
            return answer(409, t, "at_night", reason)
        if isinstance(action, Undo):
            reason = page_actions.undo_refusal(game.state, state_before(box))
            if reason is not None:
                return answer(409, t, "undo_day_only", reason)
        try:
            box.apply_now(action, "page")
        except RuleError as exc:
            log.info("the page's %s is refused: %s", action.kind, exc)
            return rule_answer(409, t, exc)
        except OSError as exc:
            log.error("cannot write the journal (%s): the page's %s is refused", exc, action.kind)
            return answer(503, t, "journal_failed", "the box cannot write its journal; nothing changed")
        except Exception:
            log.exception("the engine failed on the page's %s; nothing changed", action.kind)
            return answer(500, t, "engine_failed",
                          "the engine could not take this action; nothing changed")
        log.info("the page: %s", action.kind)
        return web.json_response(view_of(box, every_cue=True).to_json(), headers=_NO_STORE,
                                 dumps=_dumps)

    async def api_undo(self, request: web.Request) -> web.StreamResponse:
        """The confirm step's words: what an undo would take back now, or why it can't."""
        t = self.text()
        if not self.signed_in(request):
            return answer(401, t, "sign_in_first", "enter the PIN first")
        box = self.host.box
        if box is None or box.game.over:
            return _error(409, t("undo_none"))
        before = state_before(box)
        refusal = page_actions.undo_refusal(box.game.state, before)
        if refusal is not None:
            return _error(409, t("undo_not_now"))
        last = self.undos.stack[-1] if self.undos.stack else None
        return web.json_response({"undo": page_actions.describe(t, last, before),
                                  "step": step_of(box)}, headers=_NO_STORE)

    async def api_events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={
            "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store",
            "X-Accel-Buffering": "no"})
        await response.prepare(request)
        organiser = self.signed_in(request)
        queue = self.hub.subscribe(organiser)
        try:
            await response.write(b"retry: 1000\n" + self.hub.current(organiser))
            while True:
                try:
                    message = await asyncio.wait_for(queue.get(), timeout=15)
                except TimeoutError:
                    message = b": still here\n\n"  # finds a page that went away
                if not message:
                    break
                await response.write(message)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.hub.unsubscribe(queue)
        return response

    # files
    async def static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in _STATIC:
            raise web.HTTPNotFound()
        return web.Response(body=self._static[name], content_type=_STATIC[name], charset="utf-8",
                            headers={"Cache-Control": "no-cache"})

    async def protocol(self, request: web.Request) -> web.StreamResponse:
        """A game's protocol: only these three names in the protocols folder, matched by
        pattern, so no request reaches any other file. A finished game's is anyone's; an
        abandoned (or unplayed) game's holds every role of a game that never ended, and
        is the signed-in organiser's only (found by a stranger at the table: it was
        public, roles and all, from the moment of the abandon)."""
        match = _PROTOCOL.match(request.match_info["name"])
        if match is None:
            raise web.HTTPNotFound()
        folder = protocols_dir(self.host.settings.state_dir).resolve()
        path = folder / match.group(0)
        box = self.host.box
        if box is not None and not box.game.over and isinstance(box.session, GameSession) \
                and box.session.files is None and box.session.header.game_id == match.group("id"):
            raise web.HTTPNotFound()  # the game in play has no protocol to show yet
        if path.resolve().parent != folder or not path.is_file():
            raise web.HTTPNotFound()
        if not self.reads_roles(request) and not finished(folder, match.group("id")):
            if match.group("fmt") == "html":
                raise web.HTTPSeeOther(f"/login?next=/protocols/{match.group(0)}")
            return answer(401, self.text(), "sign_in_first", "enter the PIN first")
        if match.group("fmt") == "html":
            return web.Response(body=_with_nav(path.read_bytes(), self.text()),
                                content_type="text/html", charset="utf-8", headers=_NO_STORE)
        return web.Response(body=path.read_bytes(), content_type="application/json",
                            charset="utf-8", headers=_NO_STORE)


_NO_STORE = {"Cache-Control": "no-store"}


def _with_nav(sheet: bytes, t: Text) -> bytes:
    """The protocol sheet as the box serves it: the page's way back (the game, the archive)
    above it, not printed. The file itself stays the sheet alone (it is printed, exported,
    sent to the collector)."""
    nav = (f'<nav class="sheet-nav" style="margin:0 0 8px;font:16px sans-serif">'
           f'<style>@media print{{.sheet-nav{{display:none}}}}'
           f'.sheet-nav a{{display:inline-block;margin-right:16px;padding:8px 0}}</style>'
           f'<a href="/game">{pages.esc(t("nav_game"))}</a>'
           f'<a href="/archive">{pages.esc(t("nav_archive"))}</a></nav>').encode()
    at = sheet.find(b"<body")
    end = sheet.find(b">", at) if at >= 0 else -1
    return sheet if end < 0 else sheet[:end + 1] + nav + sheet[end + 1:]


def finished(folder: Path, game_id: str) -> bool:
    """Whether the game's protocol is of a game that ended with its result (not
    abandoned): its JSON says so. Without a readable one it is taken as unfinished."""
    try:
        data = json.loads((folder / f"{game_id}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("over") is True and not data.get("abandoned")


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False)


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status, headers=_NO_STORE, dumps=_dumps)

