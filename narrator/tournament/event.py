"""What the organiser set when the tournament began: its name, tables, rounds, rule set,
preset and language. It lives in the collector's store (`Store.tournament`), so a
collector started again with only `--state-dir` is the same tournament; `resume` takes
the flags given on the command line and refuses, in one line, those the store contradicts.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from narrator.engine.ruleset import RuleSet, same_value
from narrator.errors import NarratorError
from narrator.rules.configured import ConfiguredRules

if TYPE_CHECKING:
    from narrator.tournament.scoring import Scoring
    from narrator.tournament.seating_rules import SeatingRules
    from narrator.tournament.stages import Stage


class TournamentError(NarratorError, ValueError):
    """Flags that contradict the tournament kept in the store, or a wrong value (one line)."""


@dataclass(frozen=True)
class Tournament:
    name: str = "Tournament"
    rules: str = "sport"  # a bundled rule set: a box never plays a file the collector names
    preset: str = ""
    settings: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))  # the preset's values
    lang: str = "en"
    tables: int = 0  # at most this many a round; 0: as many as the players fill (set when seated)
    rounds: int = 8  # with `games`: as many as the seating needs (set when seated)
    seats: int = 10
    seed: int = 1  # the seating's
    date: str = ""  # the day it began (YYYY-MM-DD): on the printed sheet and the exports
    games: int = 0  # each player's, any field (the rest sit out in turn); 0: one every round
    seating: str = ""  # the organiser's seating file (YAML over seating.yaml); "": the defaults
    scoring: str = ""  # narrator/rules/scorings/NAME.yaml; "": the rule set's own
    semi: str = ""  # a semi-final after the main rounds: [PLAYERS:]GAMES[xMULT][,no-night]
    final: str = ""  # a final of the top 10 at one table: GAMES[xMULT][,no-night]
    hide_extra: bool = False  # a stage's extra points hidden from the public while it plays

    # The flags of `narrator tournament` that set these fields (the others are set once).
    FLAGS = (
        "name",
        "rules",
        "preset",
        "lang",
        "tables",
        "rounds",
        "seed",
        "games",
        "seating",
        "scoring",
        "semi",
        "final",
        "hide_extra",
    )

    def to_json(self) -> dict[str, Any]:
        return {
            f.name: dict(v) if isinstance(v := getattr(self, f.name), Mapping) else v for f in fields(self)
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tournament:
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        if "settings" in values:
            values["settings"] = MappingProxyType(dict(values["settings"]))
        return cls(**values)

    @property
    def rule_set(self) -> RuleSet:
        """The rule set with the preset's settings, for a table of `seats`."""
        return self.configured(self.seats).rules

    def scoring_of(self) -> Scoring | None:
        from narrator.tournament.scoring import chosen

        return chosen(self.scoring, self.rule_set)

    def stages(self) -> list[Stage]:
        """The main rounds, then the semi-final and the final the organiser set."""
        from narrator.tournament.stages import Stage, parse

        out = [Stage("main", 0, self.games or self.rounds)]
        out += [parse(name, text) for name, text in (("semi", self.semi), ("final", self.final)) if text]
        return out

    def table_count(self, players: int) -> int:
        """The tables a round has at most: as set, else as many as `players` fill."""
        return self.tables or max(1, players // self.seats)

    def seating_rules(self) -> SeatingRules:
        from narrator.tournament.seating_rules import default_rules, parse_rules

        if not self.seating:
            return default_rules()
        return parse_rules(self.seating, "the seating file", default_rules())

    def configured(self, seats: int) -> ConfiguredRules:
        """The rule set with the preset's settings, checked for a table of `seats` (read
        once: the collector asks for every delivery)."""
        return _configured(self.rules, json.dumps(dict(self.settings), sort_keys=True), seats)


@lru_cache(maxsize=16)
def _configured(rules: str, settings: str, seats: int) -> ConfiguredRules:
    from narrator.rules.configured import resolve

    return resolve(rules, json.loads(settings), seats)


def settings_differ(mine: Mapping[str, Any], theirs: Mapping[str, Any]) -> list[str]:
    """The settings whose values differ (a list from JSON equals a tuple)."""
    keys = sorted(set(mine) | set(theirs))
    return [k for k in keys if k not in mine or k not in theirs or not same_value(mine[k], theirs[k])]


def today() -> str:
    return dt.date.today().isoformat()


def resume(
    stored: Tournament | None, given: Mapping[str, Any], settings: Mapping[str, Any] | None
) -> Tournament:
    """The tournament to run: the stored one, or a new one from the flags given (None:
    not given). A flag that contradicts the stored tournament is refused (TournamentError:
    one line naming every such flag and the stored value)."""
    chosen = {k: v for k, v in given.items() if v is not None}
    if stored is None:
        fresh = replace(Tournament(), **chosen, date=today())
        return replace(fresh, settings=MappingProxyType(dict(settings or {})))
    wrong = [
        "--seating (another file than the one it was set up with)"
        if k == "seating"
        else f"--{k} {v!r} (it is {getattr(stored, k)!r})"
        for k, v in chosen.items()
        if getattr(stored, k) != v
    ]
    if wrong:
        raise TournamentError(
            f"the tournament {stored.name!r} kept here was set up otherwise: {', '.join(wrong)}; "
            "leave these flags out to go on with it"
        )
    return stored
