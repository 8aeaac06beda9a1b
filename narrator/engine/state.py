"""The game state: named fields and small frozen values that round-trip through JSON.

Per-seat lists are indexed by seat number; index 0 is unused, so `alive[3]` is seat 3.
The engine changes a state in place only after it has checked that an action is legal;
`clone()` is what the Game wrapper uses to keep the undo history.

Every field holds either an immutable value (a number, a string, a tuple, a frozen value
below, a task), a list or dict of them, or one ability's memory (narrator/engine/memory.py).
That is what makes `clone()` exact with a shallow copy of each list and dict; a value that
changes is replaced, never changed in place. A new field is one line with its default:
`clone()`, `to_json()` and `from_json()` follow the fields and their types.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from typing import Any

from narrator.engine.effects import Outcome, Say
from narrator.engine.memory import (
    JudgeMemory,
    Memory,
    NightZeroMemory,
    PickMemory,
    ProtectionMemory,
    TurncoatMemory,
    VisitMemory,
)
from narrator.engine.tasks import Task, task_from_json
from narrator.errors import RuleError

# The JSON form written by to_json. Version 1 (no "format" key) is read too.
FORMAT = 2

@dataclass(frozen=True, slots=True)
class Window:
    """The open window's purpose, length and seat (0: none), to open it again on resume."""

    purpose: str
    seconds: float
    seat: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"purpose": self.purpose, "seconds": self.seconds, "seat": self.seat}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Window:
        return cls(data["purpose"], data["seconds"], data["seat"])


@dataclass(frozen=True, slots=True)
class Pick:
    """A night choice: `actor` (0: a collective keypad entry) chose `target` (0: nobody)."""

    actor: int
    target: int

    def to_json(self) -> list[int]:
        return [self.actor, self.target]


@dataclass(frozen=True, slots=True)
class Nomination:
    by: int  # 0: the host's keypad, or an accuser not named (Princeton)
    target: int

    def to_json(self) -> list[int]:
        return [self.by, self.target]


@dataclass(frozen=True, slots=True)
class Cast:
    """One vote: `voter` for `candidate` (in a lift vote, 0: "lift them all")."""

    voter: int
    candidate: int

    def to_json(self) -> list[int]:
        return [self.voter, self.candidate]


LIFT = 0  # the candidate of every vote in a lift ballot


@dataclass(frozen=True, slots=True)
class Ballot:
    """Today's vote in progress.

    `kind` "elect": one vote per player among `candidates`; "lift": the votes are the
    yes-votes to lift the tied players out. `prev` holds the leaders of the round before,
    so a repeated split goes to lifting. `votes` are in the order they were cast.
    """

    kind: str
    round: int
    candidates: tuple[int, ...]
    prev: tuple[int, ...] = ()
    votes: tuple[Cast, ...] = ()

    def voters(self) -> list[int]:
        return [c.voter for c in self.votes]

    def has_voted(self, seat: int) -> bool:
        # A list, not any() over a generator (slower for a dozen votes): every vote asks.
        return seat in [c.voter for c in self.votes]

    def votes_for(self, candidate: int) -> list[int]:
        return [c.voter for c in self.votes if c.candidate == candidate]

    def with_votes(self, candidate: int, voters: Iterable[int]) -> Ballot:
        # The constructor, not dataclasses.replace: every vote of a game passes here.
        return Ballot(self.kind, self.round, self.candidates, self.prev,
                      self.votes + tuple([Cast(v, candidate) for v in voters]))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "round": self.round, "candidates": list(self.candidates),
                "prev": list(self.prev), "votes": [c.to_json() for c in self.votes]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Ballot:
        return cls(data["kind"], data["round"], tuple(data["candidates"]), tuple(data["prev"]),
                   tuple(Cast(v, c) for v, c in data["votes"]))


@dataclass(frozen=True, slots=True)
class Elimination:
    """A player left: `how` (vote, shot, fouls, removed, lifted...) in `phase` `number`."""

    seat: int
    how: str
    phase: str
    number: int

    def to_json(self) -> list[Any]:
        return [self.seat, self.how, self.phase, self.number]


