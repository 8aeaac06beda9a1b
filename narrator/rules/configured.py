"""A rule set as a game is set up to play it, resolved once and passed along.

A set-up names its rule set by a string (a bundled rule set's name or a rule-set file)
with the settings the organiser chose (a preset's under them). `resolve` turns that into
one value when the set-up is accepted: the rule set as its file gives it (`base`), the
chosen settings, and the rule set with them, checked for the table (`rules`). The
set-up's checks, the answer-display check, the warm-up and the journal's header read
that value rather than parsing the file again each time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from narrator.engine.ruleset import RuleSet
from narrator.rules.loader import load
from narrator.rules.settings import configure, resolved, with_preset


@dataclass(frozen=True, slots=True)
class ConfiguredRules:
    name: str  # as the set-up names it: a bundled rule set's name or a rule-set file
    base: RuleSet  # as its file gives it
    settings: Mapping[str, Any]  # the chosen values (a preset's under the given ones)
    seats: int | None  # the table they were checked for (None: not checked for one)
    rules: RuleSet  # `base` with `settings`

    def fits(self, name: str, settings: Mapping[str, Any], seats: int | None) -> bool:
        """Whether this is the resolution of that rule set, those settings and that table
        (then nothing needs resolving again)."""
        return (self.name == name and self.seats == seats
                and dict(self.settings) == dict(settings))

    def resolved_settings(self) -> dict[str, Any]:
        """Every declared setting's value: what the journal's header keeps."""
        return resolved(self.base, self.settings)

    def for_table(self, seats: int) -> ConfiguredRules:
        """The same choice checked for another table (the file is not read again)."""
        if seats == self.seats:
            return self
        return ConfiguredRules(self.name, self.base, self.settings, seats,
                               configure(self.base, self.settings, seats))


def resolve(name: str, settings: Mapping[str, Any], seats: int | None = None,
            preset: str | None = None, base: RuleSet | None = None) -> ConfiguredRules:
    """The rule set `name` with these settings over the named preset's, checked for the
    table (InputFileError for a file that can't be read, SettingError for a value or a
    table the rule set refuses). `base`: the rule set already read from `name`."""
    rules = base if base is not None else load(name)
    values = with_preset(rules, preset, settings)
    return ConfiguredRules(name, rules, MappingProxyType(dict(values)), seats,
                           configure(rules, values, seats))
