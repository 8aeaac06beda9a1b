"""The rule-set model the engine plays by: frozen data, built by narrator.rules.loader.

Rules are data plus small named hooks: a night step names its `ability`, the day names
its `procedure`, and the rule set names its `win` checks; narrator.engine.registry lists
every hook by those names. Nothing in the engine asks which rule set it is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from narrator.engine.deck_table import Setup
from narrator.engine.rule_sections import (
    CHOICES,
    DawnRules,
    DayRules,
    FoulRules,
    Preset,
    Role,
    Scoring,
    Step,
)
from narrator.engine.setting_types import Limit, Setting


@dataclass(frozen=True, slots=True)
class RuleSet:
    name: str
    title: str
    roles: Mapping[str, Role]
    deck: Mapping[int, Mapping[str, int]]
    night_zero: tuple[Step, ...]
    night: tuple[Step, ...]
    day: DayRules = field(default_factory=DayRules)
    fouls: FoulRules = field(default_factory=FoulRules)
    win: tuple[str, ...] = ("no_black", "black_parity")
    best_move: bool = True
    draw_after_idle_rounds: int = 0  # 0: never
    # May the host give the game to the other team for a severe breach (sport, 001)?
    forfeit: bool = False
    answers_public: bool = False
    callout_beat: float = 1.5
    # The seconds a whole call-out lasts, its rounds together, spread over its numbers, none
    # shorter than callout_beat (boxed 003: «на каждого из игроков отводится в среднем по 30
    # секунд» whatever the table's size); 0: every number at callout_beat.
    callout_step: float = 0.0
    default_role: str = "civilian"
    # Above the largest table of `deck`, each extra player is one more default_role card
    # (classic: 002 has no maximum).
    deck_grows: bool = False
    # Role counts that replace the table's in every deck (a setting such as classic's
    # number of mafia); the default role makes up the difference.
    deck_counts: Mapping[str, int] = field(default_factory=dict)
    # Engine cues this rule set says in its own words (classic's first night is a whole
    # night: "night_zero" -> "night_falls").
    cues: Mapping[str, str] = field(default_factory=dict)
    settings: tuple[Setting, ...] = ()  # what a club may change (narrator.rules.settings)
    presets: Mapping[str, Preset] = field(default_factory=dict)  # named bundles of settings
    limits: tuple[Limit, ...] = ()  # tables the document forbids (narrator.rules.limits)
    source: str = ""  # the file it came from, for messages
    # A deck from a table and the club's picks (boxed); `deck` then holds the decks the
    # current settings make, by seats.
    setup: Setup | None = None
    dawn: DawnRules = field(default_factory=DawnRules)
    # Seconds of silence between a step's sleep cue and the next wake cue.
    step_gap: float = 0.0
    # The roles in play (and how many of each) are announced before the first night.
    announce_deck: bool = False
    # Night zero without a deal: how many times in all a meeting is called before the
    # box gives up and night zero is redone (the game waits, paused, for the host).
    meet_calls: int = 3
    # Night zero without a deal: after each meeting's window, the answer display shows the
    # count of seats heard for this long (the same at every call).
    meet_count_seconds: float = 3.0
    scoring: Scoring | None = None  # None: the rule set's games give no points
    # Built from the fields above (__post_init__): the night steps by id, the team each
    # role counts for in the win checks (asked after every elimination for every seat),
    # and `cues` as a dict (every cue said asks).
    step_index: dict[str, Step] = field(init=False, repr=False, compare=False)
    count_teams: dict[str, str] = field(init=False, repr=False, compare=False)
    cue_words: dict[str, str] = field(init=False, repr=False, compare=False)

    @property
    def min_seats(self) -> int:
        return min(self.setup.table) if self.setup else min(self.deck)

    @property
    def max_seats(self) -> int:
        """The largest table listed (with `deck_grows`, larger ones are played too)."""
        return max(self.setup.table) if self.setup else max(self.deck)

    def steps(self) -> tuple[Step, ...]:
        return self.night_zero + self.night

    def __post_init__(self) -> None:
        object.__setattr__(self, "step_index", {step.id: step for step in self.steps()})
        object.__setattr__(self, "count_teams",
                           {name: role.count_team for name, role in self.roles.items()})
        object.__setattr__(self, "cue_words", dict(self.cues))

    def cue_ids(self) -> set[str]:
        """Every cue this rule set's own data names (the engine's are in cues.ENGINE_CUES)."""
        return self.step_cue_ids() | self.news_cue_ids() | set(self.cues.values())

    def step_cue_ids(self) -> set[str]:
        """The night steps' wake and sleep cues: words with no parameters."""
        cues: set[str] = set()
        for step in self.steps():
            cues.update(c for c in (step.wake, step.sleep, step.wake_night_zero) if c)
            for variant in step.cues_if.values():
                cues.update(variant.values())
        return cues

    def news_cue_ids(self) -> set[str]:
        """Cues a step's hooks say (`cues`, and the morning's `news` about a seat)."""
        cues: set[str] = set()
        for step in self.steps():
            for key in ("cues", "news", "kill_news", "miss_news"):
                extra = step.args.get(key, ())
                cues.update([extra] if isinstance(extra, str) else [str(c) for c in extra])
        cues.discard("")  # an empty news cue: nothing is said
        return cues

    def cue(self, cue: str) -> str:
        """The words this rule set uses for an engine cue."""
        return self.cue_words.get(cue, cue)

    def plays(self, seats: int) -> bool:
        try:
            self.deck_for(seats)
        except ValueError:
            return False
        return True

    def deck_for(self, seats: int) -> dict[str, int]:
        if self.setup is not None:
            return self.setup.deck(seats, self.name, self.roles)
        top = self.max_seats
        if seats in self.deck:
            deck = dict(self.deck[seats])
        elif self.deck_grows and seats > top:
            deck = dict(self.deck[top])
            deck[self.default_role] = deck.get(self.default_role, 0) + seats - top
        else:
            sizes = f"{self.min_seats} or more" if self.deck_grows else f"{self.min_seats}-{top}"
            raise ValueError(f"{self.name} is played by {sizes} players")
        for role, count in self.deck_counts.items():
            deck[self.default_role] = deck.get(self.default_role, 0) + deck.get(role, 0) - count
            deck[role] = count
            if deck[self.default_role] < 0:
                raise ValueError(f"{seats} players cannot hold {count} {role} cards")
        return {role: n for role, n in deck.items() if n}

    def setting(self, key: str) -> Setting | None:
        return next((s for s in self.settings if s.key == key), None)

    def value_at(self, path: str) -> Any:
        """The rule set's value at a settings path ("day.speech", "best_move",
        "night.lover_visit.args.blocks", "deck.mafia"...); KeyError if there is none."""
        head, _, rest = path.partition(".")
        if head in ("day", "fouls", "dawn") and rest in _fields(getattr(self, head)):
            return getattr(getattr(self, head), rest)
        if head == "setup" and self.setup is not None and rest in _SETUP_SETTINGS:
            return getattr(self.setup, rest)
        if head in _TOP_SETTINGS and not rest:
            return getattr(self, head)
        if head == "deck" and rest in self.roles:
            return self.deck_counts.get(rest, 0)
        if head == "night":
            step_id, _, name = rest.partition(".")
            step = self.step_index.get(step_id)
            if step is not None:
                if name.startswith("args."):
                    return step.args.get(name[5:])
                if name in _STEP_SETTINGS:
                    return getattr(step, name)
        raise KeyError(path)

    def with_decks(self) -> RuleSet:
        """With `deck` built from the setup for every seat count its settings allow."""
        if self.setup is None:
            return self
        decks = {}
        for seats in self.setup.table:
            try:
                decks[seats] = self.setup.deck(seats, self.name, self.roles)
            except ValueError:
                continue
        return dataclasses.replace(self, deck=decks)

    def with_settings(self, settings: Mapping[str, Any]) -> RuleSet:
        """A copy with settings changed. A rule set that declares its settings takes only
        those, each value checked against its declaration; a setting with `sets` changes
        the fields its value names. Keys are field paths: "day.first_day_vote",
        "best_move", "night.<step>.args.<arg>", "night.<step>.first_night", "deck.<role>".

        Unknown keys and wrong values raise ValueError naming the key.
        """
        bundles: dict[str, Any] = {}
        fields_: dict[str, Any] = {}
        for key, value in settings.items():
            declared = self.setting(key)
            if declared is None:
                if self.settings:
                    raise ValueError(f"unknown setting {key!r}")
                fields_[key] = value
                continue
            try:
                # A setting with `sets` (several fields) goes first, so that a setting of
                # one of those fields given beside it wins whatever the order given.
                (bundles if declared.sets else fields_).update(
                    declared.fields(declared.check(value)))
            except ValueError as exc:
                raise ValueError(f"setting {key!r} {exc}") from None
        return self.with_fields({**bundles, **fields_})

    def resolved_settings(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Every declared setting's value in a game played with `given`: the values a
        journal header and a protocol keep, so that a replay or a resume plays by exactly
        the game's settings even if the rule set's own defaults change later. Applying
        them (`with_settings`) gives the same rules as applying `given`."""
        played = self.with_settings(given)
        out: dict[str, Any] = {}
        for setting in self.settings:
            if setting.sets:
                value = given.get(setting.key)
                if value is None:
                    value = next((v for v, fields in setting.sets.items()
                                  if all(same_value(_value_or_none(played, k), x)
                                         for k, x in fields.items())), setting.default)
                out[setting.key] = setting.check(value)
            else:
                value = played.value_at(setting.key)
                out[setting.key] = list(value) if isinstance(value, tuple) else value
        return out

    def preset(self, name: str) -> Preset:
        """A named bundle of settings the rule set declares; KeyError if there is none."""
        return self.presets[name]

    def with_fields(self, values: Mapping[str, Any]) -> RuleSet:
        """A copy with these field paths set (no declaration asked): what settings do."""
        sections: dict[str, dict[str, Any]] = {
            "day": dataclasses.asdict(self.day),
            "fouls": dataclasses.asdict(self.fouls),
            "dawn": dataclasses.asdict(self.dawn),
            "": {name: getattr(self, name) for name in _TOP_SETTINGS},
        }
        if self.setup is not None:
            sections["setup"] = {name: getattr(self.setup, name) for name in _SETUP_SETTINGS}
        steps = {step.id: step for step in self.steps()}
        counts = dict(self.deck_counts)
        for key, value in values.items():
            head, _, rest = key.partition(".")
            if head == "night":
                steps = _with_step_field(steps, key, rest, value)
                continue
            if head == "deck":
                if rest not in self.roles or rest == self.default_role:
                    raise ValueError(f"unknown setting {key!r}")
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise ValueError(f"setting {key!r} must be a count of cards")
                if value:
                    counts[rest] = value
                else:
                    counts.pop(rest, None)  # 0: the table's own count
                continue
            section, _, name = key.rpartition(".")
            target = sections.get(section)
            if target is None or name not in target:
                raise ValueError(f"unknown setting {key!r}")
            target[name] = _typed(key, target[name], value)
        setup = self.setup
        if setup is not None:
            setup = dataclasses.replace(setup, **sections["setup"])
        return dataclasses.replace(
            self, day=DayRules(**sections["day"]), fouls=FoulRules(**sections["fouls"]),
            dawn=DawnRules(**sections["dawn"]), setup=setup,
            night_zero=tuple(steps[s.id] for s in self.night_zero),
            night=tuple(steps[s.id] for s in self.night), deck_counts=counts, **sections[""],
        ).with_decks()


def _value_or_none(rules: RuleSet, path: str) -> Any:
    try:
        return rules.value_at(path)
    except KeyError:
        return None


def same_value(a: Any, b: Any) -> bool:
    """Equal, a list and a tuple of the same items included (YAML gives lists)."""
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return list(a) == list(b)
    return bool(a == b) and isinstance(a, bool) == isinstance(b, bool)


def _fields(section: Any) -> set[str]:
    return {f.name for f in dataclasses.fields(section)}


def _typed(key: str, current: Any, value: Any) -> Any:
    if isinstance(current, tuple) and isinstance(value, list):
        value = tuple(value)
    numeric = isinstance(current, float) and isinstance(value, int | float)
    if isinstance(current, bool) != isinstance(value, bool) or not (
        numeric or isinstance(value, type(current))
    ):
        raise ValueError(f"setting {key!r} must be a {type(current).__name__}")
    if key in CHOICES and value not in CHOICES[key]:
        raise ValueError(f"setting {key!r} must be one of {', '.join(CHOICES[key])}")
    return float(value) if isinstance(current, float) else value


def _with_step_field(steps: dict[str, Step], key: str, rest: str, value: Any) -> dict[str, Step]:
    step_id, _, name = rest.partition(".")
    step = steps.get(step_id)
    if step is None:
        raise ValueError(f"unknown setting {key!r}: no night step {step_id!r}")
    if name.startswith("args.") and len(name) > 5:
        changed = dataclasses.replace(step, args={**step.args, name[5:]: value})
    elif name == "first_night" and isinstance(value, int) and not isinstance(value, bool):
        changed = dataclasses.replace(step, first_night=value)
    elif name == "last_night" and (value is None or isinstance(value, int)) and not isinstance(value, bool):
        changed = dataclasses.replace(step, last_night=value)
    elif name in _STEP_SETTINGS:
        raise ValueError(f"setting {key!r} must be a night number")
    else:
        raise ValueError(f"unknown setting {key!r}")
    return {**steps, step_id: changed}


# The setup's fields a game may change through settings ("setup.roles"...).
_SETUP_SETTINGS = ("roles", "follow_table", "mafiosi")

# Top-level fields a game may change through settings.
_TOP_SETTINGS = ("best_move", "draw_after_idle_rounds", "answers_public", "callout_beat", "callout_step",
                 "win", "meet_calls")
# Night-step fields a setting may change (when the step is first and last called).
_STEP_SETTINGS = ("first_night", "last_night")
