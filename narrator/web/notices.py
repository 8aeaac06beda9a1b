"""The box's own notices on the organiser's page (narrator.notices): one line each, above
the game, in the page's language; the page follows each change live. Added to the server
like the other pages (narrator.web.site), so the server's module stays as it is."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from narrator.notices import Notices
from narrator.web.pages import esc
from narrator.web.text import Text

if TYPE_CHECKING:
    from narrator.web.server import WebServer


def routes(server: WebServer, _app: web.Application) -> None:
    notices = getattr(server.host, "notices", None)
    if isinstance(notices, Notices):
        notices.listeners.append(server.hub.poke)


def notes(t: Text, notices: Notices | None) -> str:
    if notices is None:
        return ""
    return "".join(f'<p class="fault" role="alert">{esc(t("notice_" + n.word, **n.params))}</p>'
                   for n in notices.items.values())
