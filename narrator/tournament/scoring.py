"""A tournament's scoring as data: narrator/rules/scorings/NAME.yaml beside the rule sets
(sport, fiim, mafiaratings, polemica), each with its tie-breaks in its own order.

```yaml
win: 1.0                          # each player of the winning team
guess: {2: 0.25, 3: 0.4}          # the first killed's best move: black players named
penalty: {points: -0.5, fouls: 4, removal: true}  # once a game: N fouls or a removal
first_night: {factor: 1.2, less: 0.18, most: 0.3}  # mafiaratings' Ci (below)
voted_black: 0.1                  # each red player whose vote put out a black player
special_roles: [sheriff, don]     # whose wins `special_wins` counts
tie_breaks: [total, extra_penalty_guess, wins, special_wins, first_shot]
```

The organiser's extra points (a game's `extra`, within the rule set's bounds) count in
every scoring. Ci: a red player shot on the first night (night 1) in a game the reds
lost gets clamp(factor x share - less, 0 .. most), the share being the part of their
counted games in which they were shot on the first night.

Tie-breaks (after the first, each only among players equal on all before it; higher
ranks first, but `fewer_games`): total; wins; extra_guess (extra + guess);
extra_penalty_guess; special_wins (wins in a special role); first_shot (times shot on
the first night); awards (the organiser's extra points); guess; fewer_games.

A tournament with no scoring named counts its rule set's own (`scoring:` in the rule
set) with sport's tie-breaks: what every tournament counted before scorings were files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from narrator.engine.ruleset import RuleSet
from narrator.errors import ConfigError
from narrator.yamlfile import parse_yaml

TIE_BREAKS = (
    "total",
    "wins",
    "extra_guess",
    "extra_penalty_guess",
    "special_wins",
    "first_shot",
    "awards",
    "guess",
    "fewer_games",
)
FIRST_NIGHT = 1  # the night a first killed is shot on (night 0 is the mafia's meeting)


@dataclass(frozen=True)
class Penalty:
    points: float = 0.0
    fouls: int = 0  # 0: fouls give no penalty
    removal: bool = False


@dataclass(frozen=True)
class Ci:
    factor: float
    less: float
    most: float

    def points(self, shot_first: int, games: int) -> float:
        share = shot_first / games if games else 0.0
        return round(min(self.most, max(0.0, self.factor * share - self.less)), 4)


@dataclass(frozen=True)
class Scoring:
    name: str
    en: str = ""
    ru: str = ""
    rule: str = ""
    win: float = 1.0
    guess: Mapping[int, float] = field(default_factory=dict)
    penalty: Penalty = Penalty()
    first_night: Ci | None = None
    voted_black: float = 0.0
    special_roles: tuple[str, ...] = ("sheriff", "don")
    tie_breaks: tuple[str, ...] = ("total", "wins", "extra_guess", "fewer_games")

    def title(self, lang: str) -> str:
        return (self.ru if lang == "ru" else self.en) or self.name


def names() -> list[str]:
    folder = resources.files("narrator.rules") / "scorings"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml"))


@cache
def load(name: str) -> Scoring:
    """A bundled scoring by name (ConfigError naming the file, key and problem)."""
    if name not in names():
        raise ConfigError("--scoring", name, f"not a scoring (known: {', '.join(names())})")
    item = resources.files("narrator.rules") / "scorings" / f"{name}.yaml"
    source = f"narrator/rules/scorings/{name}.yaml"
    return parse(item.read_text(encoding="utf-8"), source, name)


def of_rules(rules: RuleSet) -> Scoring | None:
    """The rule set's own scoring, as a tournament with no scoring named counts it."""
    s = rules.scoring
    if s is None:
        return None
    return Scoring("", rule=s.rule, win=s.win, guess=dict(s.best_move))


def chosen(name: str, rules: RuleSet) -> Scoring | None:
    return load(name) if name else of_rules(rules)