@dataclass(slots=True)
class State:
    rules: str
    seats: int
    roles: list[str]  # "" while not known yet (learned at night zero)
    deck: dict[str, int]
    alive: list[bool]
    gone: list[str]  # how each seat left ("" while in the game)
    fouls: list[int]
    silenced: list[bool]  # loses the next speech
    possible: list[tuple[str, ...]]  # while learning roles: what each seat may still be
    rng: int = 0
    phase: str = "night"  # "night", "day", "over"
    number: int = 0  # night 0, day 1, night 1, day 2, ...
    agenda: list[Task] = field(default_factory=list)  # what happens next, in order
    current: Task | None = None  # the task whose window is open
    window: int = 0  # id of the open window, 0 if none
    windows: int = 0  # windows opened so far (ids are never reused)
    open: Window | None = None  # the last window opened, to reopen it
    taps: list[Pick] = field(default_factory=list)  # this step's choices so far
    tapped: list[int] = field(default_factory=list)  # seats that tapped in a meeting
    night: dict[str, tuple[Pick, ...]] = field(default_factory=dict)  # by step id, for dawn
    speaker: int = 0
    nominated: bool = False  # the speaker has a standing nomination from this speech
    nominations: list[Nomination] = field(default_factory=list)  # today's, in order
    first_speaker: int = 0
    ballot: Ballot | None = None
    eliminations: list[Elimination] = field(default_factory=list)
    idle_rounds: int = 0
    elims_at_dawn: int = 0
    cancel_vote_day: int = 0
    voting_started: bool = False
    # The host counts the hands (a vote typed on the keypad or tapped on the page, or a
    # Count): from then on a ballot's window waits for the host's Count, not its seconds.
    hand_count: bool = False
    first_victim: int = 0
    best_move: tuple[int, ...] = ()  # the seats the first victim named
    outcome: Outcome | None = None
    last_say: Say | None = None  # the last public cue, for "repeat"
    paused: bool = False
    muted: list[int] = field(default_factory=list)  # today: no proposal, no vote
    news: list[str] = field(default_factory=list)  # public cues due after the win check
    # What rule hooks remember between steps and nights, one value per ability.
    night_zero: NightZeroMemory = field(default_factory=NightZeroMemory)
    visit: VisitMemory = field(default_factory=VisitMemory)
    protection: ProtectionMemory = field(default_factory=ProtectionMemory)
    picks: PickMemory = field(default_factory=PickMemory)
    judge: JudgeMemory = field(default_factory=JudgeMemory)
    turncoat: TurncoatMemory = field(default_factory=TurncoatMemory)

    @classmethod
    def start(cls, rules: str, seats: int, deck: dict[str, int], seed: int) -> State:
        """Night zero of a game with nobody's role known yet."""
        return cls(
            rules=rules, seats=seats, roles=[""] * (seats + 1), deck=deck,
            alive=[False] + [True] * seats, gone=[""] * (seats + 1), fouls=[0] * (seats + 1),
            silenced=[False] * (seats + 1),
            possible=[(), *[tuple(sorted(deck))] * seats],
            rng=seed & ((1 << 64) - 1),
        )

    def clone(self) -> State:
        return State(**{name: _copy_field(getattr(self, name)) for name in _NAMES})

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT}
        for name in _NAMES:
            value = getattr(self, name)
            if isinstance(value, Memory):
                for f in fields(value):
                    out[f.name] = _plain(getattr(value, f.name))
            else:
                out[name] = _plain(value)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        """A state from its JSON form (this format or version 1); RuleError if malformed."""
        try:
            if data.get("format", 1) == 1:
                data = _from_v1(data)
            elif data["format"] != FORMAT:
                raise RuleError(f"state format {data['format']!r} is not known")
            kwargs: dict[str, Any] = {}
            for name, load in _LOADERS.items():
                if name in _MEMORIES:
                    memory, loaders = _MEMORIES[name]
                    kwargs[name] = memory(**{key: loaders[key](data[key])
                                             for key in loaders if key in data})
                elif name in data:
                    kwargs[name] = load(data[name])
            return cls(**kwargs)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RuleError(f"not a game state: {exc!r}") from None

    # Small queries used everywhere.
    def living(self) -> list[int]:
        return [s for s in range(1, self.seats + 1) if self.alive[s]]

    def holders(self, roles: tuple[str, ...] | list[str]) -> list[int]:
        return [s for s in range(1, self.seats + 1) if self.roles[s] in roles]

    def phase_label(self) -> str:
        return f"{self.phase}-{self.number}"


