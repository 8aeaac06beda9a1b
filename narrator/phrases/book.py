"""A phrase book: every cue the box speaks and every command it hears, in one language.

Cue texts are templates. Parameters are public values only and are spoken as words:

    {seat}                        a number: "seven" / "семь"
    {day:ord}                     an ordinal: "second" / "второй"
    {votes:vote/votes}            a number and the noun that agrees with it: "five votes";
    {votes:голос/голоса/голосов}  Russian gives three forms (1, 2-4, 5+): "пять голосов";
    {seconds:f:секунда/секунды/секунд}  and the noun's gender when it is not masculine
                                  ("одна секунда", "две секунды");
    {seconds:duration}            a length of time in natural units: "one minute and thirty
                                  seconds" / "одна минута тридцать секунд" (never "600 seconds");
    {seats}                       a list: "three, seven and eight" / "три, семь и восемь";
    {seats:player number/players number}  a list after a singular or plural lead-in, which can
                                  carry the verb that agrees: "{seats:Выставлен игрок номер/
                                  Выставлены игроки номер}";
    {role}                        a role's name as this rule set's cards print it
    {role:many}                   ... and its plural ("Mafiosi: two"), see `roles:` below.
    {how:number}                  not a parameter: how the players give this input at this
                                  table, from the book's `how:` section (below).

The parameters of a cue are the names in its template; both books must agree on them.

How the players give an input (`how:`): each entry has one text per input method of the
table (INPUT_METHODS: `pads`, `keypad` for a table without pads, `both`), and a cue says
`{how:entry}` where its instruction goes. A book bound to a method (`for_input`) speaks
that method's words, so the wake words are written once and a keypad-only table never
hears of pads. The method is the table's, fixed for the whole game: a cue's words never
depend on who is alive or acts. An entry that says where a check's answer shows has one
text per answer place instead (ANSWER_PLACES: `light`, the seat panel's answer LEDs;
`screen`, the keypad's screen on a box without a panel; `judge`, a judge's table, where
the judge shows it): a book bound to a place (`for_answers`) says the box's own, as its
hardware (or the set-up's judge) decides. An input entry may have a `judge` text too: at
a judge's table (bound to the place `judge`) the night's choices are shown to the judge,
and the cue says that instead of the pads' or the keypad's words.

Role names: `roles:` gives each role id its name ("singular / plural", or one name for
both); `rule_set_roles:` gives a rule set's own names where its cards differ (the boxed
edition's "Мирный горожанин" is sport's "Мирный житель"). A book bound to a rule set
(`for_rules`) speaks `{role}` with that set's names.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from narrator.errors import InputFileError, NarratorError
from narrator.phrases import numbers
from narrator.phrases.numbers import LANGUAGES
from narrator.yamlfile import parse_yaml, read_text

ParamValue = int | str | tuple[int, ...]

# What each well-known parameter holds. Other names are allowed, spoken as given.
PARAM_KINDS: dict[str, type] = {
    "seat": int, "seats": tuple, "count": int, "votes": int, "seconds": int, "day": int,
    "minutes": int, "role": str,
}
_NOUN_FORMS = {"en": 2, "ru": 3}
# How the players at a table give their inputs: seat pads, the private keypad alone (a
# table without pads), or either.
INPUT_METHODS = ("pads", "keypad", "both")
# Where a check's answer shows: the seat panel's answer light, or the keypad's screen.
ANSWER_PLACES = ("light", "screen", "judge")
HOW = "how"  # the placeholder name of an input instruction: {how:entry}
# A judge's table (the answer place `judge`): an input entry's words for it, when it has
# them, are said whatever the table's input method (the night goes through the judge).
JUDGE = "judge"


class PhraseError(NarratorError, ValueError):
    """A cue that the phrase book cannot say: unknown id, or wrong parameters."""


class PhraseBookError(InputFileError):
    """A wrong phrase-book file."""


@dataclass(frozen=True, slots=True)
class _Field:
    name: str
    spec: str  # "", "ord", or noun/lead-in forms
    forms: tuple[str, ...] = ()
    gender: str = "m"


@dataclass(frozen=True, slots=True)
class _Template:
    text: str
    parts: tuple[tuple[str, _Field | None], ...]  # literal text, then the field after it

    @property
    def params(self) -> frozenset[str]:
        return frozenset(f.name for _, f in self.parts if f is not None and f.name != HOW)

    @property
    def hows(self) -> frozenset[str]:
        return frozenset(f.spec for _, f in self.parts if f is not None and f.name == HOW)


@dataclass(frozen=True, slots=True)
class RoleName:
    one: str
    many: str


RoleNames = Mapping[str, RoleName]


class PhraseBook:
    def __init__(self, lang: str, cues: Mapping[str, str], commands: Mapping[str, list[str]],
                 source: str = "", roles: RoleNames | None = None,
                 rule_set_roles: Mapping[str, RoleNames] | None = None, rules: str = "",
                 how: Mapping[str, Mapping[str, str]] | None = None,
                 input_method: str = "pads", rule_sets: Mapping[str, str] | None = None,
                 console: Mapping[str, str] | None = None) -> None:
        self.lang = lang
        # `narrator demo`'s terminal lines (printed, never spoken): str.format templates.
        self.console: Mapping[str, str] = MappingProxyType(dict(console or {}))
        # The bundled rule sets' names as a club says them ("Спортивная мафия").
        self.rule_sets: Mapping[str, str] = MappingProxyType(dict(rule_sets or {}))
        self.source = source or f"{lang}.yaml"
        # {how:entry} -> input method -> words (see the module's docstring)
        self.how: Mapping[str, Mapping[str, str]] = MappingProxyType(
            {k: MappingProxyType(dict(v)) for k, v in (how or {}).items()})
        templates: dict[str, _Template] = {}
        for cue, text in cues.items():
            templates[cue] = _compile(text, lang, self.source, f"cues.{cue}")
            for entry in templates[cue].hows:
                if entry not in self.how:
                    raise PhraseBookError(self.source, f"cues.{cue}",
                                          f"{{how:{entry}}}: no entry {entry!r} under `how:`")
        self._templates = MappingProxyType(templates)
        if input_method not in INPUT_METHODS:
            raise PhraseError(f"unknown input method {input_method!r} "
                              f"(known: {', '.join(INPUT_METHODS)})")
        # The table's input method, which `{how:...}` speaks.
        self.input_method = input_method
        self.commands: dict[str, list[str]] = {k: list(v) for k, v in commands.items()}
        self.roles: RoleNames = MappingProxyType(dict(roles or {}))
        self.rule_set_roles: Mapping[str, RoleNames] = MappingProxyType(
            {k: MappingProxyType(dict(v)) for k, v in (rule_set_roles or {}).items()})
        # The rule set whose card names `{role}` speaks ("" : the common names).
        self.rules = rules
        # Where the box shows a check's answer, which the answer places' entries speak.
        self.answers = "light"

    def for_rules(self, rules: str) -> PhraseBook:
        """The same book speaking `{role}` with this rule set's card names."""
        book = self._copy()
        book.rules = rules
        return book

    def for_input(self, method: str) -> PhraseBook:
        """The same book telling players to give their inputs by `method` (INPUT_METHODS)."""
        _known(method, INPUT_METHODS, "input method")
        book = self._copy()
        book.input_method = method
        return book

    def for_answers(self, place: str) -> PhraseBook:
        """The same book telling checkers to look for answers at `place` (ANSWER_PLACES)."""
        _known(place, ANSWER_PLACES, "answer place")
        book = self._copy()
        book.answers = place
        return book

    def _copy(self) -> PhraseBook:
        book = PhraseBook.__new__(PhraseBook)
        book.lang, book.source, book.commands = self.lang, self.source, self.commands
        book._templates, book.roles, book.rule_set_roles = (
            self._templates, self.roles, self.rule_set_roles)
        book.rules, book.how, book.input_method = self.rules, self.how, self.input_method
        book.rule_sets = self.rule_sets
        book.console = self.console
        book.answers = self.answers
        return book

    def line(self, key: str, **params: object) -> str:
        """A terminal line of `narrator demo` in this language (`console:`)."""
        try:
            return self.console[key].format(**params)
        except KeyError as exc:
            raise PhraseError(f"console line {key!r} in the {self.lang} phrase book "
                              f"({self.source}): no {exc}") from None

    def rule_set_name(self, rules: str, fallback: str = "") -> str:
        """A rule set's name in this language; `fallback` (its file's own title) or its id
        for a rule set the book doesn't know (a club's own file)."""
        return self.rule_sets.get(rules) or fallback or rules

    def role_name(self, role: str, rules: str | None = None, many: bool = False) -> str:
        """A role's human name in this language, as the rule set's cards print it."""
        rules = self.rules if rules is None else rules
        name = self.rule_set_roles.get(rules, {}).get(role) or self.roles.get(role)
        if name is None:
            where = f" for {rules}" if rules else ""
            raise PhraseError(f"no name for role {role!r}{where} in the {self.lang} phrase book "
                              f"({self.source})")
        return name.many if many else name.one

    @classmethod
    def load(cls, lang: str, path: str | Path | None = None) -> PhraseBook:
        """The bundled book for `lang`, or the book in `path`."""
        if path is None:
            return _bundled(lang)
        return cls.parse(read_text(path, PhraseBookError), str(path), lang)

    @classmethod
    def parse(cls, text: str, source: str, lang: str) -> PhraseBook:
        if lang not in LANGUAGES:
            known = ", ".join(LANGUAGES)
            raise PhraseBookError(source, "", f"unknown language {lang!r} (known: {known})")
        data = parse_yaml(text, source, PhraseBookError)
        if not isinstance(data, dict):
            raise PhraseBookError(source, "", "expected a mapping with `cues` and `commands`")
        if data.get("language", lang) != lang:
            raise PhraseBookError(source, "language",
                                  f"this book is {data['language']!r}, not {lang!r}")
        cues = data.get("cues")
        if not isinstance(cues, dict):
            raise PhraseBookError(source, "cues", "missing, or not a mapping of cue id to text")
        for cue, value in cues.items():
            if not isinstance(value, str) or not value.strip():
                raise PhraseBookError(source, f"cues.{cue}", f"expected a text, got {value!r}")
        commands = data.get("commands", {}) or {}
        if not isinstance(commands, dict):
            raise PhraseBookError(source, "commands", "expected a mapping of command id to phrases")
        out: dict[str, list[str]] = {}
        for name, phrases in commands.items():
            items = [phrases] if isinstance(phrases, str) else phrases
            if not isinstance(items, list) or not all(isinstance(p, str) and p for p in items):
                raise PhraseBookError(source, f"commands.{name}", "expected a list of phrases")
            out[str(name)] = items
        roles = _role_names(data.get("roles", {}) or {}, source, "roles")
        by_set = data.get("rule_set_roles", {}) or {}
        if not isinstance(by_set, dict):
            raise PhraseBookError(source, "rule_set_roles",
                                  "expected a mapping of rule set to role names")
        set_roles = {str(name): _role_names(names, source, f"rule_set_roles.{name}")
                     for name, names in by_set.items()}
        how = _how(data.get("how", {}) or {}, source)
        rule_sets = data.get("rule_sets", {}) or {}
        if not isinstance(rule_sets, dict) or not all(
                isinstance(v, str) and v.strip() for v in rule_sets.values()):
            raise PhraseBookError(source, "rule_sets", "expected a mapping of rule set to its name")
        console = data.get("console", {}) or {}
        if not isinstance(console, dict) or not all(
                isinstance(v, str) and v.strip() for v in console.values()):
            raise PhraseBookError(source, "console", "expected a mapping of line id to its text")
        return cls(lang, {str(k): v for k, v in cues.items()}, out, source, roles, set_roles,
                   how=how, rule_sets={str(k): v for k, v in rule_sets.items()},
                   console={str(k): v for k, v in console.items()})

    def cue_ids(self) -> frozenset[str]:
        return frozenset(self._templates)

    def has(self, cue: str) -> bool:
        return cue in self._templates

    def params_of(self, cue: str) -> frozenset[str]:
        return self._template(cue).params

    def hows_of(self, cue: str) -> frozenset[str]:
        """The input instructions (`{how:entry}`) the cue says."""
        return self._template(cue).hows

    def template(self, cue: str) -> str:
        return self._template(cue).text

    def render(self, cue: str, params: Mapping[str, ParamValue] | None = None) -> str:
        """The words for `cue`. Raises PhraseError for an unknown cue or wrong parameters."""
        template = self._template(cue)
        given = dict(params or {})
        if set(given) != template.params:
            want = ", ".join(sorted(template.params)) or "none"
            got = ", ".join(sorted(given)) or "none"
            raise PhraseError(f"cue {cue!r} takes parameters {want}; got {got}")
        out: list[str] = []
        for literal, f in template.parts:
            out.append(literal)
            if f is None:
                continue
            if f.name == HOW:
                words = self.how[f.spec]
                # The answer place's words first: at a judge's table (the place `judge`)
                # an input entry's judge words, never the keypad's (found: a judge's game
                # said "type your seat number on the keypad", whose keys it ignores).
                out.append(words[self.answers] if self.answers in words
                           else words[self.input_method])
            else:
                out.append(self._say(cue, f, given[f.name]))
        return "".join(out)

    def _template(self, cue: str) -> _Template:
        try:
            return self._templates[cue]
        except KeyError:
            raise PhraseError(
                f"no cue {cue!r} in the {self.lang} phrase book ({self.source})") from None

    def _say(self, cue: str, f: _Field, value: Any) -> str:
        lang = self.lang
        kind = PARAM_KINDS.get(f.name)
        if isinstance(value, list):
            value = tuple(value)
        if kind is not None and not (isinstance(value, kind) and not isinstance(value, bool)):
            raise PhraseError(f"cue {cue!r}: {f.name} must be {kind.__name__}, got {value!r}")
        try:
            if isinstance(value, tuple):
                words = numbers.listed([numbers.cardinal(int(v), lang) for v in value], lang)
                if f.forms:
                    return f"{f.forms[0 if len(value) == 1 else 1]} {words}"
                return words
            if isinstance(value, int) and not isinstance(value, bool):
                if f.spec == "ord":
                    return numbers.ordinal(value, lang)
                if f.spec == "duration":
                    return numbers.duration(value, lang)
                if f.forms:
                    return numbers.counted(value, f.forms, lang, f.gender)
                return numbers.cardinal(value, lang, f.gender)
        except ValueError as exc:
            raise PhraseError(f"cue {cue!r}: {f.name}: {exc}") from None
        if f.name == "role":
            return self.role_name(str(value), many=f.spec == "many")
        if f.spec:
            raise PhraseError(f"cue {cue!r}: {f.name}={value!r} cannot take the form {f.spec!r}")
        return str(value)


