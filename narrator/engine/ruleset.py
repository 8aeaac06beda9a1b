"""The rule-set model the engine plays by: frozen data, built by narrator.rules.loader.

Rules are data plus small named hooks: a night step names its `ability`, the day names
its `procedure`, and the rule set names its `win` checks; narrator.engine.registry lists
every hook by those names. Nothing in the engine asks which rule set it is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_origin, get_type_hints

from narrator.engine.setting_types import Limit, Setting
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
class Setup:
    """A deck built from a table of counts by seats, some of whose columns are groups of
    special roles a club picks (the boxed booklet: "Вы сами выбираете, какие роли оставить
    в игре"). `table[seats]` counts roles and groups; `choice` are the picks the box plays
    when the club names none (from the largest key not above the seats); `filler` fills
    the rest when the table is not followed, `counted` is the role whose number
    `mafiosi` then sets. `players_extra` is how many players the table counts besides the
    seats (the boxed table counts the host). `roles`, `follow_table` and `mafiosi` are
    settings."""

    table: Mapping[int, Mapping[str, int]]
    groups: Mapping[str, tuple[str, ...]]
    choice: Mapping[int, tuple[str, ...]]
    filler: str
    counted: str
    players_extra: int = 0
    roles: tuple[str, ...] = ()
    follow_table: bool = True
    mafiosi: int = 0

    def picks(self, seats: int) -> tuple[str, ...]:
        if self.roles:
            return self.roles
        keys = [k for k in self.choice if k <= seats]
        return self.choice[max(keys)] if keys else ()

    def _counted_default(self, seats: int, row: Mapping[str, int], picks: tuple[str, ...],
                         rules: RuleSet) -> int:
        """`counted` cards when the club names no number: the table's, and beyond its
        last row the booklet's proportion («мирных… примерно в 2 раза больше, чем
        преступников»): a third of the players are criminals, the special ones picked
        among them (the table's own rows from 15 seats follow it too)."""
        if seats in self.table:
            return row.get(self.counted, 0)
        town = rules.roles[self.filler].team
        criminals = sum(1 for r in picks if rules.roles[r].team != town)
        return max(1, round(seats / 3) - criminals)

    def deck(self, seats: int, rules: RuleSet) -> dict[str, int]:
        """This table's deck, or ValueError saying which setting breaks which rule."""
        low, top = min(self.table), max(self.table)
        besides = " besides the host" if self.players_extra else ""
        if seats < low:
            raise ValueError(f"{rules.name} is played by {low} or more players{besides}")
        if seats > top and self.follow_table:
            # The table's last row is a limit of the table, not of the game («Играть можно
            # и большим составом»): a club that does not follow it plays larger tables.
            raise ValueError(f"setup.follow_table: the table goes up to {top} players{besides}; "
                             f"a larger game needs setup.follow_table false")
        picks = self.picks(seats)
        special = {r for roles in self.groups.values() for r in roles}
        seen: set[str] = set()
        for role in picks:
            if role not in special:
                raise ValueError(f"setup.roles: {role!r} is not a special role of {rules.name}")
            if role in seen:
                raise ValueError(f"setup.roles: {role} is named twice")
            seen.add(role)
            clash = [o for o in rules.roles[role].excludes if o in picks]
            if clash:
                raise ValueError(f"setup.roles: {role} and {clash[0]} never play together")
        row = self.table[min(seats, top)]
        players = seats + self.players_extra
        where = f"the table's row for {players} players" + (
            f" ({seats} seats and the host)" if self.players_extra == 1 else "")
        deck: dict[str, int] = {}
        if self.follow_table:
            for group, roles in self.groups.items():
                chosen = sum(1 for r in picks if r in roles)
                if chosen != row.get(group, 0):
                    raise ValueError(f"setup.roles: {group.replace('_', ' ')}: {chosen} named, "
                                     f"{row.get(group, 0)} in {where}")
            if self.mafiosi and self.mafiosi != row.get(self.counted, 0):
                raise ValueError(f"setup.mafiosi: {where} has {row.get(self.counted, 0)} "
                                 f"{self.counted}, not {self.mafiosi}")
            for role, n in row.items():
                if role not in self.groups and n:
                    deck[role] = n
        else:
            for role, n in row.items():
                if role not in self.groups and role != self.filler and n:
                    deck[role] = n
            deck[self.counted] = self.mafiosi or self._counted_default(seats, row, picks, rules)
            left = seats - sum(deck.values()) - len(picks)
            if left < 1:
                raise ValueError(f"setup.roles: no {self.filler} left for {seats} seats, and "
                                 f"every game has one")
            deck[self.filler] = left
        for role in picks:
            deck[role] = 1
        return deck


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


@dataclass(frozen=True, slots=True)
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
    dawn: DawnRules = DawnRules()
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
            return self.setup.deck(seats, self)
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
                decks[seats] = self.setup.deck(seats, self)
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

# The setup's fields a game may change through settings ("setup.roles"...).
_SETUP_SETTINGS = ("roles", "follow_table", "mafiosi")

# Top-level fields a game may change through settings.
_TOP_SETTINGS = ("best_move", "draw_after_idle_rounds", "answers_public", "callout_beat", "callout_step",
                 "win", "meet_calls")
# Night-step fields a setting may change (when the step is first and last called).
_STEP_SETTINGS = ("first_night", "last_night")
