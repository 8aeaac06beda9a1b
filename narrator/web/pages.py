"""The organiser's pages as HTML: plain server-rendered markup, one small script.

Every value that comes from outside (names, tournament fields, reasons) goes through
`esc`. The live part of the game page is `live_fragment(view)`: the page shows it at
first, and the box pushes a fresh copy whenever the view changes, so there is one
renderer and the script only swaps it in and counts the timer down.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from narrator.notices import Notices
from narrator.web.text import Text

PROTOCOL_FORMATS = {"html": "html", "json": "json", "polemica": "polemica.json"}


def esc(value: object) -> str:
    return escape(str(value), quote=True)


def layout(t: Text, title: str, body: str, *, page: str, signed_in: bool,
           refresh: int = 0, judge: bool = False) -> str:
    nav = [("/game", t("nav_game"), "game"), ("/setup", t("nav_setup"), "setup"),
           ("/archive", t("nav_archive"), "archive")]
    if signed_in and (judge or page == "judge"):  # a game with a judge (narrator.web.judge)
        nav.append(("/judge", t("nav_judge"), "judge"))
    links = "".join(f'<a href="{href}"{" aria-current=page" if key == page else ""}>{esc(label)}</a>'
                    for href, label, key in nav)
    if signed_in:
        auth = (f'<form method="post" action="/logout" class="inline"><button class="link">'
                f'{esc(t("sign_out"))}</button></form>')
        # Below the page, not in the header: a phone's header has room for one button.
        body += f'<p class="invite"><a href="/login/invite">{esc(t("invite"))}</a></p>'
    else:
        auth = f'<a href="/login?next=/{page}" class="pin">{esc(t("sign_in"))}</a>'
    return (
        f'<!doctype html><html lang="{esc(t.lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{esc(title)}</title><link rel="stylesheet" href="/static/style.css">'
        + (f'<meta http-equiv="refresh" content="{int(refresh)}">' if refresh else "") +
        f'<link rel="icon" href="data:,"></head><body data-page="{esc(page)}">'
        f'<header><nav>{links}</nav>{auth}</header><main>{body}</main>'
        '<script src="/static/app.js" defer></script></body></html>'
    )


def timer_text(seconds: float) -> str:
    whole = max(0, int(seconds + 0.999))
    return f"{whole // 60}:{whole % 60:02d}"


def seat_label(t: Text, seat: int, name: str) -> str:
    return f"{seat} · {name}" if name else t("seat_n", seat=seat)


def live_fragment(t: Text, view: dict[str, Any]) -> str:
    """The live part of the game page, from the public view only."""
    game = view["game"]
    if game["over"]:
        return _over(t, view)
    names = {s["seat"]: s["name"] for s in view["seats"]}
    phase, number = game["phase"], game["day"]
    heading = t("night_n", n=number) if phase == "night" else t("day_n", n=number)
    paused = "1" if game["paused"] else "0"
    parts = [f'<section class="status {esc(phase)}" data-paused="{paused}"><h1>{esc(heading)}</h1>',
             _setup_line(t, game)]
    if game["paused"]:
        parts.append(f'<p class="badge paused">{esc(t("paused"))}</p>')
    if view.get("fault"):
        # A technical pause: the box says it and blinks the status LED; here, why. After
        # GO_ON_SECONDS the game goes on unsaved: no longer a pause, and not "nothing lost".
        badge, words = ("fault_unsaved_badge", "fault_unsaved") if view.get("unsaved") \
            else ("fault", "fault_journal")
        parts.append(f'<p class="fault" role="alert"><span class="badge fault">'
                     f'{esc(t(badge))}</span> {esc(t(words, reason=view["fault"]))}</p>')
    cache = view.get("voice_cache")
    if cache:
        ready = t("voice_cache", done=cache["done"], total=cache["total"])
        parts.append(f'<p class="moment">{esc(ready)}</p>')
    if game.get("redo_night_zero"):
        parts.append(f'<p class="moment" role="alert">{esc(t("redo_night_zero"))}</p>')
    if phase == "day":
        moment = t.moment(view["moment"])
        speaker = view["speaker"]
        ballot = view["ballot"]
        line = moment
        if speaker:
            line = f"{moment}: {seat_label(t, speaker, names.get(speaker, ''))}"
        elif ballot and ballot["current"]:
            line = f"{moment}: {seat_label(t, ballot['current'], names.get(ballot['current'], ''))}"
        if line:
            parts.append(f'<p class="moment">{esc(line)}</p>')
        hands = _hands_line(t, ballot) if view.get("counting") or _tap(view) == "hand" else ""
        parts.append(hands)
        if view["timer_left"] is not None:
            running = "1" if view["timer_running"] else "0"
            parts.append(f'<p class="timer" data-left="{view["timer_left"]}" data-running="{running}">'
                         f'{timer_text(view["timer_left"])}</p>')
    if view["said"]:
        parts.append(f'<p class="said">{esc(view["said"])}</p>')
    parts.append("</section>")
    parts.append(_seats(t, view, roles=False, tap=_tap(view) if phase == "day" else "",
                        hands=_hands(view["ballot"]) if phase == "day" else ()))
    if phase == "day":
        parts.append(_nominations(t, view, names))
        parts.append(_ballot(t, view))
    parts.append(_eliminations(t, view, names))
    return "".join(parts)


def _setup_line(t: Text, game: dict[str, Any]) -> str:
    """What was chosen for this game: how the players give their inputs (the cues say it),
    a deal by phone. Not the rule set's name: "Sports mafia" names a role, and the page
    shows no role word before the end (tests/web/test_browser.py)."""
    items = []
    if game.get("judge"):  # the night goes through the judge: the keypad's keys are not taken
        items.append(t("input_judge_night"))
    if game.get("input"):
        said = t("input_day") if game.get("judge") else t("input")
        items.append(f'{said}: {t("input_" + str(game["input"]))}')
    if game.get("deal") == "phone":
        items.append(t("deal_phone"))
    return f'<p class="setup-line">{esc(" · ".join(items))}</p>' if items else ""


# What a tap on a seat tile does at each moment of the day (the organiser's page; the
# keypad's `N Enter` at the same moment): nominate (sport's speech, classic's accusation,
# the boxed proposal), second an accusation, or a hand up or down in a ballot.
TAP_BY_MOMENT = {"speech": "nominate", "silent_turn": "nominate", "accusations": "nominate",
                 "proposals": "nominate", "second": "second", "ballot": "hand",
                 "lift_ballot": "hand", "all_or_none": "hand"}

# A mark beside a role at the end, besides its colour: the teams differ in words and shape.
TEAM_MARKS = {"red": "\u2665", "black": "\u2660", "maniac": "\u2731"}


LONG_NAME = 12  # characters: a longer name gets a row of its own in its tile


def _tap(view: dict[str, Any]) -> str:
    return TAP_BY_MOMENT.get(str(view.get("moment") or ""), "")


def _hands(ballot: dict[str, Any] | None) -> tuple[int, ...]:
    """The hands up for the candidate being voted on now (the lift: for lifting)."""
    if not ballot:
        return ()
    key = "lift" if ballot["kind"] == "lift" else str(ballot["current"])
    return tuple(ballot["votes"].get(key, ()))


def _hands_line(t: Text, ballot: dict[str, Any] | None) -> str:
    if not ballot:
        return ""
    count = len(_hands(ballot))
    words = t("hands_lift", count=count) if ballot["kind"] == "lift" or ballot["current"] is None \
        else t("hands_for", seat=ballot["current"], count=count)
    return f'<p class="count" data-count="{count}">{esc(words)}</p>'


def _seats(t: Text, view: dict[str, Any], roles: bool, tap: str = "",
           hands: Sequence[int] = ()) -> str:
    items = []
    for s in view["seats"]:
        classes = ["seat", "alive" if s["alive"] else "out"]
        if s["seat"] == view.get("speaker"):
            classes.append("speaking")
        if s["nominated"]:
            classes.append("nominated")
        fouls = s["fouls"]
        marks = "".join('<i class="on"></i>' if i < fouls else "<i></i>" for i in range(4))
        tags = []
        if s["nominated"]:
            tags.append(f'<b class="tag nom">{esc(t("nominated"))}</b>')
        if s["seat"] in hands:
            classes.append("hand")
            tags.append(f'<b class="tag hand">\u2191 {esc(t("hand_up"))}</b>')
        if not s["alive"]:
            tags.append(f'<b class="tag out">{esc(t("out"))}</b>')
        role = ""
        if roles and "role" in s:
            team = str(s.get("team") or "")
            if team:
                classes.append(f"team-{team}")
            side = (f' <small class="team">{TEAM_MARKS.get(team, "")} {esc(t("team_" + team))}'
                    "</small>") if team in TEAM_MARKS else ""
            role = f'<span class="role">{esc(t.role(s["role"]))}{side}</span>'
        name = s["name"] or t("seat_n", seat=s["seat"])
        if len(name) > LONG_NAME:
            classes.append("longname")  # a row of its own in the tile: it wraps, whole
        items.append(
            f'<li class="{" ".join(classes)}" data-seat="{s["seat"]}"><span class="num">{s["seat"]}</span>'
            f'<span class="name">{esc(name)}</span>{role}{"".join(tags)}'
            f'<span class="fouls" title="{esc(t("fouls"))}: {fouls}">{marks}</span></li>')
    attr = f' data-tap="{esc(tap)}"' if tap else ""
    return f'<ol class="seats"{attr}>{"".join(items)}</ol>'


def _who(t: Text, seat: int, names: dict[int, str]) -> str:
    return esc(seat_label(t, seat, names.get(seat, "")))


def _nominations(t: Text, view: dict[str, Any], names: dict[int, str]) -> str:
    noms = view["nominations"]
    if not noms:
        return ""
    items = "".join(f'<li>{_who(t, n["target"], names)} <small>{esc(t("by_seat", seat=n["by"]))}'
                    "</small></li>" for n in noms if n["target"])
    return f'<section class="box"><h2>{esc(t("nominations"))}</h2><ul class="plain">{items}</ul></section>'


def _ballot(t: Text, view: dict[str, Any]) -> str:
    b = view["ballot"]
    if not b:
        return ""
    rows = []
    keys = [str(c) for c in b["candidates"]] + [k for k in b["votes"] if k not in
                                                 {str(c) for c in b["candidates"]}]
    for key in keys:
        voters = b["votes"].get(key, [])
        label = t("lift") if key == "lift" else t("seat_n", seat=key)
        current = ' class="current"' if b["current"] is not None and str(b["current"]) == key else ""
        who = ", ".join(str(v) for v in voters)
        rows.append(f"<tr{current}><th>{esc(label)}</th><td>{len(voters)}</td><td>{esc(who)}</td></tr>")
    title = t("ballot_lift") if b["kind"] == "lift" else t("ballot_round", n=b["round"])
    return (f'<section class="box"><h2>{esc(title)}</h2><table class="ballot">'
            f'<tr><th></th><th>{esc(t("votes"))}</th><th>{esc(t("voters"))}</th></tr>'
            f'{"".join(rows)}</table></section>')


def _eliminations(t: Text, view: dict[str, Any], names: dict[int, str]) -> str:
    elims = view["eliminations"]
    if not elims:
        return ""
    items = []
    for e in elims:
        when = t("night_n", n=e["number"]) if e["phase"] == "night" else t("day_n", n=e["number"])
        how = t.how(e["how"]) if e["how"] not in ("night", "day") else ""
        detail = f"{when}, {how}" if how else when
        items.append(f'<li>{_who(t, e["seat"], names)} <small>{esc(detail)}</small></li>')
    return f'<section class="box"><h2>{esc(t("eliminations"))}</h2><ol>{"".join(items)}</ol></section>'


def protocol_links(t: Text, game_id: str, formats: Iterable[str]) -> str:
    have = set(formats)
    links = [f'<a href="/protocols/{esc(game_id)}.{ext}" class="button small" target="_blank">'
             f'{esc(t("protocol_" + fmt))}</a>' for fmt, ext in PROTOCOL_FORMATS.items() if fmt in have]
    return f'<span class="links">{"".join(links)}</span>'


def _over(t: Text, view: dict[str, Any]) -> str:
    game = view["game"]
    names = {s["seat"]: s["name"] for s in view["seats"]}
    reason = t.reason(str(game["reason"])) if game.get("reason") else ""
    winner_class = esc(game["winner"] or "none")
    parts = [f'<section class="status over {winner_class}"><h1>{esc(t.winner(game["winner"]))}</h1>',
             f'<p class="moment">{esc(reason)}</p></section>' if reason else "</section>",
             _seats(t, view, roles=True), _eliminations(t, view, names)]
    if game.get("protocols"):
        parts.append(f'<section class="box"><h2>{esc(t("protocol"))}</h2>'
                     f'{protocol_links(t, game["id"], game["protocols"])}</section>')
    return "".join(parts)


def no_game(t: Text) -> str:
    return (f'<section class="status"><h1>{esc(t("no_game"))}</h1>'
            f'<p><a class="button" href="/setup">{esc(t("nav_setup"))}</a></p></section>')


def between_games(t: Text) -> str:
    """No game on show while the box waits for the next one (after a restart, or a held
    game set aside); the controls below offer it (between_controls)."""
    return (f'<section class="status"><h1>{esc(t("between_games"))}</h1>'
            f'<p class="moment">{esc(t("between_games_next"))}</p></section>')


# The page's words for the reasons a box can't play a set-up (narrator.evening.Problem
# codes); another code shows the evening's own (English) sentence.
PROBLEM_WORDS = {"answer_display": "setup_no_answer_display",
                 "input_no_pads": "setup_input_no_pads", "input_no_keypad": "setup_input_no_keypad"}


def held(t: Text, game_id: str, code: str, reason: str) -> str:
    """The unfinished game found on start that this box can't play now, and why."""
    why = t(PROBLEM_WORDS[code]) if code in PROBLEM_WORDS else reason
    return (f'<section class="status held" role="alert"><h1>{esc(t("held_title"))}</h1>'
            f'<p class="fault">{esc(t("held_game", game=game_id))} {esc(why)}</p>'
            f'<p class="moment">{esc(t("held_next"))}</p></section>')


