"""Reading and validating rule-set files.

Every problem is reported as one RuleSetError naming the file, the key path and what is
wrong, e.g. `sport.yaml: night[1].roles[0]: unknown role 'doktor'`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar, cast, get_args

from narrator.engine.context import MAX_ROUNDS
from narrator.engine.deck_table import Setup
from narrator.engine.registry import REGISTRY
from narrator.engine.rule_sections import CHOICES, DawnRules, DayRules, FoulRules, Role, Step
from narrator.engine.ruleset import RuleSet
from narrator.engine.words import StepInput
from narrator.errors import RuleSetError
from narrator.rules.scoring import read_scoring
from narrator.rules.settings import common, read_limits, read_presets, read_settings
from narrator.yamlfile import parse_yaml, read_text

T = TypeVar("T")

# RuleSet's plain fields (a yes/no or a number with a default): read as the dataclass
# declares them, so a new one is one line in RuleSet and none here.
_SCALARS = tuple(f for f in dataclasses.fields(RuleSet)
                 if type(f.default) in (bool, int, float) and f.init)
_TOP_KEYS = {f.name for f in _SCALARS} | {
    "name", "title", "roles", "deck", "night_zero", "night", "day", "fouls", "win",
    "default_role", "settings", "limits", "cues", "scoring", "setup", "dawn", "presets",
}
_INPUTS: tuple[str, ...] = get_args(StepInput)
ABILITIES = REGISTRY.abilities
PROCEDURES = REGISTRY.procedures
WINS = REGISTRY.wins


def bundled_names() -> list[str]:
    folder = resources.files("narrator.rules") / "sets"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml"))


@cache
def load_bundled(name: str) -> RuleSet:
    folder = resources.files("narrator.rules") / "sets"
    item = folder / f"{name}.yaml"
    if name not in bundled_names():  # not item.is_file(): a 300-letter name is an OSError
        raise RuleSetError(
            f"{name}.yaml", "", f"no bundled rule set {name!r} (known: {', '.join(bundled_names())})"
        )
    return parse(item.read_text(encoding="utf-8"), f"{name}.yaml")


def load(spec: str | Path) -> RuleSet:
    """A bundled rule set by name, or a rule-set file by path."""
    text = str(spec)
    if not text.endswith((".yaml", ".yml")) and "/" not in text:
        return load_bundled(text)
    return parse(read_text(spec, RuleSetError), str(spec))


def parse(text: str, source: str) -> RuleSet:
    return _Reader(source).rule_set(parse_yaml(text, source, RuleSetError))


def _known(name: Any, known: Mapping[str, Any]) -> bool:
    """A name the rule set knows (a list item may be a mapping: unhashable, never a name)."""
    return isinstance(name, str) and name in known


def _args_shape(args: Mapping[Any, Any]) -> str | None:
    """What every ability's args share: named by words, valued by a word, a number or a
    list of them (the abilities' own checks may then compare and sort them safely)."""
    for name, value in args.items():
        if not isinstance(name, str):
            return f"an argument's name is a word, got {name!r}"
        items = value if isinstance(value, list) else [value]
        if any(isinstance(x, dict | list | set) for x in items):
            return f"{name}: expected a word, a number or a list of them, got {value!r}"
    return None


def _dealt_by_settings(data: Mapping[str, Any]) -> set[str]:
    """Roles a declared setting can put in the deck (`deck.<role>`, also inside `sets:`)."""
    settings = data.get("settings")
    if not isinstance(settings, dict):
        return set()
    paths = list(settings)
    for body in settings.values():
        if isinstance(body, dict) and isinstance(body.get("sets"), dict):
            for fields in body["sets"].values():
                if isinstance(fields, dict):
                    paths.extend(fields)
    return {str(p)[5:] for p in paths if str(p).startswith("deck.")}


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, problem: str) -> RuleSetError:
        return RuleSetError(self.source, where, problem)

    def typed(self, value: Any, kind: type[T] | tuple[type, ...], where: str) -> T:
        ok = isinstance(value, kind) and not (isinstance(value, bool) and kind in (int, float))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            ok = True
        if not ok:
            name = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            raise self.fail(where, f"expected {name}, got {value!r}")
        return cast(T, value)

    def rule_set(self, data: Any) -> RuleSet:
        data = self.typed(data, dict, "(top)")
        for key in data:
            if key not in _TOP_KEYS:
                raise self.fail(str(key), "unknown key")
        for key in ("name", "roles", "night"):
            if key not in data:
                raise self.fail(key, "missing")
        if ("deck" in data) == ("setup" in data):
            raise self.fail("deck", "a rule set has either `deck:` or `setup:`")
        roles = self.roles(data["roles"])
        default_role = self.typed(data.get("default_role", "civilian"), str, "default_role")
        if default_role not in roles:
            raise self.fail("default_role", f"unknown role {default_role!r}")
        setup = self.setup(data["setup"], roles) if "setup" in data else None
        deck = self.deck(data["deck"], roles) if setup is None else {}
        # A role may come into the deck only through a setting (classic's second angel).
        in_deck = {r for counts in deck.values() for r in counts} | _dealt_by_settings(data)
        if setup is not None:
            in_deck |= {r for row in setup.table.values() for r in row if r in roles}
            in_deck |= {r for group in setup.groups.values() for r in group}
        night_zero = self.steps(data.get("night_zero", []), "night_zero", roles, in_deck)
        night = self.steps(data["night"], "night", roles, in_deck)
        seen: set[str] = set()
        for i, step in enumerate(night_zero + night):
            where = f"night_zero[{i}]" if i < len(night_zero) else f"night[{i - len(night_zero)}]"
            if step.id in seen:
                raise self.fail(f"{where}.id", f"step id {step.id!r} used twice")
            seen.add(step.id)
        win = tuple(self.typed(data.get("win", ["no_black", "black_parity"]), list, "win"))
        for i, hook in enumerate(win):
            if not _known(hook, WINS):
                raise self.fail(f"win[{i}]", f"unknown win check {hook!r} (known: {', '.join(WINS)})")
        day = self.section(data.get("day", {}), DayRules, "day")
        if day.procedure not in PROCEDURES:
            raise self.fail("day.procedure", f"unknown procedure {day.procedure!r}")
        fouls = self.section(data.get("fouls", {}), FoulRules, "fouls")
        dawn = self.section(data.get("dawn", {}), DawnRules, "dawn")
        sections = {"day": day, "fouls": fouls, "dawn": dawn}
        for key, allowed in CHOICES.items():
            section, _, name = key.partition(".")
            self.choice(getattr(sections[section], name), allowed, key)
        for i, role in enumerate(day.verdict):
            if not _known(role, roles):
                raise self.fail(f"day.verdict[{i}]", f"unknown role {role!r}")
        rules = RuleSet(
            name=self.typed(data["name"], str, "name"),
            title=self.typed(data.get("title", data["name"]), str, "title"),
            roles=roles,
            deck=deck,
            night_zero=night_zero,
            night=night,
            day=day,
            fouls=fouls,
            win=win,
            default_role=default_role,
            cues=self.cues(data.get("cues", {})),
            source=self.source,
            setup=setup,
            dawn=dawn,
            **{f.name: self.scalar(data[f.name], f.default, f.name) for f in _SCALARS if f.name in data},
        )
        if rules.meet_calls < 1:
            raise self.fail("meet_calls", f"expected at least 1, got {rules.meet_calls}")
        if setup is not None:
            try:
                rules = rules.with_decks()
                for seats in setup.table:
                    rules.deck_for(seats)  # the box's own choice fits every row
            except ValueError as exc:
                raise self.fail("setup", str(exc)) from None
        # A file without `settings:` offers the settings every rule set shares.
        offered = data["settings"] if "settings" in data else dict.fromkeys(common())
        settings = read_settings(offered, rules, self.fail, self.variant)
        limits = read_limits(data.get("limits"), settings, self.fail)
        rules = dataclasses.replace(rules, settings=settings, limits=limits,
                                    scoring=read_scoring(data.get("scoring"), self.fail))
        return dataclasses.replace(rules, presets=read_presets(data.get("presets"), rules, self.fail))

    def variant(self, rules: RuleSet, fields: Mapping[str, Any], where: str) -> None:
        """The rules a setting's value makes (`where`: settings.<key>.sets.<value>) must
        name known win checks and leave every night step's args valid for its ability."""
        for i, hook in enumerate(fields.get("win", ())):
            if not _known(hook, WINS):
                raise self.fail(f"{where}.win[{i}]",
                                f"unknown win check {hook!r} (known: {', '.join(WINS)})")
        for step in rules.steps():
            problem = _args_shape(step.args) or ABILITIES[step.ability].check_args(step.args, rules.roles)
            if problem:
                raise self.fail(where.partition(".sets.")[0], f"night step {step.id}: {problem}")

    def cues(self, data: Any) -> dict[str, str]:
        from narrator.engine.cues import ENGINE_CUES

        data = self.typed(data, dict, "cues")
        for key, value in data.items():
            if key not in ENGINE_CUES:
                raise self.fail(f"cues.{key}", "not one of the engine's cues")
            self.typed(value, str, f"cues.{key}")
        return {str(k): str(v) for k, v in data.items()}

    def choice(self, value: str, allowed: tuple[str, ...], where: str) -> None:
        if value not in allowed:
            raise self.fail(where, f"{value!r} is not one of {', '.join(allowed)}")

    def roles(self, data: Any) -> dict[str, Role]:
        data = self.typed(data, dict, "roles")
        out: dict[str, Role] = {}
        for name, spec in data.items():
            where = f"roles.{name}"
            spec = self.typed(spec, dict, where)
            for key in spec:
                if key not in ("team", "checks_as", "counts_as", "votes", "turns_into", "excludes",
                               "shows_as"):
                    raise self.fail(f"{where}.{key}", "unknown key")
            turns_into = spec.get("turns_into")
            out[str(name)] = Role(
                name=str(name),
                team=self.typed(spec.get("team"), str, f"{where}.team"),
                checks_as=self.typed(spec.get("checks_as"), (str, type(None)), f"{where}.checks_as"),
                counts_as=self.typed(spec.get("counts_as"), (str, type(None)), f"{where}.counts_as"),
                votes=self.typed(spec.get("votes", True), bool, f"{where}.votes"),
                turns_into=None if turns_into is None else self.typed(
                    turns_into, str, f"{where}.turns_into"),
                excludes=tuple(self.typed(spec.get("excludes", []), list, f"{where}.excludes")),
                shows_as=spec.get("shows_as"),
            )
        for name, role in out.items():
            if role.shows_as is not None and not _known(role.shows_as, out):
                raise self.fail(f"roles.{name}.shows_as", f"unknown role {role.shows_as!r}")
            if role.turns_into is not None and not _known(role.turns_into, out):
                raise self.fail(f"roles.{name}.turns_into", f"unknown role {role.turns_into!r}")
            for i, other in enumerate(role.excludes):
                if not _known(other, out):
                    raise self.fail(f"roles.{name}.excludes[{i}]", f"unknown role {other!r}")
        return out

    def deck(self, data: Any, roles: Mapping[str, Role]) -> dict[int, dict[str, int]]:
        data = self.typed(data, dict, "deck")
        out: dict[int, dict[str, int]] = {}
        for seats, counts in data.items():
            where = f"deck.{seats}"
            if not isinstance(seats, int) or not 3 <= seats <= 20:
                raise self.fail(where, "a deck is keyed by a seat count from 3 to 20")
            counts = self.typed(counts, dict, where)
            for role, n in counts.items():
                if role not in roles:
                    raise self.fail(f"{where}.{role}", f"unknown role {role!r}")
                self.typed(n, int, f"{where}.{role}")
                if n < 0:
                    raise self.fail(f"{where}.{role}", "a count cannot be negative")
            total = sum(counts.values())
            if total != seats:
                raise self.fail(where, f"impossible deck: {total} roles for {seats} seats")
            for role in (r for r, n in counts.items() if n):
                clash = [o for o in roles[role].excludes if counts.get(o)]
                if clash:
                    raise self.fail(where, f"impossible deck: {role} and {clash[0]} never play together")
            teams = {roles[r].team for r, n in counts.items() if n}
            if len(teams) < 2:
                raise self.fail(where, "impossible deck: a game needs at least two sides")
            out[seats] = {str(r): int(n) for r, n in counts.items() if n}
        if not out:
            raise self.fail("deck", "no deck")
        return out

    def setup(self, data: Any, roles: Mapping[str, Role]) -> Setup:
        data = self.typed(data, dict, "setup")
        known = {"table", "groups", "choice", "filler", "counted", "players_extra", "roles",
                 "follow_table", "mafiosi"}
        for key in data:
            if key not in known:
                raise self.fail(f"setup.{key}", "unknown key")
        groups: dict[str, tuple[str, ...]] = {}
        for group, members in self.typed(data.get("groups", {}), dict, "setup.groups").items():
            members = self.typed(members, list, f"setup.groups.{group}")
            for j, role in enumerate(members):
                if not _known(role, roles):
                    raise self.fail(f"setup.groups.{group}[{j}]", f"unknown role {role!r}")
            groups[str(group)] = tuple(members)
        table: dict[int, dict[str, int]] = {}
        for seats, row in self.typed(data.get("table"), dict, "setup.table").items():
            where = f"setup.table.{seats}"
            if not isinstance(seats, int) or not 3 <= seats <= 20:
                raise self.fail(where, "a row is keyed by a seat count from 3 to 20")
            row = self.typed(row, dict, where)
            for name, n in row.items():
                if name not in roles and name not in groups:
                    raise self.fail(f"{where}.{name}", f"not a role or a group: {name!r}")
                if self.typed(n, int, f"{where}.{name}") < 0:
                    raise self.fail(f"{where}.{name}", "a count cannot be negative")
            table[seats] = {str(k): int(v) for k, v in row.items()}
        if not table:
            raise self.fail("setup.table", "no row")
        choice: dict[int, tuple[str, ...]] = {}
        for seats, picks in self.typed(data.get("choice", {}), dict, "setup.choice").items():
            self.typed(seats, int, f"setup.choice.{seats}")
            choice[int(seats)] = self.role_list(picks, roles, f"setup.choice.{seats}")
        filler = self.typed(data.get("filler"), str, "setup.filler")
        counted = self.typed(data.get("counted"), str, "setup.counted")
        for key, role in (("filler", filler), ("counted", counted)):
            if role not in roles:
                raise self.fail(f"setup.{key}", f"unknown role {role!r}")
        return Setup(
            table=table, groups=groups, choice=choice, filler=filler, counted=counted,
            players_extra=self.typed(data.get("players_extra", 0), int, "setup.players_extra"),
            roles=self.role_list(data.get("roles", []), roles, "setup.roles"),
            follow_table=self.typed(data.get("follow_table", True), bool, "setup.follow_table"),
            mafiosi=self.typed(data.get("mafiosi", 0), int, "setup.mafiosi"),
        )

    def role_list(self, data: Any, roles: Mapping[str, Role], where: str) -> tuple[str, ...]:
        for i, role in enumerate(self.typed(data, list, where)):
            if not _known(role, roles):
                raise self.fail(f"{where}[{i}]", f"unknown role {role!r}")
        return tuple(data)

    def steps(self, data: Any, where: str, roles: Mapping[str, Role], in_deck: set[str]) -> tuple[Step, ...]:
        data = self.typed(data, list, where)
        out = []
        step_keys = {f.name for f in dataclasses.fields(Step)}
        for i, spec in enumerate(data):
            at = f"{where}[{i}]"
            spec = self.typed(spec, dict, at)
            for key in spec:
                if key not in step_keys:
                    raise self.fail(f"{at}.{key}", "unknown key")
            for key in ("id", "roles", "ability"):
                if key not in spec:
                    raise self.fail(f"{at}.{key}", "missing")
            step_roles = self.typed(spec["roles"], list, f"{at}.roles")
            for j, role in enumerate(step_roles):
                if not isinstance(role, str) or role not in roles:
                    raise self.fail(f"{at}.roles[{j}]", f"unknown role {role!r}")
                if role not in in_deck:
                    raise self.fail(f"{at}.roles[{j}]", f"role {role!r} is in no deck")
            ability = self.typed(spec["ability"], str, f"{at}.ability")
            if ability not in ABILITIES:
                known = ", ".join(ABILITIES)
                raise self.fail(f"{at}.ability", f"unknown ability {ability!r} (known: {known})")
            word = self.typed(spec.get("input", "callout"), str, f"{at}.input")
            self.choice(word, _INPUTS, f"{at}.input")
            inp = cast(StepInput, word)  # one of its words: checked just above
            args = self.typed(spec.get("args", {}), dict, f"{at}.args")
            problem = _args_shape(args) or ABILITIES[ability].check_args(args, roles)
            if problem:
                raise self.fail(f"{at}.args", problem)
            rounds = args.get("rounds", 1)
            if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
                raise self.fail(f"{at}.args.rounds", f"a number of call-out rounds 1-{MAX_ROUNDS}, "
                                f"got {rounds!r}")
            window = float(self.typed(spec.get("window", 10), float, f"{at}.window"))
            answer = float(self.typed(spec.get("answer", 0), float, f"{at}.answer"))
            if window <= 0 or answer < 0:
                raise self.fail(f"{at}.window", "window lengths must be positive")
            last = spec.get("last_night")
            cues_if = self.typed(spec.get("cues_if", {}), dict, f"{at}.cues_if")
            for role, variant in cues_if.items():
                if role not in roles:
                    raise self.fail(f"{at}.cues_if.{role}", f"unknown role {role!r}")
                variant = self.typed(variant, dict, f"{at}.cues_if.{role}")
                for which, cue in variant.items():
                    if which not in ("wake", "sleep", "wake_night_zero"):
                        raise self.fail(f"{at}.cues_if.{role}.{which}",
                                        "only wake, sleep and wake_night_zero")
                    self.typed(cue, str, f"{at}.cues_if.{role}.{which}")
            out.append(Step(
                id=self.typed(spec["id"], str, f"{at}.id"),
                roles=tuple(step_roles),
                ability=ability,
                input=inp,
                window=window,
                answer=answer,
                wake=self.typed(spec.get("wake", ""), str, f"{at}.wake"),
                sleep=self.typed(spec.get("sleep", ""), str, f"{at}.sleep"),
                wake_night_zero=self.typed(spec.get("wake_night_zero", ""), str,
                                           f"{at}.wake_night_zero"),
                first_night=self.typed(spec.get("first_night", 1), int, f"{at}.first_night"),
                last_night=None if last is None else self.typed(last, int, f"{at}.last_night"),
                args=args,
                cues_if={str(r): {str(k): str(c) for k, c in v.items()} for r, v in cues_if.items()},
            ))
        return tuple(out)

    def section(self, data: Any, cls: Callable[..., T], where: str) -> T:
        data = self.typed(data, dict, where)
        defaults = cls()
        out: dict[str, Any] = {}
        for key, value in data.items():
            if not isinstance(key, str) or not hasattr(defaults, key):
                raise self.fail(f"{where}.{key}", "unknown key")
            out[key] = self.scalar(value, getattr(defaults, key), f"{where}.{key}")
        return cls(**out)

    def scalar(self, value: Any, default: Any, where: str) -> Any:
        """`value` as the type of the field's `default` (a list for a tuple)."""
        if isinstance(default, tuple):
            return tuple(self.typed(value, list, where))
        if isinstance(default, bool):
            return self.typed(value, bool, where)
        if isinstance(default, float):
            number = float(self.typed(value, float, where))
            if number < 0:
                raise self.fail(where, "cannot be negative")
            return number
        return self.typed(value, type(default), where)
