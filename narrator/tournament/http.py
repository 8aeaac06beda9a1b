"""The collector's small HTTP pieces, shared by its public and its organiser's routes."""

from __future__ import annotations

import hashlib

from aiohttp import web

COOKIE = "narrator_tournament"


def token_hash(token: str) -> str:
    """What the store keeps of an organiser's cookie: nothing a cookie could be made from."""
    return hashlib.sha256(token.encode()).hexdigest()


def html(text: str, status: int = 200) -> web.Response:
    return web.Response(
        text=text, status=status, content_type="text/html", headers={"Cache-Control": "no-store"}
    )