def held_controls(t: Text) -> str:
    """The PIN holder's one correction of a held game: abandon it (confirmed)."""
    return _evening_controls(t, f'<button type="button" data-kind="abandon" data-evening="abandon" '
                                f'data-confirm="confirm_abandon">{esc(t("abandon"))}</button>')


def first_game(t: Text) -> str:
    """No game yet on a box that has not played one: set one up, or the usual game."""
    return (f'<section class="status"><h1>{esc(t("first_game"))}</h1>'
            f'<p class="moment">{esc(t("first_game_next"))}</p></section>')


def between_controls(t: Text, after_a_game: bool = True) -> str:
    """Between games with no game on show (the box restarted after one ended): the next
    game with the same names, or the set-up; before the first game, the usual game (the
    box's settings: the keypad's Enter) or the set-up."""
    words = t("next_game") if after_a_game else t("start_usual")
    return _evening_controls(t, f'<button type="button" data-kind="next_game" '
                                f'data-evening="next-game">{esc(words)}</button>')


def _evening_controls(t: Text, button: str) -> str:
    return (f'<section id="controls" class="box controls"><div class="row">{button}'
            f'<a class="button" href="/setup">{esc(t("nav_setup"))}</a></div>'
            '<div id="confirm" class="confirm" hidden><p class="question"></p>'
            f'<button type="button" class="yes">{esc(t("yes"))}</button>'
            f'<button type="button" class="no">{esc(t("cancel"))}</button></div>'
            '<p id="result" class="result" role="status" aria-live="polite"></p>'
            '<script type="application/json" id="words">'
            f'{_json_words(t, ("confirm_abandon", "done", "refused"))}</script></section>')


