"""The game state: named fields and small frozen values that round-trip through JSON.

Per-seat lists are indexed by seat number; index 0 is unused, so `alive[3]` is seat 3.
The engine changes a state in place only after it has checked that an action is legal;
`clone()` is what the Game wrapper uses to keep the undo history.

Every field holds either an immutable value (a number, a string, a tuple, a frozen value
below, a task) or a list or dict of them. That is what makes `clone()` exact with a
shallow copy of each list and dict; a value that changes is replaced
(`dataclasses.replace`), never changed in place. A new field needs a default, its line
in `clone()`, and a loader in `_LOAD` when its JSON is not plain numbers and strings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from typing import Any

from narrator.engine.effects import Outcome, Say
from narrator.engine.tasks import Task, task_from_json
from narrator.errors import RuleError

# The JSON form written by to_json. Version 1 (no "format" key) is read too.
FORMAT = 2

# The frozen values' constructors are written out (dataclass keeps them), setting each
# field as the generated one does: compiled (scripts/build_engine.py), a class's own
# __init__ is native code, the generated one is not; every vote builds a Cast and a Ballot.
# `object.__setattr__(self, "field", value)` is spelled out each time: compiled, that exact
# call is a plain store into the field; under another name it is a call through the
# interpreter (about 550 instructions a field).


@dataclass(frozen=True, slots=True)
class Window:
    """The open window's purpose, length and seat (0: none), to open it again on resume."""

    purpose: str
    seconds: float
    seat: int = 0

    def __init__(self, purpose: str, seconds: float, seat: int = 0) -> None:
        object.__setattr__(self, "purpose", purpose)
        object.__setattr__(self, "seconds", seconds)
        object.__setattr__(self, "seat", seat)

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

    def __init__(self, actor: int, target: int) -> None:
        object.__setattr__(self, "actor", actor)
        object.__setattr__(self, "target", target)

    def to_json(self) -> list[int]:
        return [self.actor, self.target]


@dataclass(frozen=True, slots=True)
class Nomination:
    by: int  # 0: the host's keypad, or an accuser not named (Princeton)
    target: int

    def __init__(self, by: int, target: int) -> None:
        object.__setattr__(self, "by", by)
        object.__setattr__(self, "target", target)

    def to_json(self) -> list[int]:
        return [self.by, self.target]


@dataclass(frozen=True, slots=True)
class Cast:
    """One vote: `voter` for `candidate` (in a lift vote, 0: "lift them all")."""

    voter: int
    candidate: int

    def __init__(self, voter: int, candidate: int) -> None:
        object.__setattr__(self, "voter", voter)
        object.__setattr__(self, "candidate", candidate)

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

    def __init__(self, kind: str, round: int, candidates: tuple[int, ...],
                 prev: tuple[int, ...] = (), votes: tuple[Cast, ...] = ()) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "candidates", candidates)
        object.__setattr__(self, "prev", prev)
        object.__setattr__(self, "votes", votes)

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

    def __init__(self, seat: int, how: str, phase: str, number: int) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "how", how)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "number", number)

    def to_json(self) -> list[Any]:
        return [self.seat, self.how, self.phase, self.number]


