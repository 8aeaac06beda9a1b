"""The JSON protocol (narrator.records.protocol) as a typed value.

A tournament reads a finished game's protocol in several places (the collector's intake,
the store, the standings, the exports, the page, the box's outbox); each reads the same
`Protocol`, checked once by `from_json`, instead of picking a nested dict apart field by
field. What no reader needs typed (the nights, the days, the fouls with their moments, the
derived `players` and `scoring`, the `stands`) is carried as written in `rest`, so that
`Protocol.from_json(data).to_json() == data` for every protocol the box writes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from narrator.errors import RecordError


def _empty() -> Mapping[str, Any]:
    return MappingProxyType({})


EVENT_KEYS = ("tournament", "table", "round", "game")


@dataclass(frozen=True)
class EventInfo:
    """Where the game sits in a tournament (the set-up's event): all optional."""

    tournament: str = ""
    table: int | None = None
    round: int | None = None
    game: int | None = None
    # The keys the protocol wrote (a game outside any event may write none): written back
    # as they were; not part of what the event is.
    keys: tuple[str, ...] = field(default=EVENT_KEYS, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.keys}


@dataclass(frozen=True)
class Out:
    """How and when a seat left the table."""

    how: str
    phase: str
    number: int

    def to_json(self) -> dict[str, Any]:
        return {"how": self.how, "phase": self.phase, "number": self.number}


@dataclass(frozen=True)
class SeatLine:
    seat: int
    role: str
    fouls: int
    out: Out | None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "role": self.role,
            "fouls": self.fouls,
            "out": self.out.to_json() if self.out else None,
        }


@dataclass(frozen=True)
class Elimination:
    seat: int
    how: str
    phase: str
    number: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "how": self.how, "phase": self.phase, "number": self.number}


@dataclass(frozen=True)
class BestMove:
    """The first-night victim's best move: the seats they named."""

    seat: int
    seats: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "seats": list(self.seats)}


@dataclass(frozen=True)
class GameInfo:
    id: str
    rules: str
    seats: int
    lang: str = "en"
    seed: int = 0
    settings: Mapping[str, Any] = field(default_factory=_empty)
    started: str = ""
    finished: str = ""
    event: EventInfo = EventInfo()
    # The rest of the protocol's `game` (title, clock, input, judge, fouls_out, best_move),
    # carried as written.
    more: Mapping[str, Any] = field(default_factory=_empty)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "rules": self.rules,
            "seats": self.seats,
            "lang": self.lang,
            "seed": self.seed,
            "settings": dict(self.settings),
            "started": self.started,
            "finished": self.finished,
            "event": self.event.to_json(),
            **dict(self.more),
        }


@dataclass(frozen=True)
class Protocol:
    game: GameInfo
    names: tuple[str, ...]
    seats: tuple[SeatLine, ...]
    eliminations: tuple[Elimination, ...] = ()
    best_move: BestMove | None = None
    winner: str | None = None
    reason: str | None = None
    over: bool = False
    abandoned: bool = False
    extra: Mapping[int, float] = field(default_factory=lambda: MappingProxyType({}))
    rest: Mapping[str, Any] = field(
        default_factory=_empty
    )  # nights, days, fouls, stands, players, scoring...

    @property
    def finished(self) -> bool:
        """Played to a result (not abandoned, not in play)."""
        return self.over and not self.abandoned

    @property
    def roles(self) -> tuple[str, ...]:
        return tuple(s.role for s in self.seats)

    @property
    def event(self) -> EventInfo:
        return self.game.event

    def name(self, seat: int) -> str:
        return self.names[seat - 1] if 0 < seat <= len(self.names) else ""

    def with_extra(self, extra: Mapping[int, float]) -> Protocol:
        return replace(self, extra=MappingProxyType({k: float(v) for k, v in sorted(extra.items()) if v}))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game.to_json(),
            "names": list(self.names),
            "extra": {str(k): v for k, v in sorted(self.extra.items())},
            "seats": [s.to_json() for s in self.seats],
            "eliminations": [e.to_json() for e in self.eliminations],
            "best_move": self.best_move.to_json() if self.best_move else None,
            "winner": self.winner,
            "reason": self.reason,
            "over": self.over,
            "abandoned": self.abandoned,
        }
        out.update({k: v for k, v in self.rest.items() if k not in out})
        return out

    def digest(self) -> str:
        return digest(self.to_json())

    @classmethod
    def from_json(cls, data: Any, source: str = "protocol") -> Protocol:
        """The protocol checked: RecordError naming `source`, the field and the problem."""
        return _Reader(source).protocol(data)