def box_notes(t: Text, notices: Notices | None) -> str:
    """The box's own notices (narrator.notices: the card, the record), a line each."""
    if notices is None:
        return ""
    return "".join(f'<p class="fault" role="alert">{esc(t("notice_" + n.word, **n.params))}</p>'
                   for n in notices.items.values())


def voice_off(t: Text, reason: str, lang: str) -> str:
    """Voice commands are off (no microphone, no model for the language, microphone lost);
    for a missing model, the command that installs one (`lang`: the language it lacks)."""
    from narrator.voice.voice_status import install_hint

    return f'<p class="voice-off" role="status">{esc(t(reason, command=install_hint(lang)))}</p>'


def game_page(t: Text, fragment: str, controls: str, game_id: str | None, over: bool) -> str:
    return (f'<div id="live" data-stream="/api/events" data-game="{esc(game_id or "")}" '
            f'data-over="{1 if over else 0}">{fragment}</div>{controls}')


def seat_buttons(seats: Sequence[dict[str, Any]]) -> str:
    return "".join(f'<button type="button" class="seatpick{"" if s["alive"] else " gone"}" '
                   f'data-seat="{s["seat"]}">{s["seat"]}</button>' for s in seats)


def sign_in_hint(t: Text) -> str:
    return (f'<section class="box hint"><a class="button" href="/login?next=/game">'
            f'{esc(t("sign_in_to_correct"))}</a></section>')


