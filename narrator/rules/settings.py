"""Rule-set settings: what a club may change, as each rule set's YAML declares it.

A rule set lists its settings under `settings:`, keyed by the rule-set field each one
changes (`fouls.cancel_vote`, `day.speech`, `best_move`...). A declaration gives the kind
of value (`choice`, `bool`, `int`, `seconds`), the values allowed, a label in English
and Russian, and the document's rule the setting follows or departs from; the default is
the rule set's own value, so it is written once. Keys every rule set shares (timers and
the like) are described once in `common_settings.yaml`: a rule set names them with no
body, or with only what differs (its own `rule:`, fewer `values:`).

`limits:` lists what the documents forbid for a table: a hook from `LIMITS`
(narrator.rules.limits) with its arguments, the settings it concerns and the rule's words.
`configure` checks values and limits before a game starts, and refuses with one line
that names the setting and the rule (a SettingError, exit 2 on the command line).

The API the set-up page and the service use:
- `declared(rules)`: the Setting declarations, in the rule set's order;
- `describe(rules, lang)`: the same as JSON-ready dicts in one language (for a form);
- `configure(rules, values, seats)`: the rule set with these settings, checked.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from narrator.engine.ruleset import RuleSet
from narrator.errors import ConfigError, RuleSetError
from narrator.yamlfile import parse_yaml

LANGUAGES = ("en", "ru")
KINDS = ("choice", "bool", "int", "seconds", "roles")


class SettingError(ConfigError):
    """A setting, or a table, that the rule set refuses: names the setting and the rule.

    `path` is the rule set's name, `where` the settings and seats concerned; `setting` is
    the one key at fault when a single value is wrong (None for a refused table)."""

    def __init__(self, path: str, where: str, problem: str, setting: str | None = None) -> None:
        super().__init__(path, where, problem)
        self.setting = setting


@dataclass(frozen=True)
class Choice:
    value: str
    text: Mapping[str, str]  # a label by language


@dataclass(frozen=True)
class Setting:
    key: str  # the rule-set field it changes, e.g. "fouls.cancel_vote"
    kind: str  # one of KINDS
    default: Any  # the rule set's own value
    text: Mapping[str, str]  # a short label by language
    choices: tuple[Choice, ...] = ()  # for kind "choice"
    minimum: float | None = None  # for "int" and "seconds"
    maximum: float | None = None
    rule: str = ""  # the document's rule it follows or departs from

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
            allowed = [c.value for c in self.choices]
            for v in value:
                if v not in allowed:
                    raise ValueError(f"{v!r} is not one of {', '.join(allowed)}")
            return tuple(value)
        if self.kind == "choice":
            allowed = [c.value for c in self.choices]
            if value not in allowed:
                raise ValueError(f"must be one of {', '.join(allowed)}")
            return value
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


@dataclass(frozen=True)
class Limit:
    """A table the document forbids: `check` names a hook in narrator.rules.limits."""

    check: str
    rule: str  # the document's words, quoted in the refusal
    settings: tuple[str, ...] = ()  # the settings it concerns, named in the refusal
    args: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Declarations:
    settings: tuple[Setting, ...] = ()
    limits: tuple[Limit, ...] = ()

    def find(self, key: str) -> Setting | None:
        return next((s for s in self.settings if s.key == key), None)


# Declarations by rule-set source (the file name or path the loader was given).
_DECLARED: dict[str, Declarations] = {}


def register(source: str, declarations: Declarations) -> None:
    _DECLARED[source] = declarations


def declarations(rules: RuleSet) -> Declarations:
    return _DECLARED.get(rules.source, Declarations())


def declared(rules: RuleSet) -> tuple[Setting, ...]:
    return declarations(rules).settings


def describe(rules: RuleSet, lang: str = "en") -> list[dict[str, Any]]:
    """The settings as a set-up form lists them: key, kind, default, label, choices..."""
    return [s.to_json(lang) for s in declared(rules)]


def current_value(rules: RuleSet, key: str) -> Any:
    """The rule set's value for a settings key ("day.speech", "best_move"...)."""
    section, _, name = key.rpartition(".")
    holder: Any = rules if not section else getattr(rules, section, None)
    if holder is None or not hasattr(holder, name) or name.startswith("_"):
        raise KeyError(key)
    return getattr(holder, name)


