"""Signing in to the organiser's page: the PIN, the box's Next button, a one-time code.

Routes: /login (the PIN, or a one-time code in its place), /logout, /login/button (a
phone waits for the box's Next button to be held), /login/invite (a signed-in phone makes
a one-time code for a second device). The PIN is never in any answer: the sign-in page
says where the organiser finds it (the config, the log, the state folder's web-pin), and the
box never says it aloud.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING
from urllib.parse import quote

from aiohttp import web

from narrator.web.auth import COOKIE, SESSION_HOURS
from narrator.web.pages import esc
from narrator.web.passes import ASK_COOKIE, INVITE_SECONDS
from narrator.web.refusals import words
from narrator.web.text import Text

if TYPE_CHECKING:
    from narrator.web.server import WebServer

log = logging.getLogger("narrator.web")

MAX_AGE = int(SESSION_HOURS * 3600)


def routes(server: WebServer, app: web.Application) -> None:
    r = app.router

    async def login_form(request: web.Request) -> web.StreamResponse:
        t = server.text()
        code = request.query.get("code", "")  # a one-time link: the code typed for them
        return _login(server, request, t, _safe_next(request.query.get("next")), code=code)

    async def login(request: web.Request) -> web.StreamResponse:
        t = server.text()
        try:
            form = await request.post()
        except ValueError:
            return web.Response(text=t("bad_form"), status=400)
        pin, next_url = str(form.get("pin", "")), _safe_next(str(form.get("next", "")))
        client = request.remote or "?"
        wait = server.gate.wait_left(client)
        if wait > 0:
            key = "pin_wait_all" if server.gate.everyone_waits() else "pin_wait"
            return _login(server, request, t, next_url, t(key, seconds=int(wait + 0.999)),
                          status=429)
        token = server.gate.try_pin(client, pin, also=server.invites.redeem)
        if token is None:
            log.warning("a wrong PIN from %s", client)
            return _login(server, request, t, next_url, t("pin_wrong"), status=401)
        raise _signed_in(token, next_url)

    async def logout(request: web.Request) -> web.StreamResponse:
        server.gate.end(request.cookies.get(COOKIE))
        response = web.HTTPSeeOther("/game")
        response.del_cookie(COOKIE, path="/")
        raise response

    async def button_ask(request: web.Request) -> web.StreamResponse:
        """A phone asks to be let in by the box's Next button."""
        t = server.text()
        try:
            form = await request.post()
        except ValueError:
            return web.Response(text=t("bad_form"), status=400)
        next_url = _safe_next(str(form.get("next", "")))
        if not server.button.available:
            return _login(server, request, t, next_url, t("button_none"), status=409)
        client = request.remote or "?"
        ticket = server.button.ask(client)
        if ticket is None:
            wait = server.button.wait_left(client)
            said = (t("button_busy", seconds=int(wait + 0.999)) if wait > 0
                    else t("button_full", seconds=int(server.button.busy_for() + 0.999)))
            return _login(server, request, t, next_url, said, status=409)
        response = web.HTTPSeeOther(f"/login/button?next={quote(next_url)}")
        response.set_cookie(ASK_COOKIE, ticket, httponly=True, samesite="Strict",
                            path="/login", max_age=int(server.button.seconds) * 2)
        raise response

    async def button_wait(request: web.Request) -> web.StreamResponse:
        """The waiting phone's page: it reloads itself until the button is held (then it
        is signed in) or the time runs out."""
        t = server.text()
        next_url = _safe_next(request.query.get("next"))
        ticket = request.cookies.get(ASK_COOKIE)
        state, left = server.button.state(ticket)
        if state == "granted":
            response = _signed_in(server.gate.open_session(by_button=True), next_url)
            response.del_cookie(ASK_COOKIE, path="/login")
            raise response
        if state == "expired":
            return _login(server, request, t, next_url, t("button_timeout"), status=408)
        if state == "crowded":
            return _login(server, request, t, next_url, t("button_crowded"), status=409)
        others = server.button.others(ticket)
        # Whether this phone is the only one waiting: a hold lets in only a phone alone.
        alone = (f'<p class="big">{esc(t("button_hold_now"))}</p>' if not others else
                 f'<p class="error" role="alert">{esc(t("button_others", n=others))}</p>')
        body = (f'<section class="box narrow" id="button-wait"><h1>{esc(t("button_title"))}</h1>'
                f'{alone}'
                f'<p>{esc(t("button_left", seconds=int(left + 0.999)))}</p>'
                f'<p><a href="/login?next={esc(next_url)}">{esc(t("button_back"))}</a></p>'
                '</section>')
        return server.html(t("sign_in"), body, "login", request, refresh=2)

    async def invite_page(request: web.Request) -> web.StreamResponse:
        t = server.text()
        if not server.signed_in(request):
            raise web.HTTPSeeOther("/login?next=/login/invite")
        body = (f'<section class="box narrow"><h1>{esc(t("invite"))}</h1>'
                f'<p>{esc(t("invite_why"))}</p><form method="post" action="/login/invite">'
                f'<button type="submit">{esc(t("invite_make"))}</button></form></section>')
        return server.html(t("invite"), body, "login", request)

    async def invite_make(request: web.Request) -> web.StreamResponse:
        t = server.text()
        if not server.signed_in(request):
            return web.Response(text=words(t, "sign_in_first"), status=401)
        code = server.invites.make()
        link = f"/login?code={code}"
        minutes = int(INVITE_SECONDS // 60)
        body = (f'<section class="box narrow"><h1>{esc(t("invite"))}</h1>'
                f'<p class="code" id="invite-code">{esc(code)}</p>'
                f'<p>{esc(t("invite_how", minutes=minutes))}</p>'
                f'<p><a href="{esc(link)}" id="invite-link">{esc(t("invite_link"))}</a></p>'
                '</section>')
        return server.html(t("invite"), body, "login", request)

    r.add_get("/login", login_form)
    r.add_post("/login", login)
    r.add_post("/logout", logout)
    r.add_post("/login/button", button_ask)
    r.add_get("/login/button", button_wait)
    r.add_get("/login/invite", invite_page)
    r.add_post("/login/invite", invite_make)


def _signed_in(token: str, next_url: str) -> web.HTTPSeeOther:
    response = web.HTTPSeeOther(next_url)
    # Max-Age: the 12 h the session is good for, past the browser's closing.
    response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/",
                        max_age=MAX_AGE)
    return response