_NAMES = tuple(f.name for f in fields(State))


def _copy_field(value: Any) -> Any:
    if isinstance(value, list | dict):
        return value.copy()
    return value.clone() if isinstance(value, Memory) else value


def _plain(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if hasattr(value, "to_json"):
        return value.to_json()
    return value


def _loader(kind: Any) -> Callable[[Any], Any]:
    """What reads a field of this type back from its JSON (the inverse of `_plain`)."""
    args = typing.get_args(kind)
    origin = typing.get_origin(kind)
    if origin is types.UnionType and type(None) in args:  # `X | None`
        inner = _loader(next(a for a in args if a is not type(None)))
        return lambda v: None if v is None else inner(v)
    if origin is list:
        item = _loader(args[0])
        return lambda v: [item(x) for x in v]
    if origin is tuple:
        item = _loader(args[0])
        return lambda v: tuple(item(x) for x in v)
    if origin is dict:
        item = _loader(args[1])
        return lambda v: {k: item(x) for k, x in v.items()}
    if kind is Task:
        return task_from_json
    if kind is Say:
        return _say
    if isinstance(kind, type) and hasattr(kind, "from_json"):
        return kind.from_json  # type: ignore[no-any-return]
    if isinstance(kind, type) and hasattr(kind, "__dataclass_fields__"):
        # A frozen value written as a list of its fields ([voter, candidate]) or a dict.
        return lambda v: kind(**v) if isinstance(v, dict) else kind(*v)
    return lambda v: v  # a number, a string or a bool


def _say(data: dict[str, Any]) -> Say:
    # JSON has lists where the cue's parameters had tuples (seat lists).
    return Say(data["cue"], {k: tuple(v) if isinstance(v, list) else v
                             for k, v in data["params"].items()})


_TYPES = typing.get_type_hints(State)
_LOADERS: dict[str, Callable[[Any], Any]] = {name: _loader(_TYPES[name]) for name in _NAMES}
# The memories' fields, read from the top level of the JSON: by the state's field name,
# its memory type and the loader of each of its fields.
_MEMORIES: dict[str, tuple[type[Memory], dict[str, Callable[[Any], Any]]]] = {
    name: (kind, {key: _loader(t) for key, t in typing.get_type_hints(kind).items()})
    for name, kind in _TYPES.items() if isinstance(kind, type) and issubclass(kind, Memory)}


def _from_v1(old: dict[str, Any]) -> dict[str, Any]:
    """The JSON of version 1 (before the state had named values) in this format.

    Version 1 differs in: `open` [purpose, seconds, seat] or []; `ballot` {} or
    {kind, round, candidates, prev, votes: {"<seat>" or "lift": [voters]}, voters};
    `best_move` [first victim, *named]; `outcome` [reason, winner]; `last_say`
    [cue, params] or []; and the rule hooks' memory in one `extra` dict under the names
    the fields have now.
    """
    data = {k: v for k, v in old.items() if k != "extra"}
    data.update(old.get("extra", {}))
    data["open"] = ({"purpose": old["open"][0], "seconds": old["open"][1], "seat": old["open"][2]}
                    if old["open"] else None)
    ballot = old["ballot"]
    if ballot:
        by_voter = {v: (0 if key == "lift" else int(key))
                    for key, voters in ballot["votes"].items() for v in voters}
        data["ballot"] = {**ballot, "votes": [[v, by_voter[v]] for v in ballot["voters"]]}
    else:
        data["ballot"] = None
    data["best_move"] = old["best_move"][1:]
    outcome = old["outcome"]
    data["outcome"] = {"reason": outcome[0], "winner": outcome[1]} if outcome else None
    data["last_say"] = {"cue": old["last_say"][0], "params": old["last_say"][1]} if old["last_say"] else None
    return data