def configure(rules: RuleSet, values: Mapping[str, Any], seats: int | None = None) -> RuleSet:
    """The rule set with these settings, refused before a game starts when a value is not
    one the declaration allows or when the table breaks one of the rule set's limits."""
    decl = declarations(rules)
    checked: dict[str, Any] = {}
    for key, value in values.items():
        setting = decl.find(key)
        if setting is None:
            known = ", ".join(s.key for s in decl.settings) or "none"
            raise SettingError(rules.name, str(key), f"not a setting of this rule set (known: {known})",
                               str(key))
        try:
            checked[key] = setting.check(value)
        except ValueError as exc:
            raise SettingError(rules.name, f"{key}={_show(value)}", str(exc), key) from None
    try:
        configured = rules.with_settings(checked)
    except ValueError as exc:  # a declaration the engine cannot apply: the file is wrong
        raise RuleSetError(rules.source or rules.name, "settings", str(exc)) from None
    if seats is not None:
        check_table(configured, seats, checked)
    return configured


def check_table(rules: RuleSet, seats: int, values: Mapping[str, Any] | None = None) -> None:
    """Refuse a table (seats with these settings) that one of the rule set's limits forbids."""
    from narrator.rules.limits import LIMITS

    values = dict(values or {})
    for limit in declarations(rules).limits:
        problem = LIMITS[limit.check].check(rules, seats, limit)
        if problem:
            raise SettingError(rules.name, _where(limit, seats, values), f"{problem}: {limit.rule}")
    try:
        rules.deck_for(seats)
    except ValueError as exc:
        raise SettingError(rules.name, _where(Limit("seats", ""), seats, values), str(exc)) from None


def _where(limit: Limit, seats: int, values: Mapping[str, Any]) -> str:
    named = [f"{k}={_show(values[k])}" for k in limit.settings if k in values]
    return ", ".join([*named, f"{seats} players"])


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _text(text: Mapping[str, str], lang: str) -> str:
    return text.get(lang) or text.get("en", "")


# --- reading declarations (the loader calls these) -----------------------------------------


@cache
def common() -> Mapping[str, Any]:
    """The descriptions of settings shared by the rule sets (common_settings.yaml)."""
    item = resources.files("narrator.rules") / "common_settings.yaml"
    data = parse_yaml(item.read_text(encoding="utf-8"), "common_settings.yaml", RuleSetError)
    if not isinstance(data, dict):
        raise RuleSetError("common_settings.yaml", "", "expected a mapping of settings")
    return data


Fail = Callable[[str, str], RuleSetError]


def read_settings(data: Any, rules: RuleSet, fail: Fail) -> tuple[Setting, ...]:
    """The `settings:` section of a rule set, checked against the rules it changes."""
    if data is None:
        return ()
    if not isinstance(data, dict):
        raise fail("settings", f"expected a mapping of settings, got {data!r}")
    out: list[Setting] = []
    shared = common()
    for key, body in data.items():
        where = f"settings.{key}"
        if body is None:
            body = {}
        if not isinstance(body, dict):
            raise fail(where, f"expected a mapping, got {body!r}")
        base = shared.get(key, {})
        spec = {**base, **body}
        if not spec:
            raise fail(where, "not described here nor in common_settings.yaml")
        out.append(_setting(str(key), spec, base, rules, fail, where))
    return tuple(out)


_SETTING_KEYS = {"kind", "values", "en", "ru", "min", "max", "rule"}