def controls(t: Text, view: dict[str, Any]) -> str:
    """The corrections: the PIN holder's buttons. Each sends one action to /api/action
    (or asks /api/undo what an undo would take back, and waits for a yes).

    The day's frequent actions sit in a bar fixed at the screen's foot, under the thumb:
    next speaker, pause or resume (one button: the one that applies), +30 s, a foul (the
    next seat tapped gets it), and the count while a ballot is counted. The seat tiles
    above do what the keypad's `N Enter` does at the moment (the script: TAP_BY_MOMENT)."""
    def b(kind: str, label: str, extra: str = "") -> str:
        return f'<button type="button" data-kind="{kind}"{extra}>{esc(t(label))}</button>'

    over = view["game"]["over"]
    parts = [f'<section id="controls" class="box controls"><h2>{esc(t("corrections"))}</h2>']
    if not over:
        paused = bool(view["game"]["paused"])
        parts += [
            f'<p class="hint" id="taphint">{esc(t("pick_seat"))}</p>',
            f'<div class="seatrow">{seat_buttons(view["seats"])}</div>',
            '<div class="row">', b("unfoul", "unfoul", " data-seat-needed"),
            b("remove", "disqualify", ' data-seat-needed data-confirm="confirm_remove"'),
            # 001: a severe night breach may give the other team the game.
            *([b("forfeit", "forfeit", ' data-seat-needed data-confirm="confirm_forfeit"')]
              if view["game"].get("forfeit") else []), "</div>",
            '<div class="row">',
            # The keypad's "/ Enter": ends a discussion (classic, boxed), starts the vote.
            b("start_voting", "start_voting"), b("withdraw", "withdraw"),
            # The keypad's `M . N Enter`: who nominates (accuses, proposes) whom.
            b("by", "by_other", ' data-mode="by"'),
            *([b("best_move", "best_move", ' data-mode="best"')] if view["game"].get("best_move")
              else []), "</div>",
            '<div class="row">', b("undo", "undo", " data-undo"),
            b("abandon", "abandon", ' data-evening="abandon" data-confirm="confirm_abandon"'),
            "</div>",
        ]
    parts += [
        '<div class="row">', b("next_game", "next_game", ' data-evening="next-game"'
                               + ("" if over else ' data-confirm="confirm_next"')), "</div>",
        '<div id="confirm" class="confirm" hidden><p class="question"></p>',
        f'<button type="button" class="yes">{esc(t("yes"))}</button>',
        f'<button type="button" class="no">{esc(t("cancel"))}</button></div>',
    ]
    if over:
        parts.append('<p id="result" class="result" role="status" aria-live="polite"></p>')
    else:
        toggle = ("resume", "resume") if paused else ("pause", "pause")
        parts += [
            f'<div class="daybar" role="toolbar" aria-label="{esc(t("day_actions"))}">',
            '<p id="result" class="result" role="status" aria-live="polite"></p>',
            '<div class="barrow">', b("end_speech", "next_speaker"),
            b(toggle[0], toggle[1], ' data-toggle="pause"'), b("add_time", "add_30"),
            # Always the next seat tapped: a seat picked in the corrections' row is not
            # fouled by it (the page says "the next seat tapped gets it").
            b("foul", "foul", ' data-mode="foul"'),
            b("count", "count", " hidden"), "</div></div>",
        ]
    parts += [
        '<script type="application/json" id="words">',
        _json_words(t, ("confirm_remove", "confirm_forfeit", "confirm_abandon", "confirm_next",
                        "confirm_undo", "pick_seat_first", "done", "refused", "pause", "resume",
                        "tap_nominate", "tap_second", "tap_hand", "tap_pick",
                        "tap_foul", "tap_by", "tap_by_then", "tap_best", "best_move",
                        "send_best", "confirm_self", "mode_off")),
        "</script></section>",
    ]
    return "".join(parts)


def _json_words(t: Text, keys: Sequence[str]) -> str:
    import json

    words = {k: t(k) for k in keys}
    # "</" can't appear inside the script element's text.
    return json.dumps(words, ensure_ascii=False).replace("</", "<\\/")
