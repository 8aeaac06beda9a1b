"""The registry: every task, night ability, intervention, win check, day procedure and
elimination hook the engine can run, put together here and nowhere else.

Each rule module lists its own hooks in module-level tables (`TASKS`, `ABILITIES`, ...);
this module merges them, refusing a name given twice. A new hook goes in its module's
table, and a new module gets one line below. Nothing registers itself on import.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, TypeVar

from narrator.engine import (
    abilities,
    days,
    discussion,
    inquiry,
    maniac,
    night,
    proposals,
    protection,
    turncoat,
    verdict,
    visits,
    voting,
    wins,
)
from narrator.engine.context import Registry

K = TypeVar("K")
V = TypeVar("V")


def merged(*tables: Mapping[K, V]) -> dict[K, V]:
    """One table from several; a key in two of them is a programming error."""
    out: dict[K, V] = {}
    for table in tables:
        for key, value in table.items():
            if key in out:
                raise ValueError(f"{key!r} is registered twice")
            out[key] = value
    return out


REGISTRY: Final = Registry(
    tasks=merged(night.TASKS, inquiry.TASKS, days.TASKS, voting.TASKS, discussion.TASKS,
                 proposals.TASKS),
    abilities=merged(abilities.ABILITIES, protection.ABILITIES, visits.ABILITIES,
                     inquiry.ABILITIES),
    interventions=merged(verdict.INTERVENTIONS),
    wins=merged(wins.WINS, maniac.WINS),
    procedures=merged(days.PROCEDURES, discussion.PROCEDURES, proposals.PROCEDURES),
    on_elimination=(turncoat.turn,),
)
