"""The organiser's phone tells the box the date and time (POST /api/clock), which the box
writes on journals and protocols (narrator.wallclock): a Raspberry Pi without a network
or a real-time clock does not know the date. The page's script posts the phone's clock
each time a page is opened by a signed-in organiser; nobody else may set it, since a rating
dates games by their protocols."""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING

from aiohttp import web

from narrator.web.server import ClockHost

if TYPE_CHECKING:
    from narrator.web.server import WebServer


def routes(server: WebServer, app: web.Application) -> None:
    if not isinstance(server.host, ClockHost):
        return
    clock = server.host.wallclock

    async def tell(request: web.Request) -> web.StreamResponse:
        if not server.signed_in(request):
            return _answer(401, {"error": "enter the PIN first"})
        try:
            data = json.loads(await request.text())
        except (ValueError, RecursionError):
            return _answer(400, {"error": "the body is not JSON"})
        now = data.get("now") if isinstance(data, dict) else None
        if not isinstance(now, int | float) or isinstance(now, bool) or not math.isfinite(now):
            return _answer(400, {"error": "now: expected the phone's time in milliseconds"})
        if not clock.tell(now / 1000):
            return _answer(400, {"error": "now: not a time this box can have"})
        return _answer(200, {"clock": clock.source})

    app.router.add_post("/api/clock", tell)


def _answer(status: int, body: dict[str, str]) -> web.Response:
    return web.json_response(body, status=status, headers={"Cache-Control": "no-store"})
