"""Tables a rule document forbids, checked before a game starts.

A rule set's `limits:` entries name one of these hooks with its arguments. `check`
returns what is wrong with this table (seats, and the deck the settings make), or None;
the caller adds the document's words. `check_args` vets the arguments when the rule set
is loaded.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from narrator.engine.ruleset import RuleSet
from narrator.engine.setting_types import Limit

Args = Mapping[str, Any]


@dataclass(frozen=True)
class LimitCheck:
    check: Callable[[RuleSet, int, Limit], str | None]
    check_args: Callable[[Args], str | None]


def _whole(args: Args, names: tuple[str, ...], required: tuple[str, ...] = ()) -> str | None:
    unknown = set(args) - set(names)
    if unknown:
        return f"unknown arguments {sorted(unknown, key=str)}"
    for name in names:
        value = args.get(name)
        if value is None:
            if name in required:
                return f"{name} is needed"
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            return f"{name} must be a whole number, got {value!r}"
    return None


def _deck(rules: RuleSet, seats: int) -> dict[str, int] | None:
    try:
        return rules.deck_for(seats)
    except ValueError:
        return None  # the deck's own check says why


# --- seats: how many players the document allows ----------------------------------------


def _seats(rules: RuleSet, seats: int, limit: Limit) -> str | None:
    low, high = limit.args.get("min"), limit.args.get("max")
    if low is not None and seats < low:
        return f"at least {low} players"
    if high is not None and seats > high:
        return f"at most {high} players"
    return None


# --- role_at_most: no more cards of a role than the document has --------------------------


def _role_at_most(rules: RuleSet, seats: int, limit: Limit) -> str | None:
    deck = _deck(rules, seats)
    role, most = limit.args["role"], limit.args["count"]
    if deck is not None and deck.get(role, 0) > most:
        return f"{deck[role]} {role} cards, at most {most}"
    return None


def _role_args(args: Args) -> str | None:
    role = args.get("role")
    if not isinstance(role, str):
        return f"role must name a role, got {role!r}"
    return _whole({k: v for k, v in args.items() if k != "role"}, ("count",), ("count",))


# --- minority: a side must start outnumbered, or the game is over before it begins -------


def _minority(rules: RuleSet, seats: int, limit: Limit) -> str | None:
    deck = _deck(rules, seats)
    if deck is None:
        return None
    team = limit.args["team"]
    side = sum(n for role, n in deck.items() if rules.roles[role].team == team)
    if side == 0:
        return f"no {team} player"
    if 2 * side >= seats:
        return f"{side} {team} players of {seats}: they would win before the first night"
    return None


def _team_args(args: Args) -> str | None:
    unknown = set(args) - {"team"}
    if unknown:
        return f"unknown arguments {sorted(unknown, key=str)}"
    return None if isinstance(args.get("team"), str) else "team must name a team"


# --- setup_table: a deck built from a table and the club's picks (boxed) -----------------


def _setup_table(rules: RuleSet, seats: int, limit: Limit) -> str | None:
    if rules.setup is None:
        return None
    try:
        rules.setup.deck(seats, rules.name, rules.roles)
    except ValueError as exc:
        return str(exc)
    return None


LIMITS: dict[str, LimitCheck] = {
    "seats": LimitCheck(_seats, lambda args: _whole(args, ("min", "max"))),
    "role_at_most": LimitCheck(_role_at_most, _role_args),
    "minority": LimitCheck(_minority, _team_args),
    "setup_table": LimitCheck(_setup_table, lambda args: _whole(args, ())),
}
