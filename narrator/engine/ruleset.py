"""The rule-set model the engine plays by: frozen data, built by narrator.rules.loader.

Rules are data plus small named hooks: a night step names its `ability`, the day names
its `procedure`, and the rule set names its `win` checks; narrator.engine.registry lists
every hook by those names. Nothing in the engine asks which rule set it is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any


@dataclass(frozen=True)
class Role:
    name: str
    team: str  # "red", "black" or a team of its own ("maniac")
    # What a team check reveals about this role (a ninja checks as a civilian: "red").
    checks_as: str | None = None
    # Counted on this side when the table is weighed for a win (None: its team).
    counts_as: str | None = None
    # Does this role's vote count in the day? (boxed: the sleepwalker's does not)
    votes: bool = True
    # Becomes this role once no other player of that role's team is left (boxed: the
    # turncoat turns black when the rest of the mafia is gone).
    turns_into: str | None = None
    # Roles that never share a deck with this one (boxed: doctor and self-taught doctor).
    excludes: tuple[str, ...] = ()

    @property
    def check_team(self) -> str:
        return self.checks_as or self.team

    @property
    def count_team(self) -> str:
        return self.counts_as or self.team


@dataclass(frozen=True)
class Step:
    """One call of the night script. It is called every night whether its role holders
    are alive, dead, silenced or blocked; only roles absent from the deck are skipped."""

    id: str
    roles: tuple[str, ...]
    ability: str
    input: str = "callout"  # "callout": taps at the called number; "keypad"; "none"
    window: float = 10.0  # a keypad or meeting window; call-outs use the rule set's beat
    answer: float = 0.0  # a fixed window in which a check answer is shown privately
    wake: str = ""
    sleep: str = ""
    first_night: int = 1  # the first night this step is called (0: night zero)
    last_night: int | None = None  # night zero's meetings stop at 0
    args: Mapping[str, Any] = field(default_factory=dict)

    def called_on(self, night: int) -> bool:
        return night >= self.first_night and (self.last_night is None or night <= self.last_night)


@dataclass(frozen=True)
class DayRules:
    procedure: str = "speeches"  # hook in narrator.engine.days
    speech: float = 60.0
    short_speech: float = 30.0  # a penalised speech when few players are left
    tie_speech: float = 30.0
    last_word: float = 60.0
    silent_turn: float = 10.0  # a lost speech: time to nominate only
    ballot: float = 5.0  # how long pads are live for one candidate
    warn_before_end: float = 10.0
    first_day_vote: str = "normal"  # "normal", "none", "lift_only"
    single_nominee_first_day: str = "no_vote"  # "no_vote" or "vote"
    single_nominee_later: str = "leaves"  # "leaves" or "vote"
    votes_default_to_last: bool = True
    tie: str = "revote_then_lift"  # or "revote_then_lift_then_coin"
    lift_two_of_four: bool = False
    lift_three_of_nine: bool = False
    last_word_after: tuple[str, ...] = ("vote", "lifted", "shot")
    discussion: float = 300.0  # Princeton: the free discussion before the host closes it
    majority_of_living: bool = False  # Princeton: conviction needs a majority of the living
    second: float = 10.0  # Princeton: how long an accusation waits for a second
    # Roles that may, once per game, replace a day vote by their own verdict (boxed: judge).
    verdict: tuple[str, ...] = ()


@dataclass(frozen=True)
class FoulRules:
    silence_at: int = 3
    remove_at: int = 4
    short_when_alive_at_most: int = 4
    # "nearest": today's vote if it has not started, else the next one; "none"; "today".
    cancel_vote: str = "nearest"


@dataclass(frozen=True)
class RuleSet:
    name: str
    title: str
    roles: Mapping[str, Role]
    deck: Mapping[int, Mapping[str, int]]
    night_zero: tuple[Step, ...]
    night: tuple[Step, ...]
    day: DayRules = DayRules()
    fouls: FoulRules = FoulRules()
    win: tuple[str, ...] = ("no_black", "black_parity")
    best_move: bool = True
    draw_after_idle_rounds: int = 0  # 0: never
    answers_public: bool = False
    callout_beat: float = 1.5
    default_role: str = "civilian"
    source: str = ""  # the file it came from, for messages

    @property
    def min_seats(self) -> int:
        return min(self.deck)

    @property
    def max_seats(self) -> int:
        return max(self.deck)

    def steps(self) -> tuple[Step, ...]:
        return self.night_zero + self.night

    @cached_property
    def step_index(self) -> dict[str, Step]:
        return {step.id: step for step in self.steps()}

    def cue_ids(self) -> set[str]:
        """Every cue this rule set's own data names (the engine's are in cues.ENGINE_CUES)."""
        cues: set[str] = set()
        for step in self.steps():
            cues.update(c for c in (step.wake, step.sleep) if c)
            extra = step.args.get("cues", ())
            if isinstance(extra, list | tuple):
                cues.update(str(c) for c in extra)
        return cues

    def deck_for(self, seats: int) -> dict[str, int]:
        if seats not in self.deck:
            raise ValueError(f"{self.name} is played by {self.min_seats}-{self.max_seats} players")
        return dict(self.deck[seats])

    def with_settings(self, settings: Mapping[str, Any]) -> RuleSet:
        """A copy with settings changed: keys like "day.first_day_vote" or "best_move".

        Unknown keys and values of the wrong type raise ValueError naming the key.
        """
        sections: dict[str, dict[str, Any]] = {
            "day": dataclasses.asdict(self.day),
            "fouls": dataclasses.asdict(self.fouls),
            "": {name: getattr(self, name) for name in _TOP_SETTINGS},
        }
        for key, value in settings.items():
            section, _, name = key.rpartition(".")
            target = sections.get(section)
            if target is None or name not in target:
                raise ValueError(f"unknown setting {key!r}")
            current = target[name]
            if isinstance(current, tuple) and isinstance(value, list):
                value = tuple(value)
            numeric = isinstance(current, float) and isinstance(value, int | float)
            if isinstance(current, bool) != isinstance(value, bool) or not (
                numeric or isinstance(value, type(current))
            ):
                raise ValueError(f"setting {key!r} must be a {type(current).__name__}")
            if key in CHOICES and value not in CHOICES[key]:
                raise ValueError(f"setting {key!r} must be one of {', '.join(CHOICES[key])}")
            target[name] = float(value) if isinstance(current, float) else value
        return dataclasses.replace(
            self, day=DayRules(**sections["day"]), fouls=FoulRules(**sections["fouls"]),
            **sections[""],
        )


# Settings whose value is one of a few words; the loader and with_settings both check them.
CHOICES: dict[str, tuple[str, ...]] = {
    "day.first_day_vote": ("normal", "none", "lift_only"),
    "day.single_nominee_first_day": ("no_vote", "vote"),
    "day.single_nominee_later": ("leaves", "vote"),
    "day.tie": ("revote_then_lift", "revote_then_lift_then_coin"),
    "fouls.cancel_vote": ("nearest", "today", "none"),
}

# Top-level fields a game may change through settings.
_TOP_SETTINGS = ("best_move", "draw_after_idle_rounds", "answers_public", "callout_beat")
