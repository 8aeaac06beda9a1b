"""Rule-set settings: what a club may change, as each rule set's YAML declares it.

A rule set lists its settings under `settings:`, keyed by the rule-set field each one
changes (`fouls.cancel_vote`, `day.speech`, `best_move`, `night.lover_visit.args.blocks`,
`deck.mafia`...), or by a name of its own with `sets:` saying which fields each value
sets (classic's `opens_with: day`). A declaration gives the kind of value (`choice`,
`bool`, `int`, `seconds`, `roles`: a list of roles, boxed's special roles in play), the
values allowed, a label in English and Russian, and the
document's rule the setting follows or departs from; the default is the rule set's own
value, so it is written once. Keys every rule set shares (timers and the like) are
described once in `common_settings.yaml`: a rule set names them with no body, or with
only what differs (its own `rule:`, fewer `values:`). The declarations are the rule
set's own (`RuleSet.settings`, `RuleSet.limits`): `RuleSet.with_settings` checks every
value against them.

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

from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from typing import Any

from narrator.engine.rule_sections import Preset
from narrator.engine.ruleset import RuleSet, same_value
from narrator.engine.setting_types import KINDS, Choice, Limit, Setting, Value
from narrator.errors import ConfigError, RuleSetError
from narrator.rules.limits import LIMITS
from narrator.yamlfile import parse_yaml

__all__ = ["Choice", "Limit", "Setting", "SettingError", "check_table", "configure", "declared",
           "describe", "describe_presets", "resolved", "with_preset"]

LANGUAGES = ("en", "ru")


class SettingError(ConfigError):
    """A setting, or a table, that the rule set refuses: names the setting and the rule.

    `path` is the rule set's name, `where` the settings and seats concerned; `setting` is
    the one key at fault when a single value is wrong (None for a refused table)."""

    def __init__(self, path: str, where: str, problem: str, setting: str | None = None) -> None:
        super().__init__(path, where, problem)
        self.setting = setting


def declared(rules: RuleSet) -> tuple[Setting, ...]:
    return rules.settings


def describe(rules: RuleSet, lang: str = "en") -> list[dict[str, Any]]:
    """The settings as a set-up form lists them: key, kind, default, label, choices..."""
    return [s.to_json(lang) for s in rules.settings]


def with_preset(rules: RuleSet, preset: str | None, values: Mapping[str, Any]) -> dict[str, Any]:
    """The settings of a named preset with `values` over them; an unknown preset is
    refused with one line (a SettingError, exit 2 on the command line)."""
    if not preset:
        return dict(values)
    if preset not in rules.presets:
        known = ", ".join(rules.presets) or "none"
        raise SettingError(rules.name, f"preset {preset}",
                           f"not a preset of this rule set (known: {known})", "preset")
    return {**rules.presets[preset].values, **values}


def resolved(rules: RuleSet, values: Mapping[str, Any]) -> dict[str, Any]:
    """Every declared setting's value in a game with these (checked) settings: what a
    journal header and a protocol keep. Values the rule set does not declare (an old
    journal's, a rule-set file without declarations) are kept as given."""
    checked = {}
    for key, value in values.items():
        setting = rules.setting(key)
        checked[key] = setting.check(value) if setting is not None else value
    out = rules.resolved_settings(checked)
    return {**{k: v for k, v in checked.items() if rules.setting(k) is None}, **out}


def describe_presets(rules: RuleSet, lang: str = "en") -> list[dict[str, Any]]:
    """The presets as a set-up form lists them: name, label, the settings they set."""
    return [{"name": p.name, "label": p.text.get(lang) or p.text.get("en", ""), "rule": p.rule,
             "settings": {k: list(v) if isinstance(v, tuple) else v for k, v in p.values.items()}}
            for p in rules.presets.values()]


def configure(rules: RuleSet, values: Mapping[str, Any], seats: int | None = None,
              preset: str | None = None) -> RuleSet:
    """The rule set with these settings (over a named preset's), refused before a game
    starts when a value is not one the declaration allows or when the table breaks one of
    the rule set's limits."""
    values = with_preset(rules, preset, values)
    checked: dict[str, Any] = {}
    for key, value in values.items():
        # A key that is not text (YAML `null:`) is no setting.
        setting = rules.setting(key) if isinstance(key, str) else None
        if setting is None:
            known = ", ".join(s.key for s in rules.settings) or "none"
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
    values = dict(values or {})
    for limit in rules.limits:
        problem = LIMITS[limit.check].check(rules, seats, limit)
        if problem:
            raise SettingError(rules.name, _where(limit, seats, values), f"{problem}: {limit.rule}")
    try:
        rules.deck_for(seats)
    except ValueError as exc:
        # The deck's own refusal (more cards of a role than seats allow): every setting given.
        raise SettingError(rules.name, _where(Limit("seats", "", tuple(values)), seats, values),
                           str(exc)) from None


def _where(limit: Limit, seats: int, values: Mapping[str, Any]) -> str:
    named = [f"{k}={_show(values[k])}" for k in limit.settings if k in values]
    return ", ".join([*named, f"{seats} players"])


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)


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
# The loader's own checks of the rules a setting's value makes (its night steps' args).
Variant = Callable[[RuleSet, Mapping[str, Any], str], None]


