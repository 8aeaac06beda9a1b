"""Dealing without cards: the organiser's phone is passed round the table.

The box has dealt (a seeded shuffle of the rule set's deck, given to the engine as its
Deal), so it knows the roles and night zero only wakes them to meet. The page shows
"Seat N, tap to see your role"; the role is fetched only while the finger is down (or
until "hide") and is never in the page before that; "pass on" moves to the next seat and
that seat's role can't be asked for again. After the last seat the deal is closed for
good and the game goes on (`on_done`).

Only a signed-in page (the organiser's phone) deals.
"""

from __future__ import annotations

from aiohttp import web

from narrator.web.pages import esc
from narrator.web.phone_deal import PhoneDeal
from narrator.web.refusals import answer
from narrator.web.server import WebServer
from narrator.web.text import Text


def deal_page(t: Text, deal: PhoneDeal | None, starting: bool = False) -> str:
    if deal is None and starting:
        # The game was asked for and the box is dealing it: the page asks again shortly.
        return (f'<section class="box deal" data-wait="1"><h1>{esc(t("deal_title"))}</h1>'
                f'<p>{esc(t("deal_starting"))}</p></section>')
    if deal is None or deal.closed:
        return (f'<section class="box deal"><h1>{esc(t("deal_title"))}</h1>'
                f'<p>{esc(t("deal_closed"))}</p><a class="button" href="/game">{esc(t("nav_game"))}</a>'
                "</section>")
    return (f'<section class="box deal" id="deal" data-seat="{deal.seat}" data-seats="{deal.seats}">'
            f'<h1>{esc(t("deal_title"))}</h1>'
            f'<p class="seatbig">{esc(t("deal_seat", seat=deal.seat))}</p>'
            f'<button type="button" class="show">{esc(t("deal_tap"))}</button>'
            f'<p class="card" aria-live="polite"></p>'
            f'<p class="hint">{esc(t("deal_hint"))}</p>'
            f'<button type="button" class="pass">{esc(t("deal_pass"))}</button></section>')


def routes(server: WebServer, app: web.Application) -> None:
    async def page(request: web.Request) -> web.StreamResponse:
        if not server.reads_roles(request):
            raise web.HTTPSeeOther("/login?next=/deal")
        t = server.text()
        starting = server.evening is not None and server.evening.starting
        return server.html(t("deal_title"), deal_page(t, server.deal, starting), "deal", request)

    def open_deal(request: web.Request) -> PhoneDeal | web.Response:
        """The deal going round, or the answer that says why there is none to use."""
        if not server.reads_roles(request):
            return answer(401, server.text(), "sign_in_first", "enter the PIN first")
        deal = server.deal
        if deal is None or deal.closed:
            return answer(409, server.text(), "deal_over", "the deal is over")
        return deal

    async def peek(request: web.Request) -> web.StreamResponse:
        deal = open_deal(request)
        if not isinstance(deal, PhoneDeal):
            return deal
        if request.query.get("seat", "") != str(deal.seat):
            return answer(409, server.text(), "not_seats_turn", "not this seat's turn")
        return web.json_response({"seat": deal.seat, "role": server.text().role(deal.peek())},
                                 headers={"Cache-Control": "no-store"})

    async def pass_on(request: web.Request) -> web.StreamResponse:
        deal = open_deal(request)
        if not isinstance(deal, PhoneDeal):
            return deal
        deal.pass_on()
        return web.json_response({"seat": deal.seat, "closed": deal.closed})

    app.router.add_get("/deal", page)
    app.router.add_post("/api/deal/peek", peek)
    app.router.add_post("/api/deal/next", pass_on)
