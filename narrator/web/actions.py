"""Which actions the page may send, checking their bodies, and naming them for an undo.

The page is the organiser's: it takes the host's actions and the day's public ones. Night
choices come only from the pads and the keypad, so at night the page takes nothing but a
pause, a resume, a foul (given or taken back), a removal or a forfeit (all said aloud at
the table anyway) and refuses the rest with one fixed reason: a refusal that said more could tell
who acts at night.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from narrator.engine.actions import (
    ACTION_TYPES,
    Action,
    Foul,
    LowerHand,
    Nominate,
    Remove,
    Undo,
    Unfoul,
    Vote,
    WindowClosed,
    action_from_json,
    field_type,
    fits,
)
from narrator.engine.state import State
from narrator.errors import RuleError
from narrator.web.text import Text

PAGE_KINDS = ("foul", "unfoul", "remove", "pause", "resume", "add_time", "end_speech", "undo", "nominate",
              "forfeit",  # sport (001): a severe breach gives the other team the game
              "withdraw", "start_voting", "repeat", "vote", "second", "best_move",
              "lower_hand", "count",  # the organiser counts the hands on the page
              "verdict")  # the boxed judge's verdict: public, the judge shows the card
AT_NIGHT = ("foul", "unfoul", "remove", "forfeit", "pause", "resume")

class BadBody(ValueError):
    """A request body that is not an action the page may send (HTTP 400)."""

def parse_action(data: Any) -> Action:
    """An action from a request's JSON, with every field of the right type."""
    if not isinstance(data, dict):
        raise BadBody("expected a JSON object such as {\"kind\": \"foul\", \"seat\": 3}")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise BadBody(f"unknown action kind {kind!r}")
    if kind not in PAGE_KINDS:
        raise BadBody(f"the page does not send {kind!r} actions (known: {', '.join(PAGE_KINDS)})")
    cls = ACTION_TYPES[kind]
    known = {f.name for f in fields(cls)}
    extra = set(data) - set(known) - {"kind"}
    if extra:
        raise BadBody(f"{kind}: unknown fields {sorted(extra)}")
    for name in known:
        expected = field_type(cls, name)
        if name in data and not _fits(data[name], expected):
            raise BadBody(f"{kind}.{name}: expected {expected}, got {data[name]!r}")

    try:
        return action_from_json(data)
    except RuleError as exc:
        raise BadBody(str(exc)) from None

def _fits(value: Any, annotation: str) -> bool:
    """The engine's field check, and bounds a page has no reason to exceed (a request
    body is not trusted as a journal line is)."""
    def bounded(v: Any) -> bool:
        return not isinstance(v, int) or -1_000_000 < v < 1_000_000

    if isinstance(value, list):
        return len(value) <= 20 and all(bounded(v) for v in value) and fits(annotation, value)
    return bounded(value) and fits(annotation, value)

def refusal_at_night(state: State, action: Action) -> str | None:
    """The page's own refusal, before the engine: a fixed reason at night; an undo only of
    a day action (an undo into the night would replay its secret moments)."""
    if state.phase == "night" and action.kind not in AT_NIGHT:
        return "the page takes no actions at night but pause, resume, fouls, removal and forfeit"
    return None

def undo_refusal(state: State, before: State | None) -> str | None:
    if state.phase != "day" or before is None or before.phase != "day":
        return "only a day action can be undone from the page"
    return None

def describe(t: Text, action: Action | None, before: State | None) -> str:
    """What an undo will take back, in the page's language."""
    if action is None:
        return t("undo_unknown")
    if isinstance(action, Foul):
        return t("undo_foul", seat=action.seat)
    if isinstance(action, Unfoul):
        return t("undo_unfoul", seat=action.seat)
    if isinstance(action, Remove):
        return t("undo_remove", seat=action.seat)
    if isinstance(action, Nominate):
        return t("undo_nominate", seat=action.target)
    if isinstance(action, Vote):
        return t("undo_vote", seat=action.voter)
    if isinstance(action, LowerHand):
        return t("undo_lower_hand", seat=action.voter)
    if isinstance(action, Undo):
        return t("undo_unknown")
    if isinstance(action, WindowClosed) and before is not None and before.current:
        task = before.current.to_json()  # its name, then its fields: the first is its seat
        moment = t.moment(task[0]) or task[0]
        seat = task[1] if len(task) > 1 and isinstance(task[1], int) else 0
        if seat:
            return t("undo_time_up_seat", moment=moment, seat=seat)
        return t("undo_time_up", moment=moment)
    if action.kind in ("end_speech", "hold"):
        seat = before.speaker if before is not None else 0
        return t("undo_end_speech", seat=seat) if seat else t("undo_kind_end_speech")
    named = t(f"undo_kind_{action.kind}")
    return named if not named.startswith("undo_kind_") else t("undo_kind", kind=action.kind)
