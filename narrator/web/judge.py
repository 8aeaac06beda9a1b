"""Judge mode: a tournament judge enters the night on a signed-in page of their own.

A game set up with "a judge sits at this table" (GameSetup.judge, kept in the journal's
header and the protocol) takes its night choices from this page: one screen per night
step, large seat buttons, what was entered, the roles, and a check's answer while its
window runs. The players show their choices to the judge; the box still speaks every
cue, calls every number at the same beat and runs every window for its whole length,
whatever the judge enters and whenever (DESIGN.md, "Secrets never leak"): an entry is
an action of the step like a keypad's Enter, journalled, from the source "judge", and
it ends nothing early. Night zero: the judge taps the seats that hold each card as the
box calls its meeting (or, with the phone's deal, the box knows them already).

Only here, to a signed-in page of a game with a judge, are roles and night entries
served: the game page, /api/state and the live stream stay the public view for everyone
(signed in, they also show the cue being said, whose words name roles but never a
seat's), and in a game without a judge this page shows no role to anyone.
"""

from __future__ import annotations

import hashlib
import logging
from importlib import resources
from typing import Any

from aiohttp import web

from narrator.daemon import Box
from narrator.engine.actions import Action, Choose, Entry
from narrator.errors import RuleError
from narrator.evening.judging import JUDGE
from narrator.web.judge_view import Answer, JudgeView, judge_view
from narrator.web.judge_view import Entry as StepEntry
from narrator.web.pages import esc, seat_label
from narrator.web.refusals import answer, rule_answer
from narrator.web.server import WebServer
from narrator.web.text import Text

log = logging.getLogger("narrator.web")

_FILES = {"judge.js": "text/javascript", "judge.css": "text/css"}
_NO_STORE = {"Cache-Control": "no-store"}


# --- the page's HTML -----------------------------------------------------------------------

def roles_of(t: Text, roles: Any) -> str:
    return ", ".join(t.role(r) for r in roles)


def step_title(t: Text, entry: StepEntry) -> str:
    named = t(f"judge_step_{entry.ability}", roles=roles_of(t, entry.roles))
    return named if not named.startswith("judge_step_") else t("judge_step", roles=roles_of(t, entry.roles))


def answer_words(t: Text, found: Answer) -> tuple[str, str]:
    """The question and its answer in words: ("Seat 7 is black?", "Yes"), or a card."""
    if found.answer in ("yes", "no"):
        what = " / ".join(t.role(m) if m in t.table.get("roles", {}) else t(f"judge_team_{m}")
                          for m in found.match)
        return t("judge_question", seat=found.target, what=what), t(f"judge_{found.answer}")
    return t("judge_card_of", seat=found.target), t.role(found.answer)


def fragment(t: Text, view: JudgeView | None, on_game: bool) -> str:
    """The live part of the judge's page (swapped in by judge.js when it changes)."""
    if view is None:
        words = "judge_off" if on_game else "judge_no_game"
        return f'<section id="judge" class="box"><p>{esc(t(words))}</p></section>'
    parts = [f'<section id="judge" data-game="{esc(view.game_id)}">']
    if view.over:
        parts.append(f'<section class="status"><h1>{esc(t("judge_over"))}</h1>'
                     f'<a class="button" href="/game">{esc(t("nav_game"))}</a></section>')
    elif view.phase == "day":
        parts.append(f'<section class="status"><h1>{esc(t("day_n", n=view.number))}</h1>'
                     f'<p>{esc(t("judge_day"))}</p></section>')
    else:
        parts.append(_night(t, view))
    parts.append(_roles(t, view))
    parts.append(_log(t, view))
    parts.append("</section>")
    return "".join(parts)