def read_settings(data: Any, rules: RuleSet, fail: Fail,
                  check: Variant | None = None) -> tuple[Setting, ...]:
    """The `settings:` section of a rule set, checked against the rules it changes; `check`
    also sees the rules each value of each setting makes, with the fields it set."""
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
        out.append(_setting(str(key), spec, base, rules, fail, where, check))
    return tuple(out)


_SETTING_KEYS = {"kind", "values", "en", "ru", "min", "max", "rule", "sets"}


def _setting(key: str, spec: Mapping[str, Any], base: Mapping[str, Any], rules: RuleSet,
             fail: Fail, where: str, check: Variant | None = None) -> Setting:
    for name in spec:
        if name not in _SETTING_KEYS:
            raise fail(f"{where}.{name}", "unknown key")
    kind = spec.get("kind")
    if kind not in KINDS:
        raise fail(f"{where}.kind", f"expected one of {', '.join(KINDS)}, got {kind!r}")
    text = _labels(spec, fail, where)
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
    sets = _sets(spec.get("sets"), kind, choices, rules, fail, f"{where}.sets")
    if sets:
        # The default is the value whose fields the rule set already has.
        default: Any = next((v for v, fields in sets.items()
                             if all(same_value(_value_at(rules, k), x) for k, x in fields.items())), None)
        if default is None:
            raise fail(f"{where}.sets", "no value matches the rule set as it is written")
    else:
        try:
            default = rules.value_at(key)
        except KeyError:
            raise fail(where, "no such field in the rule set") from None
    setting = Setting(key, kind, default, text, choices,
                      None if low is None else float(low), None if high is None else float(high),
                      rule, sets)
    try:
        setting.check(default)
    except ValueError as exc:
        raise fail(where, f"the rule set's own value {_show(default)} {exc}") from None
    values: list[Any] = ([c.value for c in choices] if kind == "choice" else
                         [True, False] if kind == "bool" else [default])
    for value in values:
        fields = setting.fields(value)
        try:
            variant = rules.with_fields(fields)
        except ValueError as exc:
            raise fail(where, str(exc)) from None
        if check is not None:
            check(variant, fields, f"{where}.sets.{value}")
    return setting


def _labels(spec: Mapping[str, Any], fail: Fail, where: str) -> dict[str, str]:
    """A label in every language (a setting's or a preset's)."""
    text = {}
    for lang in LANGUAGES:
        label = spec.get(lang)
        if not isinstance(label, str) or not label:
            raise fail(f"{where}.{lang}", "a label in every language is needed")
        text[lang] = label
    return text


def _value_at(rules: RuleSet, path: str) -> Any:
    try:
        return rules.value_at(path)
    except KeyError:
        return None


