"""The club's season on the box's own page: `/season?from=&to=&scoring=&rules=` shows the
standings of the box's finished games of that date range (narrator.tournament.season),
`/season.csv` the same as CSV. Only finished games count: their roles are on their
protocols for anyone already; nothing of a game in play is read."""

from __future__ import annotations

import datetime as dt

from aiohttp import web

from narrator.records.session import protocols_dir
from narrator.tournament.exports import standings_csv
from narrator.tournament.language import Words
from narrator.tournament.page import esc, standings_table
from narrator.tournament.scoring import load
from narrator.tournament.scoring import names as scoring_names
from narrator.tournament.season import Season, SeasonError, season
from narrator.web.server import WebServer


def _asked(server: WebServer, request: web.Request) -> Season:
    q = request.query
    today = dt.date.today()
    start = q.get("from") or today.replace(month=1, day=1).isoformat()
    end = q.get("to") or today.isoformat()
    folder = protocols_dir(server.host.settings.state_dir)
    return season(folder, start, end, q.get("rules") or "sport", q.get("scoring") or "")


# The words are the tournament's (narrator/tournament/words: the standings' columns are
# theirs), not the box page's table: hence `w`, not the box's `t`.
def form(w: Words, s: Season | None, asked: dict[str, str]) -> str:
    chosen = asked.get("scoring")
    options = "".join(
        f"<option value='{n}'{' selected' if chosen == n else ''}>{esc(load(n).title(w.lang))}</option>"
        for n in scoring_names()
    )
    start = esc(s.start if s else asked.get("from", ""))
    end = esc(s.end if s else asked.get("to", ""))
    return (
        '<form class="row" method="get" action="/season">'
        f"<label>{esc(w('season_from'))}<input type='date' name='from' value='{start}'></label>"
        f"<label>{esc(w('season_to'))}<input type='date' name='to' value='{end}'></label>"
        f"<label>{esc(w('season_scoring'))}<select name='scoring'><option value=''>"
        f"{esc(w('season_rules_own'))}</option>{options}</select></label>"
        f"<button>{esc(w('season_show'))}</button></form>"
    )


def routes(server: WebServer, app: web.Application) -> None:
    async def page(request: web.Request) -> web.StreamResponse:
        w = Words(server.text().lang)
        asked = dict(request.query)
        try:
            s = _asked(server, request)
        except SeasonError as exc:
            body = f'<section class="box"><h1>{esc(w("season_title"))}</h1>{form(w, None, asked)}'
            body += f'<p class="tag nom">{esc(str(exc))}</p></section>'
            return server.html(w("season_title"), body, "season", request, status=400)
        query = request.query_string
        scoring = load(s.scoring) if s.scoring else None
        body = (
            f'<section class="box"><h1>{esc(w("season_title"))}</h1>{form(w, s, asked)}'
            f"<p><small>{esc(w('season_games', games=s.games, start=s.start, end=s.end))}"
            f"{' · ' + esc(w('season_skipped', n=s.skipped)) if s.skipped else ''}"
            f" · <a href='/season.csv?{esc(query)}'>CSV</a></small></p>"
            f"{standings_table(w, s.lines, True, scoring=scoring)}</section>"
        )
        return server.html(w("season_title"), body, "season", request)

    async def csv(request: web.Request) -> web.StreamResponse:
        try:
            s = _asked(server, request)
        except SeasonError as exc:
            raise web.HTTPBadRequest(text=str(exc)) from None
        return web.Response(
            text=standings_csv(s.lines),
            content_type="text/csv",
            headers={"Content-Disposition": f'attachment; filename="season-{s.start}-{s.end}.csv"'},
        )

    app.router.add_get("/season", page)
    app.router.add_get("/season.csv", csv)
