"""The rule set's sections, each a frozen value: its roles, the night script's steps, the day,
the fouls, the dawn news, the presets and the points for a rating. narrator.engine.ruleset puts
them together; narrator.rules.loader builds them from YAML."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_origin, get_type_hints

from narrator.engine.words import (
    CancelVote,
    CoinRule,
    DawnNews,
    FirstDayVote,
    GuardNews,
    HealNews,
    RevoteTieFewer,
    SingleNomineeFirstDay,
    SingleNomineeLater,
    StepInput,
    TieRule,
)


@dataclass(frozen=True, slots=True)
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
    # The card a role check shows for this role (boxed: the ninja shows as a civilian).
    shows_as: str | None = None

    @property
    def check_team(self) -> str:
        return self.checks_as or self.team

    @property
    def count_team(self) -> str:
        return self.counts_as or self.team


@dataclass(frozen=True, slots=True)
class Step:
    """One call of the night script. It is called every night whether its role holders
    are alive, dead, silenced or blocked; only roles absent from the deck are skipped."""

    id: str
    roles: tuple[str, ...]
    ability: str
    input: StepInput = "callout"  # taps at the called number; a keypad entry; none
    window: float = 10.0  # a keypad or meeting window; call-outs use the rule set's beat
    answer: float = 0.0  # a fixed window in which a check answer is shown privately
    wake: str = ""
    sleep: str = ""
    # The wake cue on night 0, where the same roles' meeting has just woken them (classic's
    # whole first night: "Mafia awake" is said once, not twice). Later nights use `wake`,
    # also when a setting moves the step's first night later (classic's opens_with: day).
    wake_night_zero: str = ""
    first_night: int = 1  # the first night this step is called (0: night zero)
    last_night: int | None = None  # night zero's meetings stop at 0
    args: Mapping[str, Any] = field(default_factory=dict)
    # Other wake and sleep cues when a role is in this game's deck (a public fact): the
    # boxed commissar wakes with the sergeant, or alone: {sergeant: {wake: .., sleep: ..}};
    # classic's angel is the heart angel only beside a diamond one (`wake_night_zero` too).
    cues_if: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def called_on(self, night: int) -> bool:
        return night >= self.first_night and (self.last_night is None or night <= self.last_night)

    def cue(self, which: str, deck: Mapping[str, int], night: int = -1) -> str:
        """The step's `wake` or `sleep` cue for a game with this deck on this night."""
        if which == "wake" and night == 0 and self.wake_night_zero:
            which = "wake_night_zero"
        for role, cues in self.cues_if.items():
            if deck.get(role) and which in cues:
                return cues[which]
        return str(getattr(self, which))


@dataclass(frozen=True, slots=True)
class DayRules:
    procedure: str = "speeches"  # hook in narrator.engine.days
    speech: float = 60.0
    short_speech: float = 30.0  # a penalised speech when few players are left
    tie_speech: float = 30.0
    last_word: float = 60.0
    # The last word of players the table lifted together (sport 001: "The eliminated player
    # gives a final 30-second speech"); 0: last_word.
    lifted_last_word: float = 0.0
    silent_turn: float = 10.0  # a lost speech: time to nominate only
    ballot: float = 5.0  # how long pads are live for one candidate
    warn_before_end: float = 10.0
    first_day_vote: FirstDayVote = "normal"
    single_nominee_first_day: SingleNomineeFirstDay = "no_vote"
    single_nominee_later: SingleNomineeLater = "leaves"
    votes_default_to_last: bool = True
    # How many players one speech may nominate (0: any number). Sport (000): "no more
    # than one per player"; club's 004 names no number, one is its default and a setting.
    nominations_per_speech: int = 1
    # May a player nominate (propose, accuse) themself? (classic, 002: "any other player";
    # club, 004: "nominate other players"; a setting in sport, club and boxed)
    self_nomination: bool = True
    # Does a nominee immune from the vote (the club lover's guest) count toward the
    # nominees a vote needs? (club: no; its literal reading is a setting)
    immune_nominee_counts: bool = True
    # Do the tied players vote in the re-vote? (club, 004: "do not participate")
    tied_vote_in_revote: bool = True
    tie: TieRule = "revote_then_lift"
    # A re-vote tied again among fewer players than it had: "lift" (sport, 000/001: "If
    # the players again gain an equal number of votes", the lift vote) or "revote" (a new
    # re-vote among them, with their speeches).
    revote_tie_fewer: RevoteTieFewer = "revote"
    lift_two_of_four: bool = False
    lift_three_of_nine: bool = False
    last_word_after: tuple[str, ...] = ("vote", "lifted", "shot")
    discussion: float = 300.0  # Princeton: the free discussion before the accusations
    accusations: float = 60.0  # Princeton: how long the moderator waits for an accusation
    accuser_speech: float = 30.0  # Princeton: the accuser explains (0: no speech)
    comments: float = 60.0  # Princeton: others comment before the vote (0: none)
    majority_of_living: bool = False  # Princeton: conviction needs a majority of the living
    unanimous: bool = False  # Princeton variant: every living player but the accused
    multiple_convictions: bool = False  # Princeton variant: accusations go on after one
    second: float = 10.0  # Princeton: how long an accusation waits for a second
    # Roles that may, once per game, replace a day vote by their own verdict (boxed: judge).
    verdict: tuple[str, ...] = ()
    # May the verdict's holder jail himself? (boxed, 003: the judge "plays on as an
    # ordinary civilian" after the verdict: not by default.)
    verdict_self: bool = False
    # boxed: when the all-or-none re-vote ties again, the coin answers "all or none"
    # ("all_or_none") or picks one of the tied ("one").
    coin: CoinRule = "all_or_none"
    # A player who leaves by the day's vote (or a verdict) shows the card, said aloud.
    reveal_role: bool = False


