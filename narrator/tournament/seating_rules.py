"""The seating's rules and weights: `seating.yaml` beside this module holds the defaults;
an organiser's file of the same keys (any of them) goes over it, and may add the pairs
kept apart and the tables' judges by the players' names:

    apart:
      pairs: [[Anna, Boris], [Clara, Dmitri]]
    judges: {1: Judge Ivanova, 2: Judge Petrov}
    conflicts: {Judge Ivanova: [Anna]}

A wrong file is one ConfigError naming the file, the key and the problem.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from narrator.errors import ConfigError
from narrator.yamlfile import parse_yaml, read_text

DEFAULTS = "seating.yaml"


@dataclass(frozen=True)
class SeatingRules:
    restarts: int = 4
    effort: int = 100
    meetings_weight: float = 1.0
    meetings_power: float = 4.0
    club: float = 100.0
    declared: float = 1000.0
    seat_numbers: Mapping[int, float] = field(default_factory=lambda: {1: 4.0, 2: 3.0, 10: 2.0})
    seat_pairs: float = 1.0
    table_halves: float = 1.0
    table_balance: float = 0.3
    judge: float = 1000.0
    # By the players' names (an organiser's file): resolved against the field by `named`.
    apart_pairs: tuple[tuple[str, str], ...] = ()
    judges: Mapping[int, str] = field(default_factory=dict)
    conflicts: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    source: str = DEFAULTS

    def seat_weight(self, seat: int) -> float:
        """Seat number `seat` (from 1)."""
        return float(self.seat_numbers.get(seat, 1.0))

    def named(
        self, names: Sequence[str]
    ) -> tuple[list[tuple[int, int]], dict[int, str], list[tuple[str, int]]]:
        """The declared pairs, judges and conflicts as player indexes into `names`; a name
        not in the field is refused, naming the file and the key."""
        index: dict[str, int] = {}
        for i, name in enumerate(names):
            index.setdefault(_key(name), i)

        def find(name: str, where: str) -> int:
            if _key(name) not in index:
                raise ConfigError(self.source, where, f"{name!r} is not a player of this tournament")
            return index[_key(name)]

        pairs = [(find(a, "apart.pairs"), find(b, "apart.pairs")) for a, b in self.apart_pairs]
        conflicts = [(j, find(p, f"conflicts.{j}")) for j, ps in self.conflicts.items() for p in ps]
        return pairs, dict(self.judges), conflicts


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def default_rules() -> SeatingRules:
    text = (resources.files("narrator.tournament") / DEFAULTS).read_text(encoding="utf-8")
    return parse_rules(text, DEFAULTS, SeatingRules(source=DEFAULTS))


def load_rules(path: str | Path) -> SeatingRules:
    """An organiser's file over the defaults."""
    return parse_rules(read_text(path, ConfigError), str(path), default_rules())


# key -> (where it goes, kind, low, high); kinds: int, number, seats, pairs, judges, conflicts
_KEYS: dict[str, dict[str, tuple[str, str, float, float]]] = {
    "search": {"restarts": ("restarts", "int", 1, 64), "effort": ("effort", "int", 1, 100_000)},
    "meetings": {
        "weight": ("meetings_weight", "number", 0, 1e6),
        "power": ("meetings_power", "number", 1, 8),
    },
    "apart": {
        "club": ("club", "number", 0, 1e6),
        "declared": ("declared", "number", 0, 1e6),
        "pairs": ("apart_pairs", "pairs", 0, 0),
    },
    "seats": {
        "numbers": ("seat_numbers", "seats", 0, 1e6),
        "pairs": ("seat_pairs", "number", 0, 1e6),
        "halves": ("table_halves", "number", 0, 1e6),
    },
    "tables": {"balance": ("table_balance", "number", 0, 1e6), "judge": ("judge", "number", 0, 1e6)},
}
_LISTS = {"judges": ("judges", "judges"), "conflicts": ("conflicts", "conflicts")}


def parse_rules(text: str, source: str, base: SeatingRules) -> SeatingRules:
    data = parse_yaml(text, source, ConfigError)
    if data is None:
        return replace(base, source=source)
    if not isinstance(data, dict):
        raise ConfigError(source, "(top)", f"expected a mapping of sections, got {type(data).__name__}")
    changes: dict[str, Any] = {"source": source}
    for section, body in data.items():
        if section in _LISTS:
            name, kind = _LISTS[section]
            changes[name] = _value(body, kind, 0, 0, source, str(section))
            continue
        if section not in _KEYS:
            known = ", ".join([*_KEYS, *_LISTS])
            raise ConfigError(source, str(section), f"not a section of the seating's rules (known: {known})")
        if not isinstance(body, dict):
            raise ConfigError(source, str(section), f"expected a mapping, got {type(body).__name__}")
        for key, value in body.items():
            where = f"{section}.{key}"
            if key not in _KEYS[section]:
                known = ", ".join(_KEYS[section])
                raise ConfigError(source, where, f"not a key of {section} (known: {known})")
            name, kind, low, high = _KEYS[section][key]
            changes[name] = _value(value, kind, low, high, source, where)
    return replace(base, **changes)


def _value(value: Any, kind: str, low: float, high: float, source: str, where: str) -> Any:
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ConfigError(
                source, where, f"expected a whole number from {low:g} to {high:g}, got {value!r}"
            )
        return value
    if kind == "number":
        return _number(value, low, high, source, where)
    if kind == "seats":
        if not isinstance(value, dict):
            raise ConfigError(source, where, "expected seat number: weight, e.g. {1: 4, 2: 3, 10: 2}")
        out: dict[int, float] = {}
        for seat, w in value.items():
            if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= 99:
                raise ConfigError(source, f"{where}.{seat}", "not a seat number (1 to 99)")
            out[seat] = _number(w, low, high, source, f"{where}.{seat}")
        return out
    if kind == "pairs":
        if not isinstance(value, list):
            raise ConfigError(source, where, "expected a list of pairs of names, e.g. [[Anna, Boris]]")
        pairs = []
        for i, pair in enumerate(value):
            names = _names(pair, source, f"{where}[{i}]")
            if len(names) != 2 or _key(names[0]) == _key(names[1]):
                raise ConfigError(source, f"{where}[{i}]", "expected two different players' names")
            pairs.append((names[0], names[1]))
        return tuple(pairs)
    if kind == "judges":
        if not isinstance(value, dict):
            raise ConfigError(source, where, "expected table number: judge's name, e.g. {1: Judge Ivanova}")
        judges: dict[int, str] = {}
        for table, judge in value.items():
            if isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= 999:
                raise ConfigError(source, f"{where}.{table}", "not a table number (1 to 999)")
            judges[table] = _names([judge], source, f"{where}.{table}")[0]
        return judges
    # conflicts: judge -> players
    if not isinstance(value, dict):
        raise ConfigError(source, where, "expected judge's name: [players' names]")
    return {
        _names([judge], source, where)[0]: tuple(
            _names(ps if isinstance(ps, list) else [ps], source, f"{where}.{judge}")
        )
        for judge, ps in value.items()
    }


def _number(value: Any, low: float, high: float, source: str, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ConfigError(source, where, f"expected a number, got {value!r}")
    if not low <= value <= high:
        raise ConfigError(source, where, f"expected a number from {low:g} to {high:g}, got {value!r}")
    return float(value)


def _names(value: Any, source: str, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ConfigError(source, where, f"expected players' names, got {value!r}")
    return [" ".join(v.split()) for v in value]