@dataclass(frozen=True, slots=True)
class Visit:
    """Tonight's visit of a night step (a lover's guest): settled at dawn."""

    host: int
    guest: int

    def to_json(self) -> list[int]:
        return [self.host, self.guest]


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
    # What rule hooks remember between steps and nights.
    blocked: list[int] = field(default_factory=list)  # tonight's choices do nothing
    immune: list[int] = field(default_factory=list)  # cannot be nominated today
    vote_immune: list[int] = field(default_factory=list)  # nominated or not, not voted on today
    learned: bool = False  # night zero: a role was learned from taps, not dealt
    meet_calls: int = 0  # night zero: calls of the current meeting that went wrong so far
    redo_night_zero: bool = False  # night zero went wrong too often: held until resumed
    last_pick: dict[str, int] = field(default_factory=dict)  # by step id: last night's pick
    self_healed: list[str] = field(default_factory=list)  # steps whose healer healed self
    verdict_used: bool = False  # the once-a-game verdict was given
    visits: dict[str, Visit] = field(default_factory=dict)  # tonight's, by step id
    turned: list[int] = field(default_factory=list)  # seats that changed sides
    guarded: list[int] = field(default_factory=list)  # tonight: actions aimed here fail
    asleep: list[int] = field(default_factory=list)  # no role tonight and the next day
    muted: list[int] = field(default_factory=list)  # today: no proposal, no vote
    news: list[str] = field(default_factory=list)  # public cues due after the win check
    said_news: list[str] = field(default_factory=list)  # once-a-game news already said

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
        # Spelled out (not a loop over the fields): a clone is taken for every action a
        # game applies and every one the legality checker tries, and the constructor with
        # named fields is about twice as fast as setting them one by one. A test checks
        # that every field is here and no list or dict is shared.
        return State(
            rules=self.rules, seats=self.seats, roles=self.roles.copy(), deck=self.deck.copy(),
            alive=self.alive.copy(), gone=self.gone.copy(), fouls=self.fouls.copy(),
            silenced=self.silenced.copy(), possible=self.possible.copy(), rng=self.rng,
            phase=self.phase, number=self.number, agenda=self.agenda.copy(), current=self.current,
            window=self.window, windows=self.windows, open=self.open, taps=self.taps.copy(),
            tapped=self.tapped.copy(), night=self.night.copy(), speaker=self.speaker,
            nominated=self.nominated, nominations=self.nominations.copy(),
            first_speaker=self.first_speaker, ballot=self.ballot,
            eliminations=self.eliminations.copy(), idle_rounds=self.idle_rounds,
            elims_at_dawn=self.elims_at_dawn, cancel_vote_day=self.cancel_vote_day,
            voting_started=self.voting_started, hand_count=self.hand_count,
            first_victim=self.first_victim,
            best_move=self.best_move, outcome=self.outcome, last_say=self.last_say,
            paused=self.paused, blocked=self.blocked.copy(), immune=self.immune.copy(),
            vote_immune=self.vote_immune.copy(), learned=self.learned,
            meet_calls=self.meet_calls, redo_night_zero=self.redo_night_zero,
            last_pick=self.last_pick.copy(), self_healed=self.self_healed.copy(),
            verdict_used=self.verdict_used, visits=self.visits.copy(), turned=self.turned.copy(),
            guarded=self.guarded.copy(), asleep=self.asleep.copy(), muted=self.muted.copy(),
            news=self.news.copy(), said_news=self.said_news.copy(),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT}
        for name in _NAMES:
            out[name] = _plain(getattr(self, name))
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        """A state from its JSON form (this format or version 1); RuleError if malformed."""
        try:
            if data.get("format", 1) == 1:
                data = _from_v1(data)
            elif data["format"] != FORMAT:
                raise RuleError(f"state format {data['format']!r} is not known")
            kwargs = {}
            for name in _NAMES:
                if name in data:
                    load = _LOAD.get(name, _copy)
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


def _plain(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if hasattr(value, "to_json"):
        return value.to_json()
    return value


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


def _optional(load: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: None if value is None else load(value)


def _say(data: dict[str, Any]) -> Say:
    # JSON has lists where the cue's parameters had tuples (seat lists).
    return Say(data["cue"], {k: tuple(v) if isinstance(v, list) else v
                             for k, v in data["params"].items()})


def _picks(data: list[list[int]]) -> tuple[Pick, ...]:
    return tuple(Pick(a, t) for a, t in data)


_LOAD: dict[str, Callable[[Any], Any]] = {
    "possible": lambda v: [tuple(p) for p in v],
    "agenda": lambda v: [task_from_json(t) for t in v],
    "current": _optional(task_from_json),
    "open": _optional(Window.from_json),
    "taps": lambda v: list(_picks(v)),
    "night": lambda v: {k: _picks(p) for k, p in v.items()},
    "nominations": lambda v: [Nomination(b, t) for b, t in v],
    "ballot": _optional(Ballot.from_json),
    "eliminations": lambda v: [Elimination(*e) for e in v],
    "best_move": tuple,
    "outcome": _optional(lambda v: Outcome(v["reason"], v["winner"])),
    "last_say": _optional(_say),
    "visits": lambda v: {k: Visit(h, g) for k, (h, g) in v.items()},
}


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
