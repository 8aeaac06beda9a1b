"""Points for a rating: each rule set's scoring, as data in its YAML (`scoring:`).

```yaml
scoring:
  win: 1.0                # each player of the winning team
  best_move: {2: 0.25, 3: 0.5}   # the first-night victim's best move: black players named
  extra: [-1.0, 1.0]      # the organiser's extra points for a player: the range allowed
  rule: "..."             # where the scheme comes from
```

A rule set without `scoring:` gives no points (its protocol shows none). The scheme is the
rule set's `scoring` (engine/ruleset.py `Scoring`: data that changes nothing in a game).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from narrator.engine.rule_sections import Scoring
from narrator.engine.ruleset import RuleSet
from narrator.errors import RuleSetError

Fail = Callable[[str, str], RuleSetError]


def scoring_of(rules: RuleSet) -> Scoring | None:
    """The rule set's scoring, or None: its games give no points."""
    return rules.scoring


def read_scoring(data: Any, fail: Fail) -> Scoring | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise fail("scoring", "expected a mapping (win, best_move, extra, rule)")
    unknown = set(data) - {"win", "best_move", "extra", "rule"}
    if unknown:
        raise fail(f"scoring.{sorted(unknown, key=str)[0]}", "unknown key")
    win = _number(data.get("win", 1.0), "scoring.win", fail)
    best: dict[int, float] = {}
    raw_best = data.get("best_move", {}) or {}
    if not isinstance(raw_best, dict):
        raise fail("scoring.best_move", "expected a mapping of black players named to points")
    for k, v in raw_best.items():
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise fail(f"scoring.best_move.{k}", "expected a number of black players named")
        best[k] = _number(v, f"scoring.best_move.{k}", fail)
    extra = data.get("extra", [0.0, 0.0])
    if not isinstance(extra, list) or len(extra) != 2:
        raise fail("scoring.extra", "expected [lowest, highest]")
    low, high = (_number(x, "scoring.extra", fail) for x in extra)
    if low > high:
        raise fail("scoring.extra", f"the lowest ({low}) is above the highest ({high})")
    rule = data.get("rule", "")
    if not isinstance(rule, str):
        raise fail("scoring.rule", "expected text")
    return Scoring(win, best, (low, high), rule)


def _number(value: Any, where: str, fail: Fail) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise fail(where, f"expected a number, got {value!r}")
    return float(value)


def points(scoring: Scoring, rules: RuleSet, roles: Sequence[str], winner: str | None,
           best_move: Mapping[str, Any] | None, extra: Mapping[int, float]) -> list[dict[str, float]]:
    """Each seat's points (seat 1 first): `win`, `best_move`, `extra` and their `total`.
    `roles` by seat; `winner` the winning team (None or "draw": no win points)."""
    teams = [rules.roles[r].team if r in rules.roles else "" for r in roles]
    guessed = 0
    if best_move:
        named = [int(s) for s in best_move.get("seats", [])]
        guessed = sum(1 for s in named if 0 < s <= len(teams) and teams[s - 1] == "black")
    out: list[dict[str, float]] = []
    for seat, team in enumerate(teams, start=1):
        win = scoring.win if winner and team == winner else 0.0
        bonus = (scoring.best_move.get(guessed, 0.0)
                 if best_move and int(best_move.get("seat", 0)) == seat else 0.0)
        more = float(extra.get(seat, 0.0))
        out.append({"win": win, "best_move": bonus, "extra": more,
                    "total": round(win + bonus + more, 4)})
    return out


def check_extra(scoring: Scoring | None, seats: int, extra: Mapping[int, float]) -> str | None:
    """Why these extra points can't be given (None: they can)."""
    if scoring is None:
        return "this rule set gives no points"
    low, high = scoring.extra
    for seat, value in extra.items():
        if not 1 <= seat <= seats:
            return f"there is no seat {seat}"
        if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
            return f"seat {seat}: extra points go from {low:g} to {high:g}, not {value!r}"
    return None