def parse(text: str, source: str, name: str) -> Scoring:
    data = parse_yaml(text, source, ConfigError)
    if not isinstance(data, dict):
        raise ConfigError(source, "(top)", "expected a mapping")
    known = {f for f in Scoring.__dataclass_fields__ if f != "name"}
    for key in data:
        if key not in known:
            raise ConfigError(source, str(key), f"not a key of a scoring (known: {', '.join(sorted(known))})")
    out: dict[str, Any] = {"name": name}
    for key in ("en", "ru", "rule"):
        if key in data:
            if not isinstance(data[key], str):
                raise ConfigError(source, key, "expected text")
            out[key] = data[key]
    for key in ("win", "voted_black"):
        if key in data:
            out[key] = _number(data[key], source, key)
    if "guess" in data:
        raw = data["guess"]
        if not isinstance(raw, dict):
            raise ConfigError(source, "guess", "expected a mapping of black players named to points")
        for k in raw:
            if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 3:
                raise ConfigError(source, f"guess.{k}", "expected 1, 2 or 3 black players named")
        out["guess"] = {int(k): _number(v, source, f"guess.{k}") for k, v in raw.items()}
    if "penalty" in data:
        raw = _mapping(data["penalty"], source, "penalty", {"points", "fouls", "removal"})
        fouls = raw.get("fouls", 0)
        if isinstance(fouls, bool) or not isinstance(fouls, int) or fouls < 0:
            raise ConfigError(source, "penalty.fouls", "expected a number of fouls (0: none)")
        removal = raw.get("removal", False)
        if not isinstance(removal, bool):
            raise ConfigError(source, "penalty.removal", "expected true or false")
        out["penalty"] = Penalty(_number(raw.get("points", 0.0), source, "penalty.points"), fouls, removal)
    if "first_night" in data:
        raw = _mapping(data["first_night"], source, "first_night", {"factor", "less", "most"})
        missing = {"factor", "less", "most"} - set(raw)
        if missing:
            raise ConfigError(source, "first_night", f"needs {', '.join(sorted(missing))}")
        parts = (_number(raw[k], source, f"first_night.{k}") for k in ("factor", "less", "most"))
        out["first_night"] = Ci(*parts)
    if "special_roles" in data:
        roles = data["special_roles"]
        if not isinstance(roles, list) or not all(isinstance(r, str) for r in roles):
            raise ConfigError(source, "special_roles", "expected a list of role names")
        out["special_roles"] = tuple(roles)
    if "tie_breaks" in data:
        order = data["tie_breaks"]
        if not isinstance(order, list) or not order or order[0] != "total":
            raise ConfigError(source, "tie_breaks", "expected a list starting with total")
        for k in order:
            if k not in TIE_BREAKS:
                raise ConfigError(source, "tie_breaks", f"{k!r} is not one (known: {', '.join(TIE_BREAKS)})")
        out["tie_breaks"] = tuple(order)
    return Scoring(**out)


def _mapping(value: Any, source: str, where: str, keys: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(source, where, "expected a mapping")
    for k in value:
        if k not in keys:
            raise ConfigError(source, f"{where}.{k}", f"not a key (known: {', '.join(sorted(keys))})")
    return value


def _number(value: Any, source: str, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(source, where, f"expected a number, got {value!r}")
    return float(value)


@dataclass(frozen=True)
class Facts:
    """What a scoring needs of one game beyond its result: who was shot on the first
    night, and who voted out each black player (the protocol's eliminations and votes)."""

    first_shot: int | None = None
    voted_out: tuple[tuple[int, tuple[int, ...]], ...] = ()  # (seat put out by vote, its voters)


def facts(protocol_rest: Mapping[str, Any], eliminations: Sequence[Any]) -> Facts:
    first = next(
        (e.seat for e in eliminations if e.how == "shot" and e.phase == "night" and e.number == FIRST_NIGHT),
        None,
    )
    days = {d.get("number"): d for d in protocol_rest.get("days", []) or [] if isinstance(d, Mapping)}
    voted: list[tuple[int, tuple[int, ...]]] = []
    for e in eliminations:
        if e.how != "vote" or e.phase != "day":
            continue
        votes = [v for v in days.get(e.number, {}).get("votes", []) if v.get("candidate") == e.seat]
        if votes:
            voted.append((e.seat, tuple(int(s) for s in votes[-1].get("voters", []))))
    return Facts(first, tuple(voted))


def seat_points(
    scoring: Scoring,
    rules: RuleSet,
    roles: Sequence[str],
    result: Any,  # narrator.tournament.corrections.Result
    game: Facts,
) -> list[dict[str, float]]:
    """Each seat's points by group (seat 1 first): win, guess, extra, penalty, votes; and
    `first_shot` (1: shot on the first night in a game their team lost, red). Ci needs the
    whole tournament: the standings add it."""
    teams = [rules.roles[r].team if r in rules.roles else "" for r in roles]
    guessed, guesser = 0, 0
    if result.best_move is not None:
        guesser = result.best_move.seat
        guessed = sum(1 for s in result.best_move.seats if 0 < s <= len(teams) and teams[s - 1] == "black")
    voters: dict[int, int] = {}
    for seat, who in game.voted_out:
        if 0 < seat <= len(teams) and teams[seat - 1] == "black":
            for v in who:
                voters[v] = voters.get(v, 0) + 1
    out: list[dict[str, float]] = []
    winner = result.winner if result.winner in ("red", "black") else None
    for seat, team in enumerate(teams, start=1):
        win = scoring.win if winner and team == winner else 0.0
        guess = scoring.guess.get(guessed, 0.0) if seat == guesser else 0.0
        extra = float(result.extra.get(seat, 0.0))
        p = scoring.penalty
        bad = (p.fouls and result.fouls.get(seat, 0) >= p.fouls) or (p.removal and seat in result.removed)
        penalty = p.points if bad else 0.0
        votes = scoring.voted_black * voters.get(seat, 0) if team == "red" else 0.0
        lost_first = seat == game.first_shot and team == "red" and winner == "black"
        out.append(
            {
                "win": win,
                "best_move": guess,
                "extra": extra,
                "penalty": penalty,
                "votes": round(votes, 4),
                "shot_first": 1.0 if seat == game.first_shot else 0.0,
                "ci_due": 1.0 if lost_first else 0.0,
                "total": round(win + guess + extra + penalty + votes, 4),
            }
        )
    return out