def _setting(key: str, spec: Mapping[str, Any], base: Mapping[str, Any], rules: RuleSet,
             fail: Fail, where: str) -> Setting:
    for name in spec:
        if name not in _SETTING_KEYS:
            raise fail(f"{where}.{name}", "unknown key")
    kind = spec.get("kind")
    if kind not in KINDS:
        raise fail(f"{where}.kind", f"expected one of {', '.join(KINDS)}, got {kind!r}")
    text = {}
    for lang in LANGUAGES:
        label = spec.get(lang)
        if not isinstance(label, str) or not label:
            raise fail(f"{where}.{lang}", "a label in every language is needed")
        text[lang] = label
    try:
        default = current_value(rules, key)
    except KeyError:
        raise fail(where, "no such field in the rule set") from None
    choices: tuple[Choice, ...] = ()
    if kind == "roles":
        choices = _role_choices(spec.get("values"), rules, fail, f"{where}.values")
    elif kind == "choice":
        choices = _choices(spec.get("values"), base.get("values"), fail, f"{where}.values")
    elif "values" in spec:
        raise fail(f"{where}.values", f"only a choice has values, this is {kind}")
    low, high = spec.get("min"), spec.get("max")
    for name, bound in (("min", low), ("max", high)):
        if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int | float)):
            raise fail(f"{where}.{name}", f"expected a number, got {bound!r}")
    rule = spec.get("rule", "")
    if not isinstance(rule, str):
        raise fail(f"{where}.rule", f"expected text, got {rule!r}")
    setting = Setting(key, kind, default, text, choices,
                      None if low is None else float(low), None if high is None else float(high), rule)
    try:
        setting.check(default)
    except ValueError as exc:
        raise fail(where, f"the rule set's own value {_show(default)} {exc}") from None
    for value in [c.value for c in choices] if kind == "choice" else [default]:
        try:
            rules.with_settings({key: value})
        except ValueError as exc:
            raise fail(where, str(exc)) from None
    return setting


def _role_choices(given: Any, rules: RuleSet, fail: Fail, where: str) -> tuple[Choice, ...]:
    """The roles a `roles` setting may name: the listed ones, or the setup's special
    roles; labelled with the rule set's card names from the phrase books."""
    from narrator.phrases.book import PhraseBook

    if given is None:
        groups = rules.setup.groups.values() if rules.setup else ()
        given = [r for group in groups for r in group]
    if not isinstance(given, list) or not given or any(r not in rules.roles for r in given):
        raise fail(where, f"expected a list of this rule set's roles, got {given!r}")
    books = {lang: PhraseBook.load(lang).for_rules(rules.name) for lang in LANGUAGES}
    return tuple(Choice(r, {lang: book.role_name(r) for lang, book in books.items()})
                 for r in given)


def _choices(given: Any, described: Any, fail: Fail, where: str) -> tuple[Choice, ...]:
    """A choice's values: labelled here ({value: {en, ru}}), or a list picking some of the
    values common_settings.yaml labels."""
    labels = described if isinstance(described, dict) else {}
    if isinstance(given, list):
        picked = {}
        for i, value in enumerate(given):
            if value not in labels:
                raise fail(f"{where}[{i}]", f"{value!r} has no label (labelled: {', '.join(labels)})")
            picked[value] = labels[value]
        given = picked
    if not isinstance(given, dict) or not given:
        raise fail(where, "a choice needs its values with labels")
    out = []
    for value, text in given.items():
        if (not isinstance(text, dict) or set(text) != set(LANGUAGES)
                or any(not isinstance(text[lang], str) or not text[lang] for lang in LANGUAGES)):
            raise fail(f"{where}.{value}", "a label in every language is needed")
        out.append(Choice(str(value), {lang: text[lang] for lang in LANGUAGES}))
    return tuple(out)


def read_limits(data: Any, settings: tuple[Setting, ...], fail: Fail) -> tuple[Limit, ...]:
    from narrator.rules.limits import LIMITS

    if data is None:
        return ()
    if not isinstance(data, list):
        raise fail("limits", f"expected a list, got {data!r}")
    keys = {s.key for s in settings}
    out = []
    for i, spec in enumerate(data):
        where = f"limits[{i}]"
        if not isinstance(spec, dict):
            raise fail(where, f"expected a mapping, got {spec!r}")
        check = spec.get("check")
        if check not in LIMITS:
            raise fail(f"{where}.check", f"unknown check {check!r} (known: {', '.join(LIMITS)})")
        rule = spec.get("rule")
        if not isinstance(rule, str) or not rule:
            raise fail(f"{where}.rule", "the document's rule is needed")
        named = spec.get("settings", [])
        if not isinstance(named, list) or any(k not in keys for k in named):
            raise fail(f"{where}.settings", f"expected a list of this rule set's settings, got {named!r}")
        args = {k: v for k, v in spec.items() if k not in ("check", "rule", "settings")}
        problem = LIMITS[check].check_args(args)
        if problem:
            raise fail(where, problem)
        out.append(Limit(str(check), rule, tuple(named), args))
    return tuple(out)
