"""The box's own notices (narrator.box.notices) on the organiser's page: the page follows
each change live; pages.box_notes writes them, one line each above the game, in the
page's language. Added to the server like the other pages (narrator.web.site)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from narrator.web.server import NoticesHost

if TYPE_CHECKING:
    from narrator.web.server import WebServer


def routes(server: WebServer, _app: web.Application) -> None:
    if isinstance(server.host, NoticesHost):
        server.host.notices.listeners.append(server.hub.poke)

