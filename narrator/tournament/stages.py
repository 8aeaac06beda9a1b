"""A tournament's stages, as FIIM runs them: the main rounds, an optional semi-final, a
final of the top 10 at one table. Each later stage has its own games, a multiplier of
its games' points (the MAF World Cup: the final x1.5) and may switch off the points that
come of night kills (a short final: the first killed's guess, Ci); it is seated from the
standings once the stage before it is complete, and sent to the boxes like any round.

`--semi [PLAYERS:]GAMES[xMULT][,no-night]` (20 players at 2 tables unless given) and
`--final GAMES[xMULT][,no-night]` (10 at one table). The rounds each stage was seated at
are kept in the store (`stages`); a player who reached a later stage ranks above every
player who did not, by points over all their games.

`--hide-extra`: while a stage is in play, the organiser's extra points of its games are
left out of the standings the public sees (the organiser signed in sees them all).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from narrator.errors import NarratorError

STAGES = ("main", "semi", "final")
_SPEC = re.compile(r"^(?:(\d+):)?(\d+)(?:x(\d+(?:\.\d+)?))?((?:,[a-z-]+)*)$")


class StageError(NarratorError, ValueError):
    """A stage that cannot be read or seated (one line)."""


@dataclass(frozen=True)
class Stage:
    name: str  # one of STAGES
    players: int  # 0: the whole field (main)
    games: int  # each player's (main: the tournament's games or rounds)
    multiplier: float = 1.0
    night: bool = True  # the points of night kills (the guess, Ci) count


def parse(name: str, text: str) -> Stage:
    """A stage from its flag's text; StageError naming the flag and the problem."""
    m = _SPEC.match(text.strip().lower())
    flag = f"--{name}"
    if not m:
        raise StageError(f"{flag} {text!r}: expected [PLAYERS:]GAMES[xMULTIPLIER][,no-night], e.g. 4x1.5")
    players = int(m.group(1)) if m.group(1) else (20 if name == "semi" else 10)
    games, mult = int(m.group(2)), float(m.group(3) or 1.0)
    options = [o for o in m.group(4).split(",") if o]
    for o in options:
        if o != "no-night":
            raise StageError(f"{flag} {text!r}: {o!r} is not an option (no-night)")
    if name == "final" and players != 10:
        raise StageError(f"{flag} {text!r}: a final is 10 players at one table")
    if players % 10 or players < 10:
        raise StageError(f"{flag} {text!r}: {players} players do not fill tables of 10")
    if not 1 <= games <= 20 or not 0 < mult <= 10:
        raise StageError(f"{flag} {text!r}: 1 to 20 games, a multiplier above 0 up to 10")
    return Stage(name, players, games, mult, "no-night" not in options)


@dataclass(frozen=True)
class Plan:
    """The stages as seated: which rounds each has, who reached which."""

    stages: Sequence[Stage]
    rounds: Mapping[str, tuple[int, int]]  # stage -> its first and last round
    reached: Mapping[int, int] = field(default_factory=dict)  # player id -> the last stage's index
    hidden: frozenset[int] = frozenset()  # rounds whose extra points the public does not see

    def of_round(self, rnd: int) -> Stage | None:
        for stage in self.stages:
            first, last = self.rounds.get(stage.name, (0, -1))
            if first <= rnd <= last:
                return stage
        return None

    def index(self, name: str) -> int:
        return next(i for i, s in enumerate(self.stages) if s.name == name)


def plan(
    stages: Sequence[Stage],
    rounds: Mapping[str, Sequence[int]],
    seating: Mapping[int, Mapping[int, Sequence[int]]],
    done: Iterable[tuple[int, int]],
    hide_extra: bool,
) -> Plan:
    kept = {k: (int(v[0]), int(v[1])) for k, v in rounds.items()}
    made = Plan(stages, kept)
    reached: dict[int, int] = {}
    for rnd, tables in seating.items():
        stage = made.of_round(rnd)
        at = made.index(stage.name) if stage else 0
        for seated in tables.values():
            for p in seated:
                reached[p] = max(reached.get(p, 0), at)
    hidden: set[int] = set()
    if hide_extra:
        finished = set(done)
        for first, last in kept.values():
            span = range(first, last + 1)
            if any((r, t) not in finished for r in span for t in seating.get(r, {})):
                hidden |= set(span)
    return Plan(stages, kept, reached, frozenset(hidden))


def next_stage(stages: Sequence[Stage], rounds: Mapping[str, Sequence[int]]) -> Stage | None:
    return next((s for s in stages if s.name not in rounds), None)


def complete(
    rounds: Sequence[int], seating: Mapping[int, Mapping[int, Sequence[int]]], done: Iterable[tuple[int, int]]
) -> bool:
    finished = set(done)
    return all((r, t) in finished for r in rounds for t in seating.get(r, {}))
