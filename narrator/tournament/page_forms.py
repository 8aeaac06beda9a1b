"""The organiser's controls on the collector's page (signed in with the tournament key
only): every field labelled, in the page's language; a game is named by its round, table
and result, never by its raw id."""

from __future__ import annotations

from narrator.tournament.corrections import KINDS, decisions, status
from narrator.tournament.language import Words
from narrator.tournament.page import View, esc, game_title


def _label(text: str, field: str) -> str:
    return f"<label>{esc(text)}{field}</label>"


def _boxes(t: Words, view: View) -> str:
    """Each box's table (a spare has none): one line a box, its name the field's label."""
    if not view.boxes:
        return ""
    rows = []
    for b in view.boxes:
        options = f"<option value=''>{esc(t('spare_option'))}</option>" + "".join(
            f"<option value='{n}'{' selected' if n == b.table else ''}>{esc(t('table_n', n=n))}</option>"
            for n in range(1, view.tournament.table_count(len(view.players)) + 1)
        )
        rows.append(
            '<form class="row" method="post" action="/boxes">'
            f"<input type='hidden' name='name' value='{esc(b.name)}'>"
            + _label(f"{t('box_label')}: {b.name}", f"<select name='table'>{options}</select>")
            + f"<button class='small'>{esc(t('assign'))}</button></form>"
        )
    return f"<h3>{esc(t('boxes_title'))}</h3>{''.join(rows)}"


def _players(t: Words, view: View) -> str:
    if view.seating:
        return ""
    return (
        f"<h3>{esc(t('players'))} ({len(view.players)})</h3>"
        '<form class="row" method="post" action="/players">'
        + _label(t("player_name"), "<input name='name' required maxlength=80>")
        + _label(t("player_club"), "<input name='club' maxlength=80>")
        + _label(t("player_rating"), "<input name='rating_id' maxlength=40>")
        + f"<button>{esc(t('add_player'))}</button></form>"
        f'<form class="row" method="post" action="/seating"><button>{esc(t("make_seating"))}</button></form>'
    )


def _field(t: Words, view: View) -> str:
    """Between rounds: a late arrival, a withdrawal (the rounds not sent seated again), a
    substitute in one seat."""
    if not view.seating or len(view.stage_rounds) > 1:
        return ""
    names = "".join(f"<option value='{esc(p.name)}'>" for p in view.players)
    return (
        f"<h3>{esc(t('late_title'))}</h3>"
        '<form class="row" method="post" action="/players/late">'
        + _label(t("player_name"), "<input name='name' required maxlength=80>")
        + _label(t("player_club"), "<input name='club' maxlength=80>")
        + f"<button class='small'>{esc(t('late_arrival'))}</button></form>"
        '<form class="row" method="post" action="/players/withdraw">'
        + _label(t("player_name"), "<input name='name' required maxlength=80 list='field-names'>")
        + f"<datalist id='field-names'>{names}</datalist>"
        + f"<button class='small'>{esc(t('withdraw'))}</button></form>"
        f"<h3>{esc(t('substitute_title'))}</h3>"
        '<form class="row" method="post" action="/substitute">'
        + _label(
            t("round_label"), f"<input name='round' type='number' min=1 max={max(view.seating)} required>"
        )
        + _label(t("table_label"), "<input name='table' type='number' min=1 required>")
        + _label(
            t("seat_label"), f"<input name='seat' type='number' min=1 max={view.tournament.seats} required>"
        )
        + _label(t("player_name"), "<input name='name' required maxlength=80 list='field-names'>")
        + f"<button class='small'>{esc(t('substitute'))}</button></form>"
    )


def _send(t: Words, view: View) -> str:
    if not view.seating:
        return ""
    buttons = "".join(
        f'<form class="inline" method="post" action="/rounds/{r}/send"><button class="small">'
        f"{esc(t('send_round', n=r))}</button></form> "
        for r in sorted(view.seating)
    )
    stage = view.next_stage()
    if stage:
        buttons += (
            '<form class="inline" method="post" action="/stages/next"><button class="small">'
            f"{esc(t('seat_stage', stage=t(f'stage_{stage}')))}</button></form>"
        )
    return f"<h3>{esc(t('send_title'))}</h3><p>{buttons}</p>"


def _correct(t: Words, view: View) -> str:
    if not view.games:
        return ""
    games = "".join(
        f"<option value='{esc(g.uid)}'>{esc(game_title(t, g, view.results.get(g.uid)))}</option>"
        for g in view.games
    )
    kinds = "".join(f"<option value='{k}'>{esc(t('kind_' + k))}</option>" for k in KINDS)
    return (
        f"<h3>{esc(t('correct'))}</h3>"
        '<form class="row" method="post" action="/corrections">'
        + _label(t("game_label"), f"<select name='game_id' required>{games}</select>")
        + _label(t("kind_label"), f"<select name='kind' required>{kinds}</select>")
        + _label(t("seat_label"), f"<input name='seat' type='number' min=1 max={view.tournament.seats}>")
        + _label(t("value_label"), "<input name='value' maxlength=20>")
        + _label(t("who_label"), "<input name='who' required maxlength=60 autocomplete='name'>")
        + _label(t("why_label"), "<input name='why' required maxlength=300>")
        + f"<button>{esc(t('save'))}</button></form>"
    )


def _pending(t: Words, view: View) -> str:
    rows = []
    for g in view.games:
        decided = decisions(g.corrections)
        for c in g.corrections:
            if status(c, decided) != "pending":
                continue
            extra = c.change.value if isinstance(c.change.value, dict) else {}
            what = ", ".join(f"{k}: {float(v):+g}" for k, v in extra.items()) or "0"
            rows.append(
                f"<p>{esc(t('pending_item', table=g.table, round=g.round, extra=what))}</p>"
                f'<form class="row" method="post" action="/corrections/{c.id}/decide">'
                + _label(t("who_label"), "<input name='who' required maxlength=60 autocomplete='name'>")
                + f"<button name='yes' value='1'>{esc(t('approve'))}</button>"
                f"<button name='yes' value='0'>{esc(t('decline'))}</button></form>"
            )
    if not rows:
        return ""
    return f"<h3>{esc(t('pending_title'))}</h3>{''.join(rows)}"


def controls(t: Words, view: View) -> str:
    return (
        f'<section class="box controls"><h2>{esc(t("controls"))}</h2>'
        + _pending(t, view)
        + _send(t, view)
        + _field(t, view)
        + _correct(t, view)
        + _boxes(t, view)
        + _players(t, view)
        + "</section>"
    )
