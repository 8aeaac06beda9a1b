"""The standings: each player's points over the tournament's counted games, by the rule
set's scoring (narrator.rules.scoring), from each game's result in force (its played
result with every correction in force: narrator.tournament.corrections).

A game's seats are the tournament's players as the seating put them there (checked when
the game was counted), not names typed at a box: two players of one name stay two. An
annulled game counts for nobody.
Order: total points, then wins, then extra points (best move included), then fewer games,
then the name; `place` is shared by players equal on all but the name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from narrator.engine.ruleset import RuleSet
from narrator.rules.scoring import points
from narrator.tournament.corrections import Result, in_force
from narrator.tournament.store import GameRecord, Player


@dataclass(frozen=True)
class Counted:
    """One game as the standings count it."""

    uid: str
    round: int
    table: int
    players: tuple[int, ...]  # the tournament's player ids, by seat
    roles: tuple[str, ...]  # by seat
    result: Result


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


def counted(games: Sequence[GameRecord], rules: RuleSet) -> list[Counted]:
    return [
        Counted(
            g.uid, g.round, g.table, g.players, g.protocol.roles, in_force(g.protocol, g.corrections, rules)
        )
        for g in games
    ]


def game_points(game: Counted, rules: RuleSet) -> list[dict[str, float]] | None:
    """Each seat's points in a counted game (None: annulled, or a rule set without scoring)."""
    if rules.scoring is None or game.result.annulled:
        return None
    r = game.result
    best = r.best_move.to_json() if r.best_move else None
    return points(rules.scoring, rules, game.roles, r.winner, best, r.extra)


def standings(players: Sequence[Player], games: Sequence[Counted], rules: RuleSet) -> list[Line]:
    lines = {p.id: Line(p) for p in players}
    for game in games:
        scores = game_points(game, rules)
        if scores is None:
            continue
        for seat, (pid, score) in enumerate(zip(game.players, scores, strict=False), start=1):
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
                {"game_id": game.uid, "round": game.round, "table": game.table, "seat": seat, **score}
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