@cache
def _bundled(lang: str) -> PhraseBook:
    if lang not in LANGUAGES:
        raise PhraseBookError(f"{lang}.yaml", "", f"no phrase book for language {lang!r} "
                              f"(known: {', '.join(LANGUAGES)})")
    item = resources.files("narrator.phrases") / f"{lang}.yaml"
    return PhraseBook.parse(item.read_text(encoding="utf-8"), f"narrator/phrases/{lang}.yaml", lang)


def _compile(text: str, lang: str, source: str, where: str) -> _Template:
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise PhraseBookError(source, where, f"bad placeholder: {exc}") from None
    parts: list[tuple[str, _Field | None]] = []
    for literal, name, spec, conversion in parsed:
        if name is None:
            parts.append((literal, None))
            continue
        if not name.isidentifier() or conversion:
            raise PhraseBookError(source, where,
                                  f"bad placeholder {{{name}}}: use {{name}} or {{name:form}}")
        parts.append((literal, _field(name, spec or "", lang, source, where)))
    return _Template(text, tuple(parts))


def _role_names(data: Any, source: str, where: str) -> dict[str, RoleName]:
    if not isinstance(data, dict):
        raise PhraseBookError(source, where, "expected a mapping of role id to its name")
    out: dict[str, RoleName] = {}
    for role, text in data.items():
        if not isinstance(text, str) or not text.strip():
            raise PhraseBookError(source, f"{where}.{role}",
                                  f"expected a name (or 'singular / plural'), got {text!r}")
        one, _, many = (part.strip() for part in text.partition("/"))
        if not one or (_ and not many):
            raise PhraseBookError(source, f"{where}.{role}", f"bad name {text!r}")
        out[str(role)] = RoleName(one, many or one)
    return out


