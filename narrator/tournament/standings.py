"""The standings: each player's points over the tournament's games, by the rule set's
scoring (narrator.rules.scoring), recomputed from each game's protocol in force (a
judge's correction of the winner or of extra points counts at once).

A game's seats are the tournament's players by the round's seating at that table, not by
the names typed at the box: two players of one name stay two players.
Order: total points, then wins, then extra points (best move included), then fewer games,
then the name; `place` is shared by players equal on all but the name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from narrator.engine.rule_sections import Scoring
from narrator.engine.ruleset import RuleSet
from narrator.rules.loader import bundled_names, load_bundled
from narrator.rules.scoring import points, scoring_of
from narrator.tournament.store import Player


@dataclass
class Line:
    player: Player
    games: int = 0
    wins: int = 0
    win_points: float = 0.0
    best_move: float = 0.0
    extra: float = 0.0
    total: float = 0.0
    place: int = 0
    by_game: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "place": self.place,
            **self.player.to_json(),
            "games": self.games,
            "wins": self.wins,
            "win_points": round(self.win_points, 4),
            "best_move": round(self.best_move, 4),
            "extra": round(self.extra, 4),
            "total": round(self.total, 4),
        }


@cache
def _bundled(name: str) -> RuleSet:
    return load_bundled(name)


def game_points(protocol: Mapping[str, Any], scoring: Scoring | None = None) -> list[dict[str, float]] | None:
    """Each seat's points in a finished game (None: unfinished, abandoned or no scoring)."""
    if not protocol.get("over") or protocol.get("abandoned"):
        return None
    name = protocol["game"].get("rules")
    if name not in bundled_names():  # a box's own rule-set file: not read from a path it names
        return None
    rules = _bundled(name)
    scheme = scoring or scoring_of(rules)
    if scheme is None:
        return None
    roles = [s["role"] for s in protocol["seats"]]
    extra = {int(k): float(v) for k, v in (protocol.get("extra") or {}).items()}
    return points(scheme, rules, roles, protocol.get("winner"), protocol.get("best_move"), extra)


def standings(
    players: Sequence[Player],
    seating: Mapping[int, Mapping[int, Sequence[int]]],
    games: Sequence[Mapping[str, Any]],
) -> list[Line]:
    lines = {p.id: Line(p) for p in players}
    for protocol in games:
        event = protocol["game"].get("event") or {}
        seated = seating.get(event.get("round") or 0, {}).get(event.get("table") or 0)
        scores = game_points(protocol)
        if not seated or scores is None:
            continue
        for seat, (pid, score) in enumerate(zip(seated, scores, strict=False), start=1):
            line = lines.get(pid)
            if line is None:
                continue
            line.games += 1
            line.wins += 1 if score["win"] > 0 else 0
            line.win_points += score["win"]
            line.best_move += score["best_move"]
            line.extra += score["extra"]
            line.total += score["total"]
            line.by_game.append(
                {
                    "game_id": protocol.get("_uid", protocol["game"]["id"]),
                    "round": event.get("round"),
                    "table": event.get("table"),
                    "seat": seat,
                    **score,
                }
            )
    order = sorted(lines.values(), key=_rank_key)
    for i, line in enumerate(order):
        same = i and _rank_key(order[i - 1])[:-1] == _rank_key(line)[:-1]
        line.place = order[i - 1].place if same else i + 1
    return order


def _rank_key(line: Line) -> tuple[float, int, float, int, str]:
    return (
        -round(line.total, 4),
        -line.wins,
        -round(line.extra + line.best_move, 4),
        line.games,
        line.player.name.casefold(),
    )