@dataclass(frozen=True, slots=True)
class FoulRules:
    silence_at: int = 3
    remove_at: int = 4
    short_when_alive_at_most: int = 4
    # Which removal cancels a vote: "nominee" (only a nominee's: that day's vote);
    # "nearest" (any: the vote running or the next one); "today" (any: that day's);
    # "none". A nominee removed while the vote runs always ends it (fouls.py).
    cancel_vote: CancelVote = "nominee"
    # club (004): a player whose third foul cost a speech starts again from none.
    reset_after_lost_speech: bool = False
    # False: the rules have no fouls (the boxed booklet); the host's removal stays.
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class DawnRules:
    # What the morning tells besides the victims (boxed: "booklet": who killed whom, who
    # was saved, put to sleep, silenced; "deaths": only the dead, by killer, and the silenced).
    news: DawnNews = "booklet"
    # Whom a healer healed: "always" (boxed 003: the news tells «кого вылечил Доктор»), or
    # "saved": only when a killer came for that seat.
    heal_news: HealNews = "always"
    # Whom a guard guarded: "always" (boxed 003: the news lists the night card's actions
    # «и так далее», the bodyguard's among them), or "stopped": only when it stopped a kill.
    guard_news: GuardNews = "always"


@dataclass(frozen=True, slots=True)
class Preset:
    """A named bundle of settings (sport's `tournament`): picked by name with `--preset`
    or on the set-up page; settings given beside it win."""

    name: str
    text: Mapping[str, str]  # a label by language
    values: Mapping[str, Any]  # setting key -> value, each checked by the loader
    rule: str = ""  # where the practice comes from


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points for a rating (`scoring:` in the YAML): they change nothing in a game; the
    arithmetic is narrator.rules.scoring's."""

    win: float = 1.0
    best_move: Mapping[int, float] = field(default_factory=dict)  # black seats named -> points
    extra: tuple[float, float] = (0.0, 0.0)  # the organiser's extra points: lowest, highest
    rule: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"win": self.win, "best_move": {str(k): v for k, v in sorted(self.best_move.items())},
                "extra": list(self.extra), "rule": self.rule}


def _choices(section: str, cls: type) -> dict[str, tuple[str, ...]]:
    """The fields of a rules section typed as a vocabulary (narrator.engine.words), by
    setting key, with their words."""
    hints = get_type_hints(cls)
    return {f"{section}.{f.name}": get_args(hints[f.name]) for f in dataclasses.fields(cls)
            if get_origin(hints[f.name]) is Literal}


# Settings whose value is one of a few words, read from the fields' types; the loader and
# with_settings both check them.
CHOICES: dict[str, tuple[str, ...]] = {
    **_choices("day", DayRules), **_choices("fouls", FoulRules), **_choices("dawn", DawnRules)}