def _how(data: Any, source: str) -> dict[str, dict[str, str]]:
    if not isinstance(data, dict):
        raise PhraseBookError(source, HOW, "expected a mapping of entry to its words per "
                              "input method")
    out: dict[str, dict[str, str]] = {}
    for entry, texts in data.items():
        where = f"{HOW}.{entry}"
        if not isinstance(texts, dict):
            raise PhraseBookError(source, where, "expected the words for each input method "
                                  f"({', '.join(INPUT_METHODS)}) or answer place "
                                  f"({', '.join(ANSWER_PLACES)})")
        # Keyed by input method, or (where an answer shows) by answer place: never mixed.
        keys = ANSWER_PLACES if set(texts) & (set(ANSWER_PLACES) - {JUDGE}) else INPUT_METHODS
        kind = "answer place" if keys is ANSWER_PLACES else "input method"
        for method in keys:
            if method not in texts:
                raise PhraseBookError(source, f"{where}.{method}", "missing")
        for method, text in texts.items():
            if method not in keys and not (keys is INPUT_METHODS and method == JUDGE):
                raise PhraseBookError(source, f"{where}.{method}", f"unknown {kind} "
                                      f"(known: {', '.join(keys)})")
            if not isinstance(text, str) or not text.strip() or "{" in text or "}" in text:
                raise PhraseBookError(source, f"{where}.{method}",
                                      f"expected plain words, got {text!r}")
        out[str(entry)] = {str(m): str(t) for m, t in texts.items()}
    return out


