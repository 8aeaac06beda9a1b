"""Actions: what the table tells the engine.

Small frozen value types. Each has a `kind` used in its JSON form, so the journal and
the tests can write and read them as text: `{"kind": "vote", "voter": 3}`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from narrator.errors import RuleError


@dataclass(frozen=True, slots=True)
class Action:
    kind: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True, slots=True)
class Deal(Action):
    """The roles by seat (index 0 is seat 1), when the box deals or already knows them.

    Without a Deal the roles are learned at night zero from the holders' taps.
    """

    kind: ClassVar[str] = "deal"

    roles: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Tap(Action):
    """A short press on a seat pad. Its meaning depends on the moment (meet, call-out, vote)."""

    kind: ClassVar[str] = "tap"

    seat: int


@dataclass(frozen=True, slots=True)
class Hold(Action):
    """A long press on a seat pad: the speaker ends their own speech."""

    kind: ClassVar[str] = "hold"

    seat: int


@dataclass(frozen=True, slots=True)
class Entry(Action):
    """A number typed on the private keypad and confirmed with Enter (0 means 'nobody')."""

    kind: ClassVar[str] = "entry"

    number: int


@dataclass(frozen=True, slots=True)
class Choose(Action):
    """An explicit night choice: `actor` (a seat, or None for the role as a whole) picks
    `target` (None: no choice) in the current night step. Used by keypads and replays."""

    kind: ClassVar[str] = "choose"

    actor: int | None
    target: int | None


@dataclass(frozen=True, slots=True)
class WindowClosed(Action):
    """The timer of an open window ran out (sent by the daemon or a virtual clock)."""

    kind: ClassVar[str] = "window_closed"

    window: int


@dataclass(frozen=True, slots=True)
class EndSpeech(Action):
    """'Thank you' / 'next speaker' / 'pass': the current speech ends now."""

    kind: ClassVar[str] = "end_speech"


@dataclass(frozen=True, slots=True)
class Nominate(Action):
    """A nomination (or a Princeton accusation). `by` defaults to the current speaker."""

    kind: ClassVar[str] = "nominate"

    target: int
    by: int | None = None


@dataclass(frozen=True, slots=True)
class Withdraw(Action):
    """The current speaker withdraws the nomination made in this speech."""

    kind: ClassVar[str] = "withdraw"


@dataclass(frozen=True, slots=True)
class Second(Action):
    """A player seconds the pending accusation (Princeton rules)."""

    kind: ClassVar[str] = "second"

    by: int


@dataclass(frozen=True, slots=True)
class Vote(Action):
    """One vote by `voter` in the ballot that is open now."""

    kind: ClassVar[str] = "vote"

    voter: int


@dataclass(frozen=True, slots=True)
class LowerHand(Action):
    """A hand counted by mistake is taken off the candidate being voted on (the host
    counting hands on the page: its seat tiles toggle)."""

    voter: int


LowerHand.kind = "lower_hand"


@dataclass(frozen=True, slots=True)
class Count(Action):
    """The host has counted the hands for the candidate being voted on: the ballot moves
    on. Once the host counts (a vote typed or tapped on the page), ballots wait for it."""


Count.kind = "count"


@dataclass(frozen=True, slots=True)
class Foul(Action):
    kind: ClassVar[str] = "foul"

    seat: int


@dataclass(frozen=True, slots=True)
class Unfoul(Action):
    """The host takes back a foul given by mistake (the seat's last one)."""

    kind: ClassVar[str] = "unfoul"

    seat: int


@dataclass(frozen=True, slots=True)
class Remove(Action):
    """The host removes (disqualifies) a player: no last word."""

    kind: ClassVar[str] = "remove"

    seat: int


@dataclass(frozen=True, slots=True)
class Forfeit(Action):
    """A severe breach (001: "opening eyes at the wrong time" at night) gives the game to
    the other team at once: the team of `seat` loses, where the rule set allows it."""

    kind: ClassVar[str] = "forfeit"

    seat: int


@dataclass(frozen=True, slots=True)
class BestMove(Action):
    """The first player killed at night names up to three seats they think are black."""

    kind: ClassVar[str] = "best_move"

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class StartVoting(Action):
    """The host closes the discussion and opens the vote (or closes a Princeton day)."""

    kind: ClassVar[str] = "start_voting"


@dataclass(frozen=True, slots=True)
class Pause(Action):
    kind: ClassVar[str] = "pause"


@dataclass(frozen=True, slots=True)
class Resume(Action):
    kind: ClassVar[str] = "resume"


@dataclass(frozen=True, slots=True)
class Repeat(Action):
    """Say the last public cue again."""

    kind: ClassVar[str] = "repeat"


@dataclass(frozen=True, slots=True)
class AddTime(Action):
    kind: ClassVar[str] = "add_time"

    seconds: int = 30


@dataclass(frozen=True, slots=True)
class Verdict(Action):
    """The judge (boxed) replaces the day's vote: `target` goes to jail."""

    kind: ClassVar[str] = "verdict"

    judge: int
    target: int


@dataclass(frozen=True, slots=True)
class Undo(Action):
    """Host correction: back to the exact state before the last action."""

    kind: ClassVar[str] = "undo"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        Deal, Tap, Hold, Entry, Choose, WindowClosed, EndSpeech, Nominate, Withdraw, Second,
        Vote, LowerHand, Count, Foul, Unfoul, Remove, BestMove, StartVoting, Pause, Resume,
        Repeat, AddTime, Verdict, Undo, Forfeit,
    )
}


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


_FITS: dict[str, Callable[[Any], bool]] = {
    "int": _whole,
    "int | None": lambda v: v is None or _whole(v),
    "tuple[int, ...]": lambda v: isinstance(v, list | tuple) and all(_whole(x) for x in v),
    "tuple[str, ...]": lambda v: isinstance(v, list | tuple) and all(isinstance(x, str) for x in v),
}


def fits(annotation: str, value: Any) -> bool:
    """Whether a JSON value can fill a field of this type (from `field_type`)."""
    return _FITS[annotation](value)


def field_type(cls: type[Action], name: str) -> str:
    """The field's type as its class declares it ("int", "int | None", "tuple[int, ...]")."""
    return _FIELD_TYPES[cls][name]


# Annotations are text in this module (`from __future__ import annotations`): the keys of _FITS.
_FIELD_TYPES: dict[type[Action], dict[str, str]] = {
    cls: {f.name: str(f.type) for f in fields(cls)} for cls in ACTION_TYPES.values()}


def action_from_json(data: Any) -> Action:
    """Build an action from its JSON form; a malformed one raises RuleError."""
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise RuleError(f"not an action: {data!r}")
    cls = ACTION_TYPES.get(data["kind"])
    if cls is None:
        raise RuleError(f"unknown action kind {data['kind']!r}")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name in data:
            value = data[f.name]
            # A journal's `"seat": {...}` must not reach the rules.
            if not fits(field_type(cls, f.name), value):
                raise RuleError(f"bad {data['kind']} action: {f.name} is {value!r}")
            kwargs[f.name] = tuple(value) if isinstance(value, list) else value
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise RuleError(f"bad {data['kind']} action: {exc}") from None