def _sets(data: Any, kind: str, choices: tuple[Choice, ...], rules: RuleSet, fail: Fail,
          where: str) -> dict[Value, dict[str, Any]]:
    """`sets:` of a setting with no field of its own: for each value, the fields it sets."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise fail(where, f"expected a mapping of values, got {data!r}")
    wanted: list[Value] = [c.value for c in choices] if kind == "choice" else [True, False]
    if kind not in ("choice", "bool") or sorted(map(str, data)) != sorted(map(str, wanted)):
        raise fail(where, f"expected the fields set by each value: {', '.join(map(str, wanted))}")
    out: dict[Value, dict[str, Any]] = {}
    for value in wanted:
        fields = data[value]
        if not isinstance(fields, dict) or not fields:
            raise fail(f"{where}.{value}", "expected the fields this value sets")
        for path in fields:
            if _value_at(rules, str(path)) is None and not str(path).startswith("deck."):
                raise fail(f"{where}.{value}.{path}", "no such field in the rule set")
        out[value] = {str(k): v for k, v in fields.items()}
    return out


def _role_choices(given: Any, rules: RuleSet, fail: Fail, where: str) -> tuple[Choice, ...]:
    """The roles a `roles` setting may name: the listed ones, or the setup's special
    roles; labelled with the rule set's card names from the phrase books."""
    from narrator.phrases.book import PhraseBook, PhraseError

    if given is None:
        groups = rules.setup.groups.values() if rules.setup else ()
        given = [r for group in groups for r in group]
    if not isinstance(given, list) or not given or any(
            not isinstance(r, str) or r not in rules.roles for r in given):
        raise fail(where, f"expected a list of this rule set's roles, got {given!r}")
    books = {lang: PhraseBook.load(lang).for_rules(rules.name) for lang in LANGUAGES}
    try:
        return tuple(Choice(r, {lang: book.role_name(r) for lang, book in books.items()})
                     for r in given)
    except PhraseError as exc:  # a rule file of one's own, with a role only boxed names
        raise fail(where, str(exc)) from None


def _choices(given: Any, described: Any, fail: Fail, where: str) -> tuple[Choice, ...]:
    """A choice's values: labelled here ({value: {en, ru}}), or a list picking some of the
    values common_settings.yaml labels."""
    labels = described if isinstance(described, dict) else {}
    if isinstance(given, list):
        picked = {}
        for i, value in enumerate(given):
            if not hashable(value) or value not in labels:
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
        if isinstance(value, float) or value is None:
            raise fail(f"{where}.{value}", "a value is a word, a whole number, or true/false")
        out.append(Choice(value, {lang: text[lang] for lang in LANGUAGES}))
    return tuple(out)


def hashable(value: Any) -> bool:
    """Whether a value from a file can be a key (a list or a mapping cannot: TypeError)."""
    try:
        hash(value)
    except TypeError:
        return False
    return True


def read_limits(data: Any, settings: tuple[Setting, ...], fail: Fail) -> tuple[Limit, ...]:
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
        if not isinstance(check, str) or check not in LIMITS:
            raise fail(f"{where}.check", f"unknown check {check!r} (known: {', '.join(LIMITS)})")
        rule = spec.get("rule")
        if not isinstance(rule, str) or not rule:
            raise fail(f"{where}.rule", "the document's rule is needed")
        named = spec.get("settings", [])
        if not isinstance(named, list) or any(not isinstance(k, str) or k not in keys for k in named):
            raise fail(f"{where}.settings", f"expected a list of this rule set's settings, got {named!r}")
        args = {k: v for k, v in spec.items() if k not in ("check", "rule", "settings")}
        problem = LIMITS[check].check_args(args)
        if problem:
            raise fail(where, problem)
        out.append(Limit(str(check), rule, tuple(named), args))
    return tuple(out)


def read_presets(data: Any, rules: RuleSet, fail: Fail) -> dict[str, Preset]:
    """The `presets:` section: named bundles of declared settings, each value checked."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise fail("presets", f"expected a mapping of presets, got {data!r}")
    out: dict[str, Preset] = {}
    for name, body in data.items():
        where = f"presets.{name}"
        if not isinstance(name, str) or not name.isidentifier():
            raise fail(where, "a preset's name is one word")
        if not isinstance(body, dict):
            raise fail(where, f"expected a mapping, got {body!r}")
        unknown = set(body) - {"en", "ru", "rule", "settings"}
        if unknown:
            raise fail(f"{where}.{sorted(unknown, key=str)[0]}", "unknown key")
        text = _labels(body, fail, where)
        values = body.get("settings")
        if not isinstance(values, dict) or not values:
            raise fail(f"{where}.settings", "expected the settings this preset sets")
        checked: dict[str, Any] = {}
        for key, value in values.items():
            setting = rules.setting(str(key))
            if setting is None:
                raise fail(f"{where}.settings.{key}", "not a setting of this rule set")
            try:
                checked[str(key)] = setting.check(value)
            except ValueError as exc:
                raise fail(f"{where}.settings.{key}", str(exc)) from None
        try:
            rules.with_settings(checked)
        except ValueError as exc:
            raise fail(f"{where}.settings", str(exc)) from None
        rule = body.get("rule", "")
        if not isinstance(rule, str):
            raise fail(f"{where}.rule", f"expected text, got {rule!r}")
        out[name] = Preset(name, text, checked, rule)
    return out