def _night(t: Text, view: JudgeView) -> str:
    out = [f'<section class="status night"><h1>{esc(t("night_n", n=view.number))}</h1>']
    if view.paused:
        out.append(f'<p class="badge paused">{esc(t("paused"))}</p>')
    entry = view.entry
    if entry is None:
        out.append(f'<p class="moment">{esc(t("judge_between"))}</p></section>')
        return "".join(out)
    out[0] = out[0].replace('class="status night"', f'class="status night" data-step="{esc(entry.step)}"')
    out.append(f'<h2 class="jstep">{esc(step_title(t, entry))}</h2>')
    if view.answer is not None:
        question, said = answer_words(t, view.answer)
        kind = view.answer.answer if view.answer.answer in ("yes", "no") else "card"
        out.append(f'<div class="janswer {kind}" role="status"><p>{esc(question)}</p>'
                   f'<p class="big">{esc(said)}</p></div>')
    elif entry.meeting and entry.known:
        out.append(f'<p class="moment">{esc(t("judge_known"))}</p>')
    elif not entry.acts:
        out.append(f'<p class="moment">{esc(t("judge_nobody_acts"))}</p>')
    elif entry.entered is not None:
        if entry.meeting and len(entry.entered) != 1:
            said = t("judge_entered_seats", seats=", ".join(map(str, entry.entered)))
        elif entry.meeting or entry.entered[0]:
            said = t("judge_entered", seat=entry.entered[0])
        else:
            said = t("judge_entered_nobody")
        out.append(f'<p class="jentered">{esc(said)}</p>')
    elif entry.open:
        out.append(_buttons(t, view, entry))
    else:
        out.append(f'<p class="moment">{esc(t("judge_step_closed"))}</p>')
    out.append("</section>")
    return "".join(out)


def _buttons(t: Text, view: JudgeView, entry: StepEntry) -> str:
    hint = t("judge_hint_meet") if entry.meeting else t("judge_hint_choose")
    seats = []
    for s in view.seats:
        # A meeting learns the cards of the living; a choice may fall on anyone the rules
        # allow (the engine refuses what they don't, and says why).
        off = " disabled" if entry.meeting and not s["alive"] else ""
        gone = "" if s["alive"] else " out"
        seats.append(f'<button type="button" class="jseat{gone}" data-seat="{s["seat"]}"{off}>'
                     f'<b>{s["seat"]}</b><span>{esc(s["name"])}</span></button>')
    nobody = (f'<button type="button" class="jnobody" data-seat="0">{esc(t("judge_nobody"))}</button>'
              if entry.nobody else "")
    return (f'<form class="jentry" data-step="{esc(entry.step)}" data-night="{entry.night}" '
            f'data-meeting="{int(entry.meeting)}" data-refused="{esc(t("judge_failed"))}">'
            f'<p class="hint">{esc(hint)}</p>'
            f'<div class="jseats">{"".join(seats)}</div>{nobody}'
            f'<button type="submit" class="jconfirm" disabled>{esc(t("judge_confirm"))}</button>'
            f'<p class="jresult" aria-live="polite"></p></form>')


def _roles(t: Text, view: JudgeView) -> str:
    items = []
    for s in view.seats:
        # Night zero narrows a seat's card down call by call; "?" until it says anything.
        narrowed = s["possible"] if len(s["possible"]) < len(view.deck) else []
        role = t.role(s["role"]) if s["role"] else " / ".join(t.role(r) for r in narrowed) or "?"
        gone = "" if s["alive"] else f' <em>{esc(t("judge_out"))}</em>'
        items.append(f'<li class="jrole" data-seat="{s["seat"]}" data-role="{esc(s["role"])}" '
                     f'data-team="{esc(s["team"])}">'
                     f'<span>{esc(seat_label(t, s["seat"], s["name"]))}</span>'
                     f'<b>{esc(role)}</b>{gone}</li>')
    return (f'<section class="box"><h2>{esc(t("judge_roles"))}</h2>'
            f'<ol class="jroles">{"".join(items)}</ol></section>')


def _log(t: Text, view: JudgeView) -> str:
    if not view.log:
        return ""
    lines = []
    for item in reversed(view.log):
        who = roles_of(t, item["roles"])
        if item["kind"] == "check":
            found = Answer(item["step"], tuple(item["roles"]), item["target"], item["answer"],
                           tuple(item["match"]))
            question, said = answer_words(t, found)
            line = t("judge_log_check", night=item["night"], roles=who, question=question, answer=said)
        else:
            chosen = ", ".join(str(x) if x else t("judge_nobody") for x in item["targets"])
            line = t("judge_log_choice", night=item["night"], roles=who,
                     targets=chosen or t("judge_nothing_entered"))
        lines.append(f"<li>{esc(line)}</li>")
    return (f'<section class="box"><h2>{esc(t("judge_log"))}</h2>'
            f'<ul class="jlog">{"".join(lines)}</ul></section>')


