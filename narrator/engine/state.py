"""The game state: plain data that round-trips through JSON.

Per-seat lists are indexed by seat number; index 0 is unused, so `alive[3]` is seat 3.
The engine mutates a state in place only after it has checked that an action is legal;
`clone()` is what the Game wrapper uses to keep the undo history.
"""

from __future__ import annotations

from typing import Any

Task = tuple[Any, ...]

_FIELDS = (
    "rules", "seats", "roles", "deck", "alive", "gone", "fouls", "silenced", "phase", "number",
    "agenda", "current", "window", "windows", "open", "taps", "tapped", "possible", "night",
    "speaker", "nominated", "nominations", "first_speaker", "ballot", "eliminations",
    "idle_rounds", "elims_at_dawn", "cancel_vote_day", "voting_started", "first_victim",
    "best_move", "rng", "outcome", "last_say", "paused", "extra",
)


class State:
    __slots__ = _FIELDS

    rules: str
    seats: int
    roles: list[str]  # "" while not known yet (learned at night zero)
    deck: dict[str, int]
    alive: list[bool]
    gone: list[str]  # how each seat left ("" while in the game)
    fouls: list[int]
    silenced: list[bool]  # loses the next speech
    phase: str  # "night", "day", "over"
    number: int  # night 0, day 1, night 1, day 2, ...
    agenda: list[Task]  # what happens next, in order
    current: Task | None  # the task whose window is open
    window: int  # id of the open window, 0 if none
    windows: int  # windows opened so far (ids are never reused)
    open: list[Any]  # the open window's [purpose, seconds, seat or 0], to reopen it
    taps: list[list[int]]  # this step's choices: [actor or 0, target or 0]
    tapped: list[int]  # seats that tapped in a meeting
    possible: list[list[str]]  # while learning roles: what each seat may still be
    night: dict[str, Any]  # tonight's choices by step id, resolved at dawn
    speaker: int
    nominated: bool  # the speaker has a standing nomination from this speech
    nominations: list[list[int]]  # [by, target] in the order made today
    first_speaker: int
    ballot: dict[str, Any]
    eliminations: list[list[Any]]  # [seat, how, phase, number]
    idle_rounds: int
    elims_at_dawn: int
    cancel_vote_day: int
    voting_started: bool
    first_victim: int
    best_move: list[int]
    rng: int
    outcome: list[str | None] | None  # [reason, winner]
    last_say: list[Any]  # [cue, params] of the last public cue, for "repeat"
    paused: bool
    extra: dict[str, Any]  # rule hooks' own data (a doctor's last heal, a lover's guest...)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in _FIELDS:
            out[name] = _plain(getattr(self, name))
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        state = cls.__new__(cls)
        for name in _FIELDS:
            value = data[name]
            if name == "agenda":
                value = [tuple(t) for t in value]
            elif name == "current" and value is not None:
                value = tuple(value)
            setattr(state, name, _copy(value))
        return state

    def clone(self) -> State:
        state = State.__new__(State)
        for name in _FIELDS:
            setattr(state, name, _copy(getattr(self, name)))
        return state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    # Small queries used everywhere.
    def living(self) -> list[int]:
        return [s for s in range(1, self.seats + 1) if self.alive[s]]

    def holders(self, roles: tuple[str, ...] | list[str]) -> list[int]:
        return [s for s in range(1, self.seats + 1) if self.roles[s] in roles]

    def phase_label(self) -> str:
        return f"{self.phase}-{self.number}"


def _copy(value: Any) -> Any:
    # Tasks are tuples of plain values, so lists and dicts are the only things to copy.
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value
