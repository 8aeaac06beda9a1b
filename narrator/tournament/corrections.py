"""Corrections of a counted game: each its own record (who, when, why), never an edit of
the game. A game's result in force is its played result (as the engine replayed it) with
every correction in force applied in order.

The organiser's and a judge's corrections are in force at once: the winner, a draw, a
seat's extra points, a seat's fouls, a seat's removal, a technical defeat (the seat's
team loses), the game annulled or counted again. Each is checked against the rule set's
bounds (its teams, its seats, its extra points' range, its fouls' limit) before it is
kept. A box's changed result (extra points given on the box after a delivery) waits for
the organiser's yes: it counts once an approval record names it, never if a decline does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from narrator.engine.ruleset import RuleSet
from narrator.records.protocol_value import BestMove, Protocol
from narrator.tournament.bounds import extra_in_bounds
from narrator.tournament.language import Why

# What the organiser's form offers, in this order; "box", "approve" and "decline" are
# made by the collector itself.
KINDS = ("winner", "draw", "extra", "fouls", "removed", "technical_defeat", "annul", "count_again")
_SEATED = ("extra", "fouls", "removed", "technical_defeat")
WHO_MAX, WHY_MAX = 60, 300


class CorrectionError(Why):
    pass


@dataclass(frozen=True)
class Change:
    kind: str
    seat: int | None = None
    value: Any = None  # the winner's team, the extra points, the fouls; a box's whole extra

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "value": self.value}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Change:
        seat = data.get("seat")
        return cls(str(data.get("kind", "")), seat if isinstance(seat, int) else None, data.get("value"))


@dataclass(frozen=True)
class Correction:
    id: int
    game: str  # the game's id in the tournament
    at: float
    source: str  # "organiser" or "box"
    who: str
    why: str
    change: Change
    parent: int | None = None  # approve / decline: the box's change they decide

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "at": self.at,
            "source": self.source,
            "who": self.who,
            "why": self.why,
            "change": self.change.to_json(),
            "parent": self.parent,
        }


@dataclass(frozen=True)
class Result:
    """What the standings count of one game."""

    winner: str | None
    extra: Mapping[int, float] = field(default_factory=lambda: MappingProxyType({}))
    best_move: BestMove | None = None
    fouls: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    removed: frozenset[int] = frozenset()
    technical: int | None = None  # the seat whose breach lost the game for its team
    annulled: bool = False


def played(protocol: Protocol) -> Result:
    return Result(
        protocol.winner,
        MappingProxyType(dict(protocol.extra)),
        protocol.best_move,
        MappingProxyType({s.seat: s.fouls for s in protocol.seats}),
        frozenset(s.seat for s in protocol.seats if s.out and s.out.how in ("fouls", "removed")),
    )


def status(correction: Correction, decisions: Mapping[int, Correction]) -> str:
    """ "in force", "pending" (a box's change not yet decided), "declined", or "decision"."""
    if correction.change.kind in ("approve", "decline"):
        return "decision"
    if correction.source != "box":
        return "in force"
    decided = decisions.get(correction.id)
    if decided is None:
        return "pending"
    return "in force" if decided.change.kind == "approve" else "declined"


def decisions(corrections: Sequence[Correction]) -> dict[int, Correction]:
    return {
        c.parent: c for c in corrections if c.parent is not None and c.change.kind in ("approve", "decline")
    }


def in_force(protocol: Protocol, corrections: Sequence[Correction], rules: RuleSet) -> Result:
    result = played(protocol)
    decided = decisions(corrections)
    for c in corrections:
        if status(c, decided) == "in force":
            result = apply(result, c.change, protocol, rules)
    return result


def teams(protocol: Protocol, rules: RuleSet) -> list[str]:
    """The teams of this game's roles (the winners a correction may name)."""
    return sorted({rules.roles[r].team for r in protocol.roles if r in rules.roles})


def apply(result: Result, change: Change, protocol: Protocol, rules: RuleSet) -> Result:
    kind, seat, value = change.kind, change.seat, change.value
    if kind == "winner":
        return replace(result, winner=str(value), technical=None)
    if kind == "draw":
        return replace(result, winner="draw", technical=None)
    if kind == "extra" and seat is not None:
        extra = {**result.extra, seat: float(value)}
        return replace(result, extra=MappingProxyType({k: v for k, v in extra.items() if v}))
    if kind == "box":
        return replace(result, extra=MappingProxyType({int(k): float(v) for k, v in dict(value).items()}))
    if kind == "fouls" and seat is not None:
        return replace(result, fouls=MappingProxyType({**result.fouls, seat: int(value)}))
    if kind == "removed" and seat is not None:
        return replace(result, removed=result.removed | {seat})
    if kind == "technical_defeat" and seat is not None:
        loser = rules.roles[protocol.roles[seat - 1]].team
        winner = next(t for t in teams(protocol, rules) if t != loser)
        return replace(result, winner=winner, technical=seat)
    if kind == "annul":
        return replace(result, annulled=True)
    if kind == "count_again":
        return replace(result, annulled=False)
    return result


def checked(fields: Mapping[str, Any], protocol: Protocol, rules: RuleSet) -> tuple[Change, str, str]:
    """The organiser's correction from the page's form (kind, seat, value, who, why),
    checked against the game and the rule set's bounds: (change, who, why), or
    CorrectionError saying what is wrong."""
    who = str(fields.get("who") or "").strip()
    why = str(fields.get("why") or "").strip()
    if not who or len(who) > WHO_MAX or not who.isprintable():
        raise CorrectionError("need_who", most=WHO_MAX)
    if not why or len(why) > WHY_MAX or not why.isprintable():
        raise CorrectionError("need_why", most=WHY_MAX)
    kind = str(fields.get("kind") or "")
    if kind not in KINDS:
        raise CorrectionError("kind_unknown")
    seats = len(protocol.seats)
    seat: int | None = None
    if kind in _SEATED:
        seat = _whole(fields.get("seat"), "seat")
        if not 1 <= seat <= seats:
            raise CorrectionError("seat_range", seat=seat, seats=seats)
    value: Any = None
    if kind == "winner":
        value = str(fields.get("value") or "")
        allowed = teams(protocol, rules)
        if value not in allowed:
            raise CorrectionError("winner_team", winner=value or "-", teams=", ".join(allowed))
    elif kind == "extra":
        assert seat is not None
        value = _number(fields.get("value"))
        try:
            extra_in_bounds(rules, seats, {seat: value})
        except Why as exc:
            raise CorrectionError(exc.code, **exc.params) from None
    elif kind == "fouls":
        value = _whole(fields.get("value"), "value")
        high = rules.fouls.remove_at if rules.fouls.enabled else 0
        if not 0 <= value <= high:
            raise CorrectionError("fouls_range", seat=seat, high=high, value=value)
    elif kind == "technical_defeat" and len(teams(protocol, rules)) != 2:
        raise CorrectionError("two_teams")
    return Change(kind, seat, value), who, why


def _whole(value: Any, what: str) -> int:
    text = str(value if value is not None else "").strip()
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if not text.lstrip("-").isdigit() or len(text) > 6:
        raise CorrectionError("whole_number", what=what, value=text or "-")
    return int(text)


def _number(value: Any) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value)
    else:
        text = str(value if value is not None else "").strip().replace(",", ".")
        try:
            number = float(text)
        except ValueError:
            raise CorrectionError("number", value=text or "-") from None
    if number != number or number in (float("inf"), float("-inf")):
        raise CorrectionError("number", value=str(value))
    return number