def _field(name: str, spec: str, lang: str, source: str, where: str) -> _Field:
    if name == HOW:
        if not spec.isidentifier():
            raise PhraseBookError(source, where, f"{{how:{spec}}}: name an entry of `how:`")
        return _Field(name, spec)
    kind = PARAM_KINDS.get(name)
    if not spec:
        return _Field(name, "")
    if name == "role":
        if spec != "many":
            raise PhraseBookError(source, where, f"{{role:{spec}}}: a role takes only :many")
        return _Field(name, spec)
    if spec in ("ord", "duration"):
        if kind not in (int, None):
            raise PhraseBookError(source, where, f"{{{name}:{spec}}}: only a number takes :{spec}")
        return _Field(name, spec)
    gender = "m"
    head, sep, rest = spec.partition(":")
    if sep:
        if head not in ("m", "f", "n") or lang != "ru":
            raise PhraseBookError(source, where, f"{{{name}:{spec}}}: a gender (m, f, n) "
                                  "is given only in Russian, before the noun forms")
        gender, spec = head, rest
    forms = tuple(spec.split("/"))
    want = 2 if kind is tuple else _NOUN_FORMS[lang]
    if len(forms) != want or not all(forms):
        what = "singular/plural lead-ins" if kind is tuple else "noun forms"
        raise PhraseBookError(source, where, f"{{{name}:{spec}}}: expected {want} {what} "
                              "separated by /")
    return _Field(name, spec, forms, gender)


def _known(value: str, known: tuple[str, ...], what: str) -> None:
    if value not in known:
        raise PhraseError(f"unknown {what} {value!r} (known: {', '.join(known)})")