def digest(data: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


_TOP = (
    "game",
    "names",
    "extra",
    "seats",
    "eliminations",
    "best_move",
    "winner",
    "reason",
    "over",
    "abandoned",
)
_GAME = ("id", "rules", "seats", "lang", "seed", "settings", "started", "finished", "event")
SEATS_MAX = 99


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, problem: str) -> RecordError:
        return RecordError(self.source, where, problem)

    def obj(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"expected an object, got {type(value).__name__}")
        return value

    def seq(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(where, f"expected a list, got {type(value).__name__}")
        return value

    def text(self, value: Any, where: str, limit: int = 200) -> str:
        if not isinstance(value, str) or len(value) > limit:
            raise self.fail(where, f"expected a text of at most {limit} characters, got {value!r:.60}")
        return value

    def whole(self, value: Any, where: str, lo: int = 0, hi: int = 9999) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise self.fail(where, f"expected a whole number {lo}-{hi}, got {value!r:.60}")
        return value

    def maybe_whole(self, value: Any, where: str) -> int | None:
        return None if value is None else self.whole(value, where, 1, 9999)

    def maybe_text(self, value: Any, where: str) -> str | None:
        return None if value is None else self.text(value, where)

    def flag(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, f"expected true or false, got {value!r:.60}")
        return value

    def protocol(self, data: Any) -> Protocol:
        data = self.obj(data, "(top)")
        missing = [k for k in ("game", "seats", "over") if k not in data]
        if missing:
            raise self.fail("(top)", f"not a protocol: no {missing[0]!r}")
        game = self.game(data["game"])
        seats = tuple(self.seat(s, f"seats[{i}]") for i, s in enumerate(self.seq(data["seats"], "seats")))
        if len(seats) != game.seats or [s.seat for s in seats] != list(range(1, game.seats + 1)):
            raise self.fail("seats", f"expected seats 1 to {game.seats}, in order")
        names = tuple(
            self.text(n, f"names[{i}]", 80) for i, n in enumerate(self.seq(data.get("names", []), "names"))
        )
        if names and len(names) != game.seats:
            raise self.fail("names", f"{len(names)} names for {game.seats} seats")
        eliminations = tuple(
            self.elimination(e, f"eliminations[{i}]", game.seats)
            for i, e in enumerate(self.seq(data.get("eliminations", []), "eliminations"))
        )
        best = data.get("best_move")
        best_move = None
        if best is not None:
            best = self.obj(best, "best_move")
            best_move = BestMove(
                self.whole(best.get("seat"), "best_move.seat", 1, game.seats),
                tuple(
                    self.whole(s, "best_move.seats", 1, game.seats)
                    for s in self.seq(best.get("seats", []), "best_move.seats")
                ),
            )
        extra: dict[int, float] = {}
        for key, value in self.obj(data.get("extra") or {}, "extra").items():
            seat = int(key) if isinstance(key, str) and key.isdigit() else 0
            if not 1 <= seat <= game.seats:
                raise self.fail(f"extra.{key}", f"there is no seat {key}")
            if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
                raise self.fail(f"extra.{key}", f"expected a number, got {value!r:.60}")
            extra[seat] = float(value)
        return Protocol(
            game=game,
            names=names,
            seats=seats,
            eliminations=eliminations,
            best_move=best_move,
            winner=self.maybe_text(data.get("winner"), "winner"),
            reason=self.maybe_text(data.get("reason"), "reason"),
            over=self.flag(data["over"], "over"),
            abandoned=self.flag(data.get("abandoned", False), "abandoned"),
            extra=MappingProxyType(extra),
            rest=MappingProxyType({k: v for k, v in data.items() if k not in _TOP}),
        )

    def game(self, value: Any) -> GameInfo:
        g = self.obj(value, "game")
        event = self.obj(g.get("event") or {}, "game.event")
        return GameInfo(
            id=self.text(g.get("id"), "game.id", 80),
            rules=self.text(g.get("rules"), "game.rules"),
            seats=self.whole(g.get("seats"), "game.seats", 1, SEATS_MAX),
            lang=self.text(g.get("lang", "en"), "game.lang", 10),
            seed=self.whole(g.get("seed", 0), "game.seed", 0, 2**63),
            settings=MappingProxyType(dict(self.obj(g.get("settings", {}), "game.settings"))),
            started=self.text(g.get("started", ""), "game.started", 40),
            finished=self.text(g.get("finished", ""), "game.finished", 40),
            event=EventInfo(
                self.text(event.get("tournament") or "", "game.event.tournament"),
                self.maybe_whole(event.get("table"), "game.event.table"),
                self.maybe_whole(event.get("round"), "game.event.round"),
                self.maybe_whole(event.get("game"), "game.event.game"),
                tuple(k for k in EVENT_KEYS if k in event),
            ),
            more=MappingProxyType({k: v for k, v in g.items() if k not in _GAME}),
        )

    def seat(self, value: Any, where: str) -> SeatLine:
        s = self.obj(value, where)
        out = s.get("out")
        return SeatLine(
            self.whole(s.get("seat"), f"{where}.seat", 1, SEATS_MAX),
            self.text(s.get("role", ""), f"{where}.role", 40),
            self.whole(s.get("fouls", 0), f"{where}.fouls", 0, 99),
            None if out is None else self.out(out, f"{where}.out"),
        )

    def out(self, value: Any, where: str) -> Out:
        o = self.obj(value, where)
        return Out(
            self.text(o.get("how"), f"{where}.how", 20),
            self.text(o.get("phase"), f"{where}.phase", 20),
            self.whole(o.get("number"), f"{where}.number", 0, 999),
        )

    def elimination(self, value: Any, where: str, seats: int) -> Elimination:
        e = self.obj(value, where)
        out = self.out(e, where)
        return Elimination(
            self.whole(e.get("seat"), f"{where}.seat", 1, seats), out.how, out.phase, out.number
        )
