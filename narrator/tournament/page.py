"""The collector's page as HTML, in the organiser's page's style (the box's own style
sheet) and in English or Russian (words/*.yaml). Everything that came from outside
(names, clubs, tournament name, box names) goes through `esc`.

The public page shows what a tournament's hall shows: the standings, the seating, the
tables, the finished games and their protocol sheets. The organiser, signed in with the
tournament key, also gets the controls; the key itself is never in a page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from html import escape
from importlib import resources
from typing import Any

from narrator.errors import InputFileError
from narrator.tournament.standings import Line
from narrator.tournament.store import BoxRow, Player
from narrator.yamlfile import parse_yaml

LANGUAGES = ("en", "ru")


@cache
def words(lang: str) -> Mapping[str, str]:
    text = (resources.files("narrator.tournament") / "words" / f"{lang}.yaml").read_text(encoding="utf-8")
    data = parse_yaml(text, f"narrator/tournament/words/{lang}.yaml", InputFileError)
    assert isinstance(data, dict)
    return {str(k): str(v) for k, v in data.items()}


class Words:
    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in LANGUAGES else "en"
        self._w = words(self.lang)

    def __call__(self, key: str, **values: object) -> str:
        return self._w[key].format(**values)


def esc(value: object) -> str:
    return escape(str(value), quote=True)


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if value else "0"


_EXTRA_CSS = """
table.standings { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
table.standings th, table.standings td { padding: .3rem .35rem; border-bottom: 1px solid var(--line);
  text-align: right; }
table.standings th:nth-child(2), table.standings td:nth-child(2) { text-align: left; }
table.standings td.total { font-weight: 700; }
table.standings .club { display: block; color: var(--muted); font-size: .8rem; }
.scroll { overflow-x: auto; }
.rounds { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: .5rem; }
.rounds ol { margin: .2rem 0 .4rem 1.4rem; padding: 0; }
.tag.ok { background: var(--ok); color: #fff; } .tag.no { background: var(--muted); color: #fff; }
form.row { display: flex; flex-wrap: wrap; gap: .4rem; margin: .3rem 0; }
form.row input, form.row select { font: inherit; padding: .35rem; }
@media (max-width: 560px) { table.standings .wide { display: none; } }
@media print { header, .controls, .noprint { display: none; } body { background: #fff; } .box { border: 0; } }
"""


def layout(t: Words, title: str, body: str, signed_in: bool, refresh: bool = False) -> str:
    other = "ru" if t.lang == "en" else "en"
    auth = (
        '<form method="post" action="/logout" class="inline"><button class="link">'
        f"{esc(t('sign_out'))}</button></form>"
        if signed_in
        else f'<a href="/login?lang={t.lang}" class="pin">{esc(t("sign_in"))}</a>'
    )
    script = (
        (
            "<script>setInterval(function(){fetch(location.pathname+'?fragment=1&lang="
            f"{t.lang}').then(function(r){{return r.ok?r.text():null}}).then(function(h){{"
            "if(h){document.getElementById('live').innerHTML=h}})},3000)</script>"
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


def standings_table(t: Words, lines: Sequence[Line], best_move: bool = True) -> str:
    if not lines:
        return f"<p>{esc(t('no_players'))}</p>"
    head = "".join(
        f"<th{' class=wide' if k in ('win_points', 'best_move', 'extra') else ''}>{esc(t(k))}</th>"
        for k in ("place", "name", "games_played", "wins", "win_points", "best_move", "extra", "total")
        if best_move or k != "best_move"
    )
    rows = []
    for line in lines:
        p = line.player
        club = f'<span class="club">{esc(p.club)}</span>' if p.club else ""
        cells = (
            [str(line.place), f"{esc(p.name)}{club}", str(line.games), str(line.wins), _num(line.win_points)]
            + ([_num(line.best_move)] if best_move else [])
            + [_num(line.extra)]
        )
        wide = {4, 5, 6} if best_move else {4, 5}
        tds = "".join(f"<td{' class=wide' if i in wide else ''}>{c}</td>" for i, c in enumerate(cells))
        rows.append(f"<tr>{tds}<td class=total>{_num(line.total)}</td></tr>")
    return (
        f'<div class="scroll"><table class="standings"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def live(
    t: Words,
    name: str,
    lines: Sequence[Line],
    players: Sequence[Player],
    boxes: Sequence[BoxRow],
    seating: Mapping[int, Mapping[int, Sequence[int]]],
    sent: set[tuple[int, int]],
    games: Sequence[Mapping[str, Any]],
) -> str:
    """The part of the page that updates by itself."""
    by_id = {p.id: p for p in players}
    parts = [
        f'<section class="box"><h2>{esc(t("standings"))}</h2>{standings_table(t, lines)}'
        f'<p class="noprint"><small>{esc(t("updated"))}</small></p></section>'
    ]
    tables = "".join(
        f"<li>{esc(t('table_n', n=b.table))}: {esc(b.name)} <small>{esc(b.host)}:{b.port}</small></li>"
        for b in boxes
    )
    parts.append(
        f'<section class="box"><h2>{esc(t("boxes"))}</h2>'
        f"{f'<ul class=plain>{tables}</ul>' if tables else '<p>' + esc(t('no_boxes')) + '</p>'}"
        "</section>"
    )
    if seating:
        rounds = []
        for rnd in sorted(seating):
            cells = []
            for table in sorted(seating[rnd]):
                mark = (
                    "<span class='tag ok'>" + esc(t("sent")) + "</span>"
                    if (rnd, table) in sent
                    else "<span class='tag no'>" + esc(t("not_sent")) + "</span>"
                )
                names = "".join(
                    f"<li>{esc(by_id[p].name) if p in by_id else p}</li>" for p in seating[rnd][table]
                )
                cells.append(f"<div><b>{esc(t('table_n', n=table))}</b> {mark}<ol>{names}</ol></div>")
            rounds.append(f'<h3>{esc(t("round_n", n=rnd))}</h3><div class="rounds">{"".join(cells)}</div>')
        parts.append(f'<section class="box"><h2>{esc(t("rounds"))}</h2>{"".join(rounds)}</section>')
    else:
        parts.append(
            f'<section class="box"><h2>{esc(t("rounds"))}</h2><p>{esc(t("not_seated"))}</p></section>'
        )
    items = []
    for g in games:
        game = g["game"]
        event = game.get("event") or {}
        result = t(
            f"winner_{g.get('winner')}" if g.get("winner") in ("red", "black", "draw") else "winner_none"
        )
        fixed = f" <span class='tag nom'>{esc(t('corrected'))}</span>" if g.get("_corrections") else ""
        items.append(
            f"<li>{esc(t('round_n', n=event.get('round', '?')))} · "
            f"{esc(t('table_n', n=event.get('table', '?')))}: {esc(result)}{fixed} · "
            f"<a href='/games/{esc(g['_uid'])}?lang={t.lang}'>{esc(t('protocol'))}</a></li>"
        )
    parts.append(
        f'<section class="box"><h2>{esc(t("games"))}</h2>'
        f"{'<ul class=plain>' + ''.join(items) + '</ul>' if items else '<p>' + esc(t('no_games')) + '</p>'}"
        f'<p class="noprint">{esc(t("exports"))}: <a href="/export/standings.csv">{esc(t("csv"))}</a> · '
        f'<a href="/export/sheet?lang={t.lang}">{esc(t("sheet"))}</a> · '
        f'<a href="/export/polemica.json">{esc(t("polemica"))}</a></p></section>'
    )
    return "".join(parts)


def controls(
    t: Words, rounds: int, seated: bool, games: Sequence[Mapping[str, Any]], boxes: Sequence[BoxRow] = ()
) -> str:
    """The organiser's controls (signed in only)."""
    names = "".join(f"<option>{esc(b.name)}</option>" for b in boxes)
    number = (
        f'<form class="row" method="post" action="/boxes"><select name="name">{names}</select>'
        f'<input name="table" type="number" min=1 max=999 required placeholder="{esc(t("table_n", n=""))}">'
        f"<button>{esc(t('save'))}</button></form>"
        if boxes
        else ""
    )
    add = (
        ""
        if seated
        else '<form class="row" method="post" action="/players">'
        f'<input name="name" placeholder="{esc(t("name"))}" '
        f'required maxlength=80><input name="club" placeholder="{esc(t("club"))}" maxlength=80>'
        f'<input name="rating_id" placeholder="{esc(t("rating_id"))}" maxlength=40>'
        f"<button>{esc(t('add_player'))}</button></form>"
        f'<form class="row" method="post" action="/seating"><button>{esc(t("make_seating"))}</button></form>'
    )
    send = (
        "".join(
            f'<form class="inline" method="post" action="/rounds/{r}/send"><button>'
            f"{esc(t('send_round', n=r))}</button></form> "
            for r in range(1, rounds + 1)
        )
        if seated
        else ""
    )
    options = "".join(f"<option>{esc(g['_uid'])}</option>" for g in games)
    fix = (
        (
            f'<form class="row" method="post" action="/corrections"><select name="game_id">{options}</select>'
            f'<select name="winner"><option value=""></option>'
            f'<option value="red">{esc(t("winner_red"))}</option>'
            f'<option value="black">{esc(t("winner_black"))}</option></select>'
            f'<input name="extra" placeholder="{esc(t("extra"))}: 3=0.5,7=-0.25" size=18>'
            f"<button>{esc(t('save'))}</button></form>"
        )
        if games
        else ""
    )
    return f'<section class="box controls"><h2>{esc(t("sign_in"))}</h2>{number}{add}{send}{fix}</section>'


def page(t: Words, name: str, rules: str, body_live: str, body_controls: str, signed_in: bool) -> str:
    head = f"<h1>{esc(name)}</h1><p><small>{esc(t('rules'))}: {esc(rules)}</small></p>"
    return layout(
        t, name, head + body_controls + f'<div id="live">{body_live}</div>', signed_in, refresh=True
    )


def login(t: Words, wrong: bool) -> str:
    note = f"<p class='tag nom'>{esc(t('wrong_key'))}</p>" if wrong else ""
    body = (
        f'<section class="box"><h2>{esc(t("key"))}</h2>{note}<form class="row" method="post" '
        f'action="/login?lang={t.lang}"><input name="key" type="password" autocomplete="off" required>'
        f"<button>{esc(t('enter'))}</button></form></section>"
    )
    return layout(t, t("sign_in"), body, False)


def sheet(t: Words, name: str, lines: Sequence[Line]) -> str:
    """The printable standings."""
    body = f'<h1>{esc(name)}</h1><section class="box">{standings_table(t, lines)}</section>'
    return layout(t, f"{name}: {t('standings')}", body, False)