def _login(server: WebServer, request: web.Request, t: Text, next_url: str, error: str = "",
           *, code: str = "", status: int = 200) -> web.Response:
    err = f'<p class="error" role="alert">{esc(error)}</p>' if error else ""
    # Only a code the visitor brought in its own link is put back in the field: never the PIN.
    value = f' value="{esc(code)}"' if code.isdigit() and len(code) <= 12 else ""
    button = ""
    if server.button.available:
        button = (f'<form method="post" action="/login/button" class="button-way">'
                  f'<input type="hidden" name="next" value="{esc(next_url)}">'
                  f'<button type="submit" id="use-button">{esc(t("button_use"))}</button></form>')
    body = (f'<section class="box narrow"><h1>{esc(t("sign_in"))}</h1>{err}'
            f'<form method="post" action="/login"><input type="hidden" name="next" value="{esc(next_url)}">'
            f'<label>{esc(t("pin_or_code"))} <input name="pin" type="password" inputmode="numeric" '
            f'autocomplete="current-password" autofocus required{value}></label>'
            f'<button type="submit">{esc(t("sign_in"))}</button></form>'
            f'{button}<p class="where">{esc(t("pin_where"))}</p></section>')
    return server.html(t("sign_in"), body, "login", request, status=status)


def _safe_next(value: str | None) -> str:
    """Only a path on this box (never //other.host or a scheme) after signing in."""
    if not value or not value.startswith("/") or value.startswith("//") or "\\" in value:
        return "/game"
    return value
