"""A game's set-up: what the organiser chooses before a game, frozen once chosen.

`GameSetup` holds the rule set, the table size, the language, the players' names by seat,
the tournament fields (tournament, table, round, game number), the rule-set settings and
how the roles are dealt (cards at the table, or a phone passed round: then the box deals).
The journal's header carries it (`header()` / `from_header()`), so a protocol written
from a journal has everything a rating needs.

`check()` refuses a set-up with every reason at once (`SetupError.problems`), each with
a stable `code` the page can word in its own language and an English `reason`; nothing
is changed by a refused set-up. `from_json()` reads the page's (or the state folder's)
JSON form and checks it the same way.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from narrator.engine.ruleset import same_value
from narrator.errors import ConfigError, InputFileError
from narrator.phrases.numbers import LANGUAGES
from narrator.records.journal import GameHeader

if TYPE_CHECKING:
    from narrator.rules.configured import ConfiguredRules

NAME_MAX = 40
TEXT_MAX = 80  # the tournament's name
DEALS = ("cards", "phone")
EVENT_NUMBERS = ("table", "round", "game")
# How the players give their inputs (narrator.boxconfig.INPUTS): auto is the pads where the
# box has them, else the keypad; the cues name what the table uses.
INPUTS = ("auto", "pads", "keypad", "both")


@dataclass(frozen=True)
class Problem:
    """One reason a set-up is refused: `field` is the form field ("names.3", "seats",
    "settings.day.speech"...), `code` a stable word for it, `reason` an English sentence."""

    field: str
    code: str
    reason: str
    # The number a page's words need beside the code (the seats a pin map wires).
    limit: int = 0

    def to_json(self) -> dict[str, str]:
        return {"field": self.field, "code": self.code, "reason": self.reason}


class SetupError(ConfigError):
    """A set-up that cannot be played; `problems` lists every reason (the message joins
    them). A ConfigError, so the command line prints one line and exits 2."""

    def __init__(self, source: str, problems: Sequence[Problem]) -> None:
        # Each reason names its place ("seat 3: the name is empty"): all of them, one line.
        super().__init__(source, "", "; ".join(p.reason for p in problems))
        self.problems = tuple(problems)

    def to_json(self) -> dict[str, Any]:
        return {"error": str(self), "problems": [p.to_json() for p in self.problems]}


@dataclass(frozen=True)
class Event:
    """Where the game sits in a tournament or a club evening: all optional."""

    tournament: str = ""
    table: int | None = None
    round: int | None = None
    game: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"tournament": self.tournament, "table": self.table, "round": self.round,
                "game": self.game}

    @property
    def empty(self) -> bool:
        return self == Event()


@dataclass(frozen=True)
class GameSetup:
    rules: str = "sport"  # a bundled rule set's name or a rule-set file
    seats: int = 10
    lang: str = "en"
    names: tuple[str, ...] = ()  # by seat, seat 1 first; () when the table plays unnamed
    event: Event = Event()
    settings: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    deal: str = "cards"  # "cards": the box learns the roles at night zero; "phone": it deals
    input: str = "auto"  # INPUTS: what the cues tell the players to use
    # A judge sits at the table and enters the night on a signed-in judge's page
    # (narrator.web.judge); the pads' and the keypad's night choices are then not taken.
    judge: bool = False
    # The rule set with these settings for this table, resolved when the set-up was
    # accepted (`check`) and read from then on (configured_rules()); not part of what the
    # set-up is: it is left out of comparisons and of the JSON.
    configured: ConfiguredRules | None = field(default=None, compare=False, repr=False)

    def name(self, seat: int) -> str:
        return self.names[seat - 1] if 0 < seat <= len(self.names) else ""

    def check(self, source: str = "set-up") -> GameSetup:
        """This set-up with its names tidied (ends trimmed), or SetupError with every reason."""
        problems: list[Problem] = []
        tidy = tuple(n.strip() for n in self.names)
        rule_problems, configured = _resolved_rules(self)
        problems += rule_problems
        if self.lang not in LANGUAGES:
            problems.append(Problem("lang", "lang", f"language must be one of {', '.join(LANGUAGES)}"))
        if self.deal not in DEALS:
            problems.append(Problem("deal", "deal", f"deal must be one of {', '.join(DEALS)}"))
        if self.input not in INPUTS:
            problems.append(Problem("input", "input", f"input must be one of {', '.join(INPUTS)}"))
        problems += name_problems(tidy, self.seats)
        problems += _event_problems(self.event)
        if problems:
            raise SetupError(source, problems)
        return dataclasses.replace(self, names=tidy, configured=configured)

    def configured_rules(self) -> ConfiguredRules:
        """The rule set with this set-up's settings for its table: the one resolved when
        it was accepted, else resolved now (a set-up never checked; errors as `check`'s
        own: InputFileError, SettingError)."""
        c = self.configured
        if c is not None and c.fits(self.rules, self.settings, self.seats):
            return c
        from narrator.rules.configured import resolve

        return resolve(self.rules, self.settings, self.seats)

    # the journal's header
    def header(self, seed: int, input_method: str = "") -> GameHeader:
        """The journal header of a game played with this set-up (roles dealt here when the
        phone deals); `input_method`: the box's resolution of `auto` (pads or keypad)."""
        configured = self.configured_rules()
        roles: tuple[str, ...] | None = None
        if self.deal == "phone":
            from narrator.engine.deal import deal

            roles = tuple(deal(configured.rules, self.seats, seed))
        # Every setting's value, not only those changed: a replay or a resume plays by
        # exactly this game's settings even if the rule set's defaults change later.
        return GameHeader(rules=self.rules, seats=self.seats, seed=seed, lang=self.lang,
                          settings=configured.resolved_settings(), roles=roles,
                          names=self.names, event=self.event.to_json(), deal=self.deal,
                          input=input_method or self.input, judge=self.judge,
                          configured=configured)

    @classmethod
    def from_header(cls, header: GameHeader) -> GameSetup:
        event = header.event
        return cls(rules=header.rules, seats=header.seats, lang=header.lang,
                   names=tuple(header.names), event=Event(
                       str(event.get("tournament") or ""), event.get("table"),
                       event.get("round"), event.get("game")),
                   settings=MappingProxyType(_changed(header)), deal=header.deal,
                   input=header.input or "auto", judge=header.judge)

    # the next game
    def following(self) -> GameSetup:
        """The same table for the next game: the game number goes up by one when kept."""
        e = self.event
        return dataclasses.replace(self, event=dataclasses.replace(
            e, game=e.game + 1 if e.game is not None else None))

    # JSON: the page's form and the remembered set-up
    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules, "seats": self.seats, "lang": self.lang,
                "names": list(self.names), "event": self.event.to_json(),
                "settings": dict(self.settings), "deal": self.deal, "input": self.input,
                "judge": self.judge}

    @classmethod
    def from_json(cls, data: Any, source: str = "set-up",
                  base: GameSetup | None = None) -> GameSetup:
        """A checked set-up from its JSON form; keys left out keep `base`'s values (the
        defaults when None). Wrong types and unknown keys are problems like any other."""
        start = base or cls()
        if not isinstance(data, Mapping):
            raise SetupError(source, [Problem("", "form", "the set-up must be a JSON object")])
        problems: list[Problem] = []
        known = {"rules", "seats", "lang", "names", "event", "settings", "deal", "input", "judge"}
        problems += [Problem(str(k), "unknown", f"unknown field {k!r}") for k in data if k not in known]
        values: dict[str, Any] = {}
        for key, kind in (("rules", str), ("lang", str), ("deal", str), ("input", str)):
            if key in data:
                if isinstance(data[key], kind):
                    values[key] = data[key]
                else:
                    problems.append(Problem(key, "type", f"{key} must be text"))
        if "judge" in data:
            if isinstance(data["judge"], bool):
                values["judge"] = data["judge"]
            else:
                problems.append(Problem("judge", "type", "judge must be true or false"))
        if "seats" in data:
            seats = data["seats"]
            if _whole(seats) and seats > 0:
                values["seats"] = seats
            else:
                problems.append(Problem("seats", "seats", "seats must be a whole number"))
        if "names" in data:
            names = data["names"]
            if names is None:
                values["names"] = ()
            elif isinstance(names, list) and all(isinstance(n, str) for n in names):
                # A form with every name left blank plays unnamed.
                values["names"] = () if not any(n.strip() for n in names) else tuple(names)
            else:
                problems.append(Problem("names", "type", "names must be a list of texts"))
        if "settings" in data:
            if isinstance(data["settings"], Mapping):
                values["settings"] = MappingProxyType(dict(data["settings"]))
            else:
                problems.append(Problem("settings", "type", "settings must be an object"))
        if "event" in data:
            event, bad = _event_from_json(data["event"])
            problems += bad
            if event is not None:
                values["event"] = event
        if problems:
            raise SetupError(source, problems)
        return dataclasses.replace(start, **values).check(source)


