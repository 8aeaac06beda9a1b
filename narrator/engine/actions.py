"""Actions: what the table tells the engine.

Small frozen value types. Each has a `kind` used in its JSON form, so the journal and
the tests can write and read them as text: `{"kind": "vote", "voter": 3}`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import Field, dataclass, fields
from typing import Any, ClassVar

from narrator.errors import RuleError


class Action:
    # A plain base, not a dataclass, and each subclass's `kind` set after its class:
    # compiled by mypyc, a ClassVar in a dataclass's body would become a field
    # (mypyc/mypyc#1122). See scripts/build_engine.py. The actions a game makes most have
    # their constructor written out (dataclass keeps it): compiled, a class's own __init__
    # is native code and the generated one is not, and `object.__setattr__(self, ...)`
    # spelled out is a plain store (narrator/engine/state.py).
    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]
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

    roles: tuple[str, ...]


Deal.kind = "deal"


@dataclass(frozen=True, slots=True)
class Tap(Action):
    """A short press on a seat pad. Its meaning depends on the moment (meet, call-out, vote)."""

    seat: int

    def __init__(self, seat: int) -> None:
        object.__setattr__(self, "seat", seat)


Tap.kind = "tap"


@dataclass(frozen=True, slots=True)
class Hold(Action):
    """A long press on a seat pad: the speaker ends their own speech."""

    seat: int


Hold.kind = "hold"


@dataclass(frozen=True, slots=True)
class Entry(Action):
    """A number typed on the private keypad and confirmed with Enter (0 means 'nobody')."""

    number: int


Entry.kind = "entry"


@dataclass(frozen=True, slots=True)
class Choose(Action):
    """An explicit night choice: `actor` (a seat, or None for the role as a whole) picks
    `target` (None: no choice) in the current night step. Used by keypads and replays."""

    actor: int | None
    target: int | None


Choose.kind = "choose"


@dataclass(frozen=True, slots=True)
class WindowClosed(Action):
    """The timer of an open window ran out (sent by the daemon or a virtual clock)."""

    window: int

    def __init__(self, window: int) -> None:
        object.__setattr__(self, "window", window)


WindowClosed.kind = "window_closed"


@dataclass(frozen=True, slots=True)
class EndSpeech(Action):
    """'Thank you' / 'next speaker' / 'pass': the current speech ends now."""


EndSpeech.kind = "end_speech"


@dataclass(frozen=True, slots=True)
class Nominate(Action):
    """A nomination (or a Princeton accusation). `by` defaults to the current speaker."""

    target: int
    by: int | None = None

    def __init__(self, target: int, by: int | None = None) -> None:
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "by", by)


Nominate.kind = "nominate"


@dataclass(frozen=True, slots=True)
class Withdraw(Action):
    """The current speaker withdraws the nomination made in this speech."""


Withdraw.kind = "withdraw"


@dataclass(frozen=True, slots=True)
class Second(Action):
    """A player seconds the pending accusation (Princeton rules)."""

    by: int


Second.kind = "second"


@dataclass(frozen=True, slots=True)
class Vote(Action):
    """One vote by `voter` in the ballot that is open now."""

    voter: int

    def __init__(self, voter: int) -> None:
        object.__setattr__(self, "voter", voter)


Vote.kind = "vote"


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
    seat: int

    def __init__(self, seat: int) -> None:
        object.__setattr__(self, "seat", seat)


Foul.kind = "foul"


@dataclass(frozen=True, slots=True)
class Unfoul(Action):
    """The host takes back a foul given by mistake (the seat's last one)."""

    seat: int


Unfoul.kind = "unfoul"


@dataclass(frozen=True, slots=True)
class Remove(Action):
    """The host removes (disqualifies) a player: no last word."""

    seat: int


Remove.kind = "remove"


@dataclass(frozen=True, slots=True)
class Forfeit(Action):
    """A severe breach (001: "opening eyes at the wrong time" at night) gives the game to
    the other team at once: the team of `seat` loses, where the rule set allows it."""

    seat: int


Forfeit.kind = "forfeit"


@dataclass(frozen=True, slots=True)
class BestMove(Action):
    """The first player killed at night names up to three seats they think are black."""

    seats: tuple[int, ...]


BestMove.kind = "best_move"


@dataclass(frozen=True, slots=True)
class StartVoting(Action):
    """The host closes the discussion and opens the vote (or closes a Princeton day)."""


StartVoting.kind = "start_voting"


@dataclass(frozen=True, slots=True)
class Pause(Action):
    pass


Pause.kind = "pause"


@dataclass(frozen=True, slots=True)
class Resume(Action):
    pass


Resume.kind = "resume"


@dataclass(frozen=True, slots=True)
class Repeat(Action):
    """Say the last public cue again."""


Repeat.kind = "repeat"


@dataclass(frozen=True, slots=True)
class AddTime(Action):
    seconds: int = 30


AddTime.kind = "add_time"


@dataclass(frozen=True, slots=True)
class Verdict(Action):
    """The judge (boxed) replaces the day's vote: `target` goes to jail."""

    judge: int
    target: int


Verdict.kind = "verdict"


@dataclass(frozen=True, slots=True)
class Undo(Action):
    """Host correction: back to the exact state before the last action."""


Undo.kind = "undo"


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


# What an action's field holds, by its name ("int" unless named here). Not read from the
# annotations: the compiled engine keeps no annotation text (a test holds this to the source).
_TUPLE_FIELDS = {"roles": "tuple[str, ...]", "seats": "tuple[int, ...]"}
_OPTIONAL_FIELDS = {(Choose, "actor"), (Choose, "target"), (Nominate, "by")}


def fits(annotation: str, value: Any) -> bool:
    """Whether a JSON value can fill a field of this type (from `field_type`)."""
    return _FITS[annotation](value)


def field_type(cls: type[Action], name: str) -> str:
    if name in _TUPLE_FIELDS:
        return _TUPLE_FIELDS[name]
    return "int | None" if (cls, name) in _OPTIONAL_FIELDS else "int"


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