def page(state: dict[str, Any]) -> str:
    """The whole page: the live part as it is now, with its key (judge.js swaps in a
    newer one only when the key changes, so a seat chosen and not yet confirmed stays)."""
    return (f'<link rel="stylesheet" href="/judge/judge.css">'
            f'<div class="jwrap" data-key="{esc(state["key"])}">{state["html"]}</div>'
            '<script src="/judge/judge.js" defer></script>')


# --- taking an entry -----------------------------------------------------------------------

class Refused(Exception):
    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code


def actions_for(view: JudgeView | None, data: Any) -> list[Action]:
    """The actions a judge's entry makes, checked against the step open now: a meeting's
    seats (one keypad-like Entry each), or one target (a Choose for the role as a whole,
    None: nobody). Raises Refused with the reason otherwise."""
    if view is None:
        raise Refused("judge_off", "no judge sits at this table")
    if not isinstance(data, dict):
        raise Refused("bad_request", "expected a JSON object")
    entry = view.entry
    if entry is None or not entry.open or data.get("step") != entry.step \
            or data.get("night") != entry.night:
        raise Refused("judge_step_over", "that night step is not open now")
    if entry.entered is not None:
        raise Refused("judge_entered_already", "this step has its entry")
    seats = view.seats
    if entry.meeting:
        chosen = data.get("seats")
        if not isinstance(chosen, list) or not chosen or len(chosen) > len(seats) or not all(
                _whole(s) and 1 <= s <= len(seats) for s in chosen) or len(set(chosen)) != len(chosen):
            raise Refused("bad_request", "seats: a list of the seats that hold the card")
        return [Entry(s) for s in sorted(chosen)]
    target = data.get("target")
    if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target <= len(seats):
        raise Refused("bad_request", "target: a seat, or 0 for nobody")
    return [Choose(None, target or None)]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def take(box: Box, actions: list[Action]) -> None:
    """The entry through the engine, journalled like a keypad's (RuleError: refused; a
    meeting's seats are taken until one is refused, as taps would be)."""
    for action in actions:
        box.apply_now(action, JUDGE)


# --- the routes ----------------------------------------------------------------------------

def routes(server: WebServer, app: web.Application) -> None:
    files = {name: (resources.files("narrator.web") / "static" / name).read_bytes() for name in _FILES}

    def current() -> tuple[Box | None, JudgeView | None]:
        box = server.host.box
        return box, (judge_view(box) if box is not None else None)

    def state(t: Text) -> dict[str, Any]:
        box, view = current()
        html = fragment(t, view, box is not None)
        return {"html": html, "key": hashlib.sha256(html.encode()).hexdigest()[:16]}

    async def judge_page(request: web.Request) -> web.StreamResponse:
        if not server.reads_roles(request):
            raise web.HTTPSeeOther("/login?next=/judge")
        t = server.text()
        return server.html(t("judge_title"), page(state(t)), "judge", request)

    async def api_get(request: web.Request) -> web.StreamResponse:
        t = server.text()
        if not server.reads_roles(request):
            return answer(401, t, "sign_in_first", "enter the PIN first")
        return web.json_response(state(t), headers=_NO_STORE)

    async def api_post(request: web.Request) -> web.StreamResponse:
        t = server.text()
        if not server.reads_roles(request):
            return answer(401, t, "sign_in_first", "enter the PIN first")
        try:
            data = await request.json()
        except (ValueError, RecursionError):
            return answer(400, t, "bad_request", "the body is not JSON")
        box, view = current()
        try:
            found = actions_for(view, data)
        except Refused as exc:
            return answer(400 if exc.code == "bad_request" else 409, t, exc.code, str(exc))
        assert box is not None
        try:
            take(box, found)
        except RuleError as exc:
            # Said to the judge only (this page knows the night anyway); DEBUG, never INFO:
            # a refusal at night can tell who acts.
            log.debug("the judge's entry is refused: %s", exc)
            return rule_answer(409, t, exc)
        except OSError as exc:
            log.error("cannot write the journal (%s): the judge's entry is refused", exc)
            return answer(503, t, "journal_failed", "the box cannot write its journal; nothing changed")
        return web.json_response(state(t), headers=_NO_STORE)

    async def static(request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in files:
            raise web.HTTPNotFound()
        return web.Response(body=files[name], content_type=_FILES[name], charset="utf-8",
                            headers={"Cache-Control": "no-cache"})

    app.router.add_get("/judge", judge_page)
    app.router.add_get("/api/judge", api_get)
    app.router.add_post("/api/judge", api_post)
    app.router.add_get("/judge/{name}", static)