def parse_names(text: str) -> tuple[str, ...]:
    """`--names "Ann,Bob,..."`: comma-separated, ends trimmed (checked by `check`)."""
    return tuple(part.strip() for part in text.split(","))


def name_problems(names: Sequence[str], seats: int) -> list[Problem]:
    """Why these names can't be the table's: none is fine; else one per seat, each
    non-empty, at most NAME_MAX characters, no control characters, no two alike."""
    if not names:
        return []
    problems: list[Problem] = []
    if len(names) != seats:
        problems.append(Problem("names", "names_count",
                                f"{len(names)} names for {seats} seats: give one name per seat"))
    seen: dict[str, int] = {}
    for seat, name in enumerate(names, start=1):
        where = f"names.{seat}"
        if not name:
            problems.append(Problem(where, "name_empty", f"seat {seat}: the name is empty"))
            continue
        if any(unicodedata.category(ch).startswith("C") for ch in name):
            problems.append(Problem(where, "name_control",
                                    f"seat {seat}: the name has a control character"))
        if len(name) > NAME_MAX:
            problems.append(Problem(where, "name_too_long",
                                    f"seat {seat}: the name is longer than {NAME_MAX} characters"))
        key = " ".join(name.casefold().split())
        if key in seen:
            problems.append(Problem(where, "name_duplicate",
                                    f"seat {seat}: {name!r} is already seat {seen[key]}'s name"))
        else:
            seen[key] = seat
    return problems


