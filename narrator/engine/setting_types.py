"""What a rule set lets a club change: its declared settings, and the tables it forbids.

Pure data, read from the rule set's YAML by narrator.rules. A `Setting` names the rule-set
field it changes (`fouls.cancel_vote`, `night.lover_visit.args.blocks`, `deck.mafia`...),
or, with `sets`, a word of its own whose values each change several fields (`opens_with:
day` moves two night steps). `RuleSet.with_settings` checks every value against its
declaration and applies it; `Limit`s are checked before a game starts
(narrator.rules.limits holds their hooks).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

KINDS = ("choice", "bool", "int", "seconds", "roles")
Value = str | int | bool


@dataclass(frozen=True, slots=True)
class Choice:
    value: Value
    text: Mapping[str, str]  # a label by language


@dataclass(frozen=True, slots=True)
class Setting:
    key: str  # the rule-set field it changes, or (with `sets`) a name of its own
    kind: str  # one of KINDS
    default: Any  # the rule set's own value
    text: Mapping[str, str]  # a short label by language
    choices: tuple[Choice, ...] = ()  # for kind "choice"
    minimum: float | None = None  # for "int" and "seconds"
    maximum: float | None = None
    rule: str = ""  # the document's rule it follows or departs from
    # A setting with no field of its own: what each of its values sets, field by field.
    sets: Mapping[Value, Mapping[str, Any]] = field(default_factory=dict)

    def check(self, value: Any) -> Any:
        """The value in the rule set's own type, or ValueError saying what is allowed."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError("must be true or false")
            return value
        if self.kind == "roles":
            # A list of roles among the choices (boxed: the special roles in play); from
            # the command line as words: "doctor,boss" or "[doctor, boss]".
            if isinstance(value, str):
                value = [v for v in value.strip("[] ").replace(",", " ").split() if v]
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise ValueError("must be a list of roles")
            allowed = [str(c.value) for c in self.choices]
            for v in value:
                if v not in allowed:
                    raise ValueError(f"{v!r} is not one of {', '.join(allowed)}")
            return tuple(value)
        if self.kind == "choice":
            for c in self.choices:
                # A form may send 2 as "2": the declared value is the one kept.
                if value == c.value and isinstance(value, bool) == isinstance(c.value, bool):
                    return c.value
                if isinstance(value, str) and not isinstance(c.value, str) and value == str(c.value):
                    return c.value
            raise ValueError(f"must be one of {', '.join(str(c.value) for c in self.choices)}")
        number_ok = isinstance(value, int | float) and not isinstance(value, bool)
        if self.kind == "int" and not (number_ok and float(value).is_integer()):
            raise ValueError("must be a whole number")
        if not number_ok or not math.isfinite(value):
            raise ValueError("must be a number of seconds")
        low = self.minimum if self.minimum is not None else -math.inf
        high = self.maximum if self.maximum is not None else math.inf
        if not low <= value <= high:
            raise ValueError(f"must be from {_num(low)} to {_num(high)}")
        return int(value) if self.kind == "int" else float(value)

    def fields(self, value: Any) -> dict[str, Any]:
        """The rule-set fields this (checked) value sets."""
        if self.sets:
            return dict(self.sets[value])
        return {self.key: value}

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        default = list(self.default) if isinstance(self.default, tuple) else self.default
        out: dict[str, Any] = {"key": self.key, "kind": self.kind, "default": default,
                               "label": _text(self.text, lang), "rule": self.rule}
        if self.choices:
            out["choices"] = [{"value": c.value, "label": _text(c.text, lang)} for c in self.choices]
        if self.minimum is not None:
            out["min"] = self.minimum
        if self.maximum is not None:
            out["max"] = self.maximum
        return out


@dataclass(frozen=True, slots=True)
class Limit:
    """A table the document forbids: `check` names a hook in narrator.rules.limits."""

    check: str
    rule: str  # the document's words, quoted in the refusal
    settings: tuple[str, ...] = ()  # the settings it concerns, named in the refusal
    args: Mapping[str, Any] = field(default_factory=dict)


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _text(text: Mapping[str, str], lang: str) -> str:
    return text.get(lang) or text.get("en", "")
