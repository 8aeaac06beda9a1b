"""The collector's page as HTML, in the organiser's page's style (the box's own style
sheet) and in English or Russian (words/*.yaml). Everything that came from outside
(names, clubs, tournament name, box names, the words of a refusal) goes through `esc`.

Phone first: a player's "where do I sit" comes first, then the state of every table of
the round, then the standings (five columns on a phone, no sideways scroll), the games,
the corrections' log and the seating. The organiser, signed in with the tournament key,
also gets the controls (narrator.tournament.page_forms) and the refused deliveries; the
key itself is never in a page.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

from narrator.tournament.corrections import Change, Correction, Result, decisions, status
from narrator.tournament.event import Tournament
from narrator.tournament.hall import TableState, current_round, tables
from narrator.tournament.language import Words
from narrator.tournament.scoring import Scoring
from narrator.tournament.standings import Line
from narrator.tournament.store import BoxRow, GameRecord, Order, Player, Refusal


def esc(value: object) -> str:
    return escape(str(value), quote=True)


def num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if value else "0"


def clock(seconds: float | None) -> str:
    return time.strftime("%H:%M", time.localtime(seconds)) if seconds else "?"


@dataclass(frozen=True)
class View:
    """What the page shows, read from the store once per request."""

    tournament: Tournament
    players: Sequence[Player]
    lines: Sequence[Line]
    seating: Mapping[int, Mapping[int, Sequence[int]]]
    boxes: Sequence[BoxRow]
    orders: Sequence[Order]
    games: Sequence[GameRecord]
    results: Mapping[str, Result]  # game id -> its result in force
    refusals: Sequence[Refusal]
    now: float
    address: str  # the page's address as phones on the club's network open it
    silent_after: float
    stage_rounds: Mapping[str, Sequence[int]] = field(default_factory=dict)  # stage -> first, last round

    def next_stage(self) -> str:
        """The next stage to seat ("": none, or the main rounds not seated yet)."""
        if not self.seating:
            return ""
        later = [s.name for s in self.tournament.stages()[1:] if s.name not in self.stage_rounds]
        return later[0] if later else ""

    @property
    def round(self) -> int:
        return current_round(self.seating, self.games)

    def tables(self) -> list[TableState]:
        return tables(
            self.round,
            self.seating,
            self.boxes,
            self.orders,
            self.games,
            self.tournament.name,
            self.now,
            self.silent_after,
        )

    def by_id(self) -> dict[int, Player]:
        return {p.id: p for p in self.players}

    @property
    def scoring(self) -> Scoring | None:
        return self.tournament.scoring_of()


_EXTRA_CSS = """
table.standings { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
table.standings th, table.standings td { padding: .3rem .3rem; border-bottom: 1px solid var(--line);
  text-align: right; }
table.standings th:nth-child(2), table.standings td:nth-child(2) { text-align: left;
  overflow-wrap: anywhere; }
table.standings td.total { font-weight: 700; }
table.standings .club { display: block; color: var(--muted); font-size: .8rem; }
.rounds { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: .5rem; }
.rounds ol { margin: .2rem 0 .4rem 1.4rem; padding: 0; }
.tag.ok { background: var(--ok); color: #fff; } .tag.no { background: var(--muted); color: #fff; }
.tag.warn { background: var(--warn); color: #fff; } .tag.bad { background: var(--accent); color: #fff; }
.tag.play { background: var(--night); color: #fff; }
ul.hall li { display: flex; flex-wrap: wrap; gap: .2rem .5rem; align-items: baseline;
  border-bottom: 1px solid var(--line); padding: .35rem 0; }
ul.hall small { flex-basis: 100%; }
form.row { display: flex; flex-wrap: wrap; gap: .4rem; margin: .3rem 0; align-items: flex-end; }
form.row label { display: flex; flex-direction: column; font-size: .85rem; color: var(--muted); gap: .1rem;
  flex: 1 1 9rem; min-width: 0; }
form.row input, form.row select { font: inherit; font-size: 1rem; padding: .35rem; color: var(--ink);
  width: 100%; min-width: 0; }
form.row button { flex: 0 0 auto; }
.notice { border-left: .35rem solid var(--ok); } .notice.refused { border-left-color: var(--accent); }
.where b { font-size: 1.05rem; }
details summary { cursor: pointer; color: var(--muted); margin: .3rem 0; }
ul.log li { border-bottom: 1px solid var(--line); padding: .3rem 0; overflow-wrap: anywhere; }
@media (min-width: 1100px) { main { max-width: 76rem; }
  .top { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 3fr); gap: .75rem;
    align-items: start; }
  #live { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 0 .75rem;
    align-items: start; }
  #live > .standings-box { grid-row: span 6; } }
@media (max-width: 560px) { table.standings .wide { display: none; } main { padding: .5rem; }
  .box { padding: .7rem .6rem; } }
@media print { header, .controls, .noprint, .where { display: none; } body { background: #fff; }
  .box { border: 0; } }
"""


def layout(t: Words, title: str, body: str, signed_in: bool, refresh: bool = False) -> str:
    other = "ru" if t.lang == "en" else "en"
    auth = (
        '<form method="post" action="/logout" class="inline"><button class="link">'
        f"{esc(t('sign_out'))}</button></form>"
        if signed_in
        else f'<a href="/login?lang={t.lang}" class="pin">{esc(t("sign_in"))}</a>'
    )
    # Each live part of the page (an element with data-live="<part>") is fetched again
    # every 3 s and swapped in place; the forms between them stay as the organiser left them.
    script = (
        (
            "<script>setInterval(function(){document.querySelectorAll('[data-live]').forEach(function(e){"
            "fetch('/?fragment='+e.dataset.live+'&lang="
            + t.lang
            + "').then(function(r){return r.ok?r.text():null})"
            ".then(function(h){if(h!==null){e.innerHTML=h}})})},3000)</script>"
        )
        if refresh
        else ""
    )
    return (
        f'<!doctype html><html lang="{t.lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{esc(title)}</title><link rel="stylesheet" href="/static/style.css">'
        f'<style>{_EXTRA_CSS}</style><link rel="icon" href="data:,"></head><body>'
        f'<header><nav><a href="/?lang={t.lang}" aria-current=page>{esc(t("title"))}</a>'
        f'<a href="?lang={other}">{esc(t("language"))}</a></nav>{auth}</header>'
        f"<main>{body}</main>{script}</body></html>"
    )


def result_words(t: Words, result: Result | None) -> str:
    if result is None:
        return t("winner_none")
    if result.annulled:
        return t("annulled")
    w = result.winner
    if w in ("red", "black", "draw"):
        return t(f"winner_{w}")
    return t("winner_other", team=w) if w else t("winner_none")


def standings_table(
    t: Words,
    lines: Sequence[Line],
    best_move: bool = True,
    rating: bool = False,
    scoring: Scoring | None = None,
) -> str:
    """The standings; a scoring's own groups (penalties, Polemica's votes, Ci) as columns
    when it has them."""
    if not lines:
        return f"<p>{esc(t('no_players'))}</p>"
    keys = [
        "place",
        "name",
        *(["rating_id"] if rating else []),
        "games_played",
        "wins",
        "win_points",
        *(["best_move"] if best_move or (scoring and scoring.guess) else []),
        "extra",
        *(["penalty"] if scoring and scoring.penalty.points else []),
        *(["votes"] if scoring and scoring.voted_black else []),
        *(["ci"] if scoring and scoring.first_night else []),
        "total",
    ]
    wide = {"win_points", "best_move", "extra", "rating_id"} if not rating else {"win_points", "best_move"}
    head = "".join(f"<th{' class=wide' if k in wide else ''}>{esc(t(k))}</th>" for k in keys)
    rows = []
    for line in lines:
        p = line.player
        club = f'<span class="club">{esc(p.club)}</span>' if p.club else ""
        value = {
            "place": str(line.place),
            "name": f"{esc(p.name)}{club}",
            "rating_id": esc(p.rating_id),
            "games_played": str(line.games),
            "wins": str(line.wins),
            "win_points": num(line.win_points),
            "best_move": num(line.best_move),
            "extra": num(line.extra),
            "penalty": num(line.penalty),
            "votes": num(line.votes),
            "ci": num(line.ci),
            "total": num(line.total),
        }
        tds = "".join(
            f"<td{' class=wide' if k in wide else ' class=total' if k == 'total' else ''}>{value[k]}</td>"
            for k in keys
        )
        rows.append(f"<tr>{tds}</tr>")
    return f'<table class="standings"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def where(t: Words, view: View, who: str) -> str:
    """A player's seat in every round (the first thing on a phone), and everyone's this round."""
    names = "".join(f"<option value='{esc(p.name)}'>" for p in view.players)
    form = (
        f'<form class="row" method="get" action="/"><input type="hidden" name="lang" value="{t.lang}">'
        f'<label>{esc(t("where_label"))}<input name="who" list="players" value="{esc(who)}" '
        f'autocomplete="off"></label><datalist id="players">{names}</datalist>'
        f"<button>{esc(t('where_find'))}</button></form>"
    )
    found = ""
    if who.strip():
        key = who.strip().casefold()
        player = next((p for p in view.players if p.name.casefold() == key), None)
        if player is None:
            found = f"<p>{esc(t('where_none', name=who.strip()))}</p>"
        else:
            items = []
            for rnd in sorted(view.seating):
                spot = next(
                    (
                        (table, seats.index(player.id) + 1)
                        for table, seats in view.seating[rnd].items()
                        if player.id in seats
                    ),
                    None,
                )
                items.append(
                    t("where_round", n=rnd, table=spot[0], seat=spot[1]) if spot else t("where_out", n=rnd)
                )
            line = next((x for x in view.lines if x.player.id == player.id), None)
            said = (
                t("where_points", points=num(line.total), games=line.games, place=line.place) if line else ""
            )
            points = f"<p><small>{esc(said)}</small></p>" if line else ""
            found = (
                f"<p><b>{esc(player.name)}</b></p><ul class=plain>"
                + "".join(f"<li>{esc(i)}</li>" for i in items)
                + f"</ul>{points}"
            )
    everyone = ""
    rnd = view.round
    if view.seating.get(rnd):
        by_id = view.by_id()
        spots = sorted(
            (by_id[p].name, table, seat)
            for table, seats in view.seating[rnd].items()
            for seat, p in enumerate(seats, 1)
            if p in by_id
        )
        lis = "".join(
            f"<li>{esc(name)}: {esc(t('table_n', n=table))}, {esc(t('seat_n', n=seat))}</li>"
            for name, table, seat in sorted(spots, key=lambda s: s[0].casefold())
        )
        everyone = (
            f"<details><summary>{esc(t('where_all', n=rnd))}</summary><ul class=plain>{lis}</ul></details>"
        )
    return f'<section class="box where"><h2>{esc(t("where_title"))}</h2>{form}{found}{everyone}</section>'


def hall(t: Words, view: View) -> str:
    """Every table of the current round: its state in words, its box, its outbox."""
    if not view.seating:
        return f'<section class="box"><h2>{esc(t("rounds"))}</h2><p>{esc(t("not_seated"))}</p></section>'
    items = []
    for s in view.tables():
        items.append(
            f"<li><b>{esc(t('table_n', n=s.table))}</b> {_state(t, s)}{_detail(t, s, view.now)}</li>"
        )
    return (
        f'<section class="box"><h2>{esc(t("hall_title", n=view.round))}</h2>'
        f'<ul class="plain hall">{"".join(items)}</ul></section>'
    )


_TAGS = {"delivered": "ok", "playing": "play", "sent": "no", "seated": "no", "no_box": "bad", "silent": "bad"}


def _state(t: Words, s: TableState) -> str:
    if s.state == "delivered":
        text = t("state_delivered", time=clock(s.since))
    elif s.state == "playing":
        text = t("state_playing", time=clock(s.since)) if s.since else t("state_playing_now")
        if s.phase in ("day", "night"):
            text += ", " + t(f"phase_{s.phase}", n=s.number)
    elif s.state == "sent":
        text = t("state_sent", time=clock(s.since))
    elif s.state == "silent":
        text = t("state_silent", minutes=max(1, int(s.silent_for // 60)))
    else:
        text = t(f"state_{s.state}")
    return f"<span class='tag {_TAGS[s.state]}'>{esc(text)}</span>"


def _detail(t: Words, s: TableState, now: float) -> str:
    bits = []
    if s.box:
        bits.append(t("box_of", name=s.box))
    if s.heard is not None and s.state not in ("delivered", "silent"):
        bits.append(t("heard_ago", seconds=max(0, int(now - s.heard))))
    if s.waiting:
        bits.append(t("outbox_waiting", count=s.waiting))
    return f"<small>{esc(' · '.join(bits))}</small>" if bits else ""


def _listed(t: Words, items: str, empty: str, kind: str = "plain") -> str:
    """A section's list of `<li>` items, or the words `empty` when there are none."""
    return f"<ul class='{kind}'>{items}</ul>" if items else f"<p>{esc(t(empty))}</p>"


def boxes(t: Words, view: View) -> str:
    items = "".join(
        f"<li>{esc(t('table_n', n=b.table)) if b.table is not None else esc(t('spare'))}: {esc(b.name)} "
        f"<small>{esc(t('box_address', host=b.host, port=b.port))}</small></li>"
        for b in view.boxes
    )
    body = _listed(t, items, "no_boxes")
    return f'<section class="box"><h2>{esc(t("boxes_title"))}</h2>{body}</section>'


def game_title(t: Words, game: GameRecord, result: Result | None) -> str:
    return f"{t('round_n', n=game.round)} · {t('table_n', n=game.table)}: {result_words(t, result)}"


def games(t: Words, view: View) -> str:
    items = []
    for g in view.games:
        fixed = f" <span class='tag nom'>{esc(t('corrected'))}</span>" if g.corrections else ""
        items.append(
            f"<li>{esc(game_title(t, g, view.results.get(g.uid)))}{fixed} · "
            f"<a href='/games/{esc(g.uid)}?lang={t.lang}'>{esc(t('protocol'))}</a></li>"
        )
    body = _listed(t, "".join(items), "no_games")
    return (
        f'<section class="box"><h2>{esc(t("games"))}</h2>{body}'
        f'<p class="noprint">{esc(t("exports"))}: <a href="/export/standings.csv">{esc(t("csv"))}</a> · '
        f'<a href="/export/sheet?lang={t.lang}">{esc(t("sheet"))}</a> · '
        f'<a href="/export/polemica.json">{esc(t("polemica"))}</a></p></section>'
    )


def change_words(t: Words, change: Change) -> str:
    value = change.value
    if change.kind == "box" and isinstance(value, Mapping):
        value = ", ".join(f"{k}: {v:+g}" for k, v in value.items()) or "0"
    elif change.kind == "winner":
        value = result_words(t, Result(str(value)))
    return t(f"change_{change.kind}", seat=change.seat, value=value, parent="")


def log(t: Words, view: View) -> str:
    """Every correction record, newest first."""
    items = []
    for g in view.games:
        decided = decisions(g.corrections)
        for c in g.corrections:
            items.append((c, g, status(c, decided)))
    items.sort(key=lambda x: -x[0].id)
    lis = "".join(
        f"<li><small>#{c.id} · {esc(game_title(t, g, None).rsplit(':', 1)[0])} · "
        f"{esc(t('status_' + state.replace(' ', '_')))}</small><br>"
        f"{esc(t('correction_item', when=clock(c.at), who=c.who, what=_what(t, c), why=c.why))}</li>"
        for c, g, state in items
    )
    body = _listed(t, lis, "no_corrections", "plain log")
    return f'<section class="box"><h2>{esc(t("corrections_title"))}</h2>{body}</section>'


def _what(t: Words, c: Correction) -> str:
    if c.change.kind in ("approve", "decline"):
        return t(f"change_{c.change.kind}", parent=c.parent)
    return change_words(t, c.change)


def refused(t: Words, view: View) -> str:
    lis = "".join(
        f"<li><small>{esc(t('refused_from', when=clock(r.at), box=r.box, game=r.game_id or '-'))}</small><br>"
        f"{esc(t.why(r.why))}</li>"
        for r in view.refusals
    )
    body = _listed(t, lis, "no_refused", "plain log")
    return f'<section class="box"><h2>{esc(t("refused_title"))}</h2>{body}</section>'


def seating(t: Words, view: View) -> str:
    if not view.seating:
        return ""
    by_id = view.by_id()
    counted = {(g.round, g.table) for g in view.games}
    rounds = []
    for rnd in sorted(view.seating):
        cells = []
        for table in sorted(view.seating[rnd]):
            mark = "<span class='tag ok'>✓</span>" if (rnd, table) in counted else ""
            names = "".join(
                f"<li>{esc(by_id[p].name) if p in by_id else p}</li>" for p in view.seating[rnd][table]
            )
            cells.append(f"<div><b>{esc(t('table_n', n=table))}</b> {mark}<ol>{names}</ol></div>")
        rounds.append(
            f"<details{' open' if rnd == view.round else ''}><summary>{esc(t('round_n', n=rnd))}</summary>"
            f'<div class="rounds">{"".join(cells)}</div></details>'
        )
    return f'<section class="box"><h2>{esc(t("rounds"))}</h2>{"".join(rounds)}</section>'


LIVE = ("hall", "rest")


def live(t: Words, view: View, signed_in: bool, part: str = "rest") -> str:
    """A part of the page that updates by itself: the tables ("hall"), or the rest."""
    if part == "hall":
        return hall(t, view)
    parts = [
        f'<section class="box standings-box"><h2>{esc(t("standings"))}</h2>'
        f"{standings_table(t, view.lines, view.tournament.rule_set.best_move, scoring=view.scoring)}"
        f'<p class="noprint"><small>{esc(t("updated"))}</small></p></section>',
        games(t, view),
        log(t, view),
    ]
    if signed_in:
        parts.append(refused(t, view))
    parts += [boxes(t, view), seating(t, view)]
    return "".join(parts)


def page(t: Words, view: View, controls: str, notice: str, signed_in: bool, who: str = "") -> str:
    """Where do I sit, then every table's state, then (signed in) the controls, then the
    standings and the rest: a phone shows the first two on its first screen."""
    name = view.tournament.name
    head = (
        f"<h1>{esc(name)}</h1><p><small>{esc(t('rules'))}: {esc(view.tournament.rules)}"
        f"{' · ' + esc(view.tournament.preset) if view.tournament.preset else ''}"
        f"{' · ' + esc(view.scoring.title(t.lang)) if view.scoring and view.scoring.name else ''} · "
        f"{esc(t('address', url=view.address))}</small></p>"
    )
    body = (
        head
        + notice
        + '<div class="top">'
        + where(t, view, who)
        + f'<div data-live="hall">{live(t, view, signed_in, "hall")}</div></div>'
        + controls
        + f'<div id="live" data-live="rest">{live(t, view, signed_in)}</div>'
    )
    return layout(t, name, body, signed_in, refresh=True)


def notice(t: Words, text: str, refusal: bool = False) -> str:
    if not text:
        return ""
    words = t("refusal", why=text) if refusal else text
    kind = "box notice refused" if refusal else "box notice"
    return f'<section class="{kind}" role="status"><p>{esc(words)}</p></section>'


def login(t: Words, wrong: bool) -> str:
    note = f"<p class='tag nom'>{esc(t('wrong_key'))}</p>" if wrong else ""
    body = (
        f'<section class="box"><h2>{esc(t("key"))}</h2>{note}<form class="row" method="post" '
        f'action="/login?lang={t.lang}"><label>{esc(t("key"))}<input name="key" type="password" '
        f'autocomplete="off" required></label><button>{esc(t("enter"))}</button></form></section>'
    )
    return layout(t, t("sign_in"), body, False)


def sheet(t: Words, tournament: Tournament, lines: Sequence[Line], after: int, now: float) -> str:
    """The printable standings: the tournament's name, date, the round they stand after,
    and each player's rating id."""
    after_words = t("sheet_after", n=after, rounds=tournament.rounds) if after else t("sheet_none")
    date = t("sheet_date", date=tournament.date or "?")
    head = (
        f"<h1>{esc(tournament.name)}</h1><p>{esc(after_words)} · {esc(date)} · "
        f"{esc(t('rules'))}: {esc(tournament.rules)}"
        f"{' · ' + esc(tournament.scoring) if tournament.scoring else ''}</p>"
    )
    printed = t("sheet_printed", time=time.strftime("%Y-%m-%d %H:%M", time.localtime(now)))
    best = tournament.rule_set.best_move
    table = standings_table(t, lines, best, rating=True, scoring=tournament.scoring_of())
    body = f'{head}<section class="box">{table}</section><p><small>{esc(printed)}</small></p>'
    return layout(t, f"{tournament.name}: {t('standings')}", body, False)