def _changed(header: GameHeader) -> dict[str, Any]:
    """The header's settings that differ from the rule set's own values: a set-up (and
    the page's form) holds only what the organiser changed; the header holds them all."""
    from narrator.rules.loader import load
    from narrator.rules.settings import resolved

    try:
        defaults = resolved(load(header.rules), {})
    except (InputFileError, ValueError):
        return dict(header.settings)
    return {k: v for k, v in header.settings.items()
            if k not in defaults or not same_value(defaults[k], v)}


def _resolved_rules(setup: GameSetup) -> tuple[list[Problem], ConfiguredRules | None]:
    """Why the set-up's rule set can't be played at its table with its settings, or the
    rule set resolved for it. The rule set the set-up already carries for the same file
    and settings (the config's, the last game's) is checked for this table without
    reading its file again."""
    from narrator.rules.configured import resolve
    from narrator.rules.loader import load
    from narrator.rules.settings import SettingError

    carried = setup.configured
    if carried is not None and not carried.fits(setup.rules, setup.settings, carried.seats):
        carried = None  # another rule set or other settings: resolved afresh
    try:
        base = carried.base if carried is not None else load(setup.rules)
    except InputFileError as exc:
        return [Problem("rules", "rules", str(exc))], None
    if not _whole(setup.seats) or setup.seats < 1:
        return [Problem("seats", "seats", "seats must be a whole number")], None
    try:
        if carried is not None:
            return [], carried.for_table(setup.seats)
        return [], resolve(setup.rules, setup.settings, setup.seats, base=base)
    except SettingError as exc:
        if exc.setting is not None:
            return [Problem(f"settings.{exc.setting}", "setting",
                            f"{exc.path}: {exc.where}: {exc.problem}")], None
        return [Problem("seats", "seats", f"{exc.path}: {exc.where}: {exc.problem}")], None
    except InputFileError as exc:
        return [Problem("rules", "rules", str(exc))], None


def _event_problems(event: Event) -> list[Problem]:
    problems: list[Problem] = []
    t = event.tournament
    if len(t) > TEXT_MAX:
        problems.append(Problem("event.tournament", "text_too_long",
                                f"the tournament's name is longer than {TEXT_MAX} characters"))
    if any(unicodedata.category(ch).startswith("C") for ch in t):
        problems.append(Problem("event.tournament", "text_control",
                                "the tournament's name has a control character"))
    for key in EVENT_NUMBERS:
        value = getattr(event, key)
        if value is not None and (not _whole(value) or not 1 <= value <= 9999):
            problems.append(Problem(f"event.{key}", "number",
                                    f"the {key} number must be a whole number from 1 to 9999"))
    return problems


def _event_from_json(data: Any) -> tuple[Event | None, list[Problem]]:
    if data is None:
        return Event(), []
    if not isinstance(data, Mapping):
        return None, [Problem("event", "type", "event must be an object")]
    problems = [Problem(f"event.{k}", "unknown", f"unknown field {k!r}")
                for k in data if k not in ("tournament", *EVENT_NUMBERS)]
    tournament = data.get("tournament") or ""
    if not isinstance(tournament, str):
        problems.append(Problem("event.tournament", "type", "the tournament must be text"))
        tournament = ""
    numbers: dict[str, int | None] = {}
    for key in EVENT_NUMBERS:
        value = data.get(key)
        if value in (None, ""):
            numbers[key] = None
        elif isinstance(value, str) and value.strip().isascii() and value.strip().isdigit() \
                and len(value.strip()) <= 9:
            numbers[key] = int(value)  # a form's text box
        elif _whole(value):
            numbers[key] = value
        else:
            problems.append(Problem(f"event.{key}", "number",
                                    f"the {key} number must be a whole number from 1 to 9999"))
    if problems:
        return None, problems
    event = Event(tournament.strip(), numbers["table"], numbers["round"], numbers["game"])
    problems = _event_problems(event)
    return (None, problems) if problems else (event, [])


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
