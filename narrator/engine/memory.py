"""What rule hooks remember between steps and nights: one value per ability, a field of the
game state (`state.visit.blocked`, `state.judge.verdict_used`).

Each is a slotted dataclass whose fields hold immutable values or lists and dicts of them,
so `clone()` is a shallow copy of each list and dict. In the state's JSON their fields sit
beside the state's own (`"blocked": [3]`), under their own names: a new field is its line
here, with its default, and nothing else (narrator/engine/state.py reads the types).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Self


@dataclass(slots=True)
class Memory:
    def clone(self) -> Self:
        return type(self)(**{f.name: _shallow(getattr(self, f.name)) for f in fields(self)})


def _shallow(value: Any) -> Any:
    return value.copy() if isinstance(value, list | dict) else value


@dataclass(frozen=True, slots=True)
class Visit:
    """Tonight's visit of a night step (a lover's guest): settled at dawn."""

    host: int
    guest: int

    def to_json(self) -> list[int]:
        return [self.host, self.guest]


@dataclass(slots=True)
class NightZeroMemory(Memory):
    """Night zero without a deal (narrator/engine/night.py): the roles learned from taps."""

    learned: bool = False  # a role was learned from taps, not dealt
    meet_calls: int = 0  # calls of the current meeting that went wrong so far
    redo_night_zero: bool = False  # night zero went wrong too often: held until resumed


@dataclass(slots=True)
class VisitMemory(Memory):
    """A night visit (narrator/engine/visits.py): the lover's guest, a sleeping pill."""

    visits: dict[str, Visit] = field(default_factory=dict)  # tonight's, by step id
    blocked: list[int] = field(default_factory=list)  # tonight's choices do nothing
    immune: list[int] = field(default_factory=list)  # cannot be nominated today
    vote_immune: list[int] = field(default_factory=list)  # nominated or not, not voted on today
    asleep: list[int] = field(default_factory=list)  # no role tonight and the next day


@dataclass(slots=True)
class ProtectionMemory(Memory):
    """A healer's or a bodyguard's (narrator/engine/protection.py)."""

    guarded: list[int] = field(default_factory=list)  # tonight: actions aimed here fail
    self_healed: list[str] = field(default_factory=list)  # steps whose healer healed self


@dataclass(slots=True)
class PickMemory(Memory):
    """A step that may not choose the same seat twice in a row (narrator/engine/picks.py)."""

    last_pick: dict[str, int] = field(default_factory=dict)  # by step id: last night's pick


@dataclass(slots=True)
class JudgeMemory(Memory):
    """The judge's once-a-game verdict (narrator/engine/verdict.py)."""

    verdict_used: bool = False


@dataclass(slots=True)
class TurncoatMemory(Memory):
    """Players who change sides (narrator/engine/turncoat.py)."""

    turned: list[int] = field(default_factory=list)  # seats that changed sides
    said_news: list[str] = field(default_factory=list)  # once-a-game news already said
