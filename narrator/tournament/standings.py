"""The standings: each player's points over the tournament's counted games, by the
tournament's scoring (narrator.tournament.scoring: a file, or the rule set's own), from
each game's result in force (its played result with every correction in force:
narrator.tournament.corrections).

A game's seats are the tournament's players as the seating put them there (checked when
the game was counted), not names typed at a box: two players of one name stay two. An
annulled game counts for nobody.
Order: the scoring's tie-breaks in its own order (sport's: total points, wins, extra
points with the best move, fewer games), then the name; `place` is shared by players
equal on all but the name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from narrator.engine.ruleset import RuleSet
from narrator.tournament.corrections import Result, in_force
from narrator.tournament.scoring import Facts, Scoring, facts, of_rules, seat_points
from narrator.tournament.stages import Plan, Stage
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
    facts: Facts = field(default_factory=Facts)


@dataclass
class Line:
    player: Player
    games: int = 0
    wins: int = 0
    win_points: float = 0.0
    best_move: float = 0.0  # the first killed's guess
    extra: float = 0.0
    penalty: float = 0.0
    votes: float = 0.0  # Polemica's: reds voting out blacks
    ci: float = 0.0  # mafiaratings' first-night compensation
    special_wins: int = 0
    shot_first: int = 0
    total: float = 0.0
    stage: str = "main"  # the last stage the player was seated in
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
            "penalty": round(self.penalty, 4),
            "votes": round(self.votes, 4),
            "ci": round(self.ci, 4),
            "special_wins": self.special_wins,
            "shot_first": self.shot_first,
            "total": round(self.total, 4),
            "stage": self.stage,
        }

    def tie_break(self, key: str) -> float:
        """The value a tie-break compares (higher ranks first)."""
        value = {
            "total": self.total,
            "wins": self.wins,
            "extra_guess": self.extra + self.best_move,
            "extra_penalty_guess": self.extra + self.penalty + self.best_move,
            "special_wins": self.special_wins,
            "first_shot": self.shot_first,
            "awards": self.extra,
            "guess": self.best_move,
            "fewer_games": -self.games,
        }[key]
        return round(float(value), 4)


def counted(games: Sequence[GameRecord], rules: RuleSet) -> list[Counted]:
    return [
        Counted(
            g.uid,
            g.round,
            g.table,
            g.players,
            g.protocol.roles,
            in_force(g.protocol, g.corrections, rules),
            facts(g.protocol.rest, g.protocol.eliminations),
        )
        for g in games
    ]


def game_points(
    game: Counted, rules: RuleSet, scoring: Scoring | None = None
) -> list[dict[str, float]] | None:
    """Each seat's points in a counted game (None: annulled, or no scoring)."""
    scoring = scoring or of_rules(rules)
    if scoring is None or game.result.annulled:
        return None
    return seat_points(scoring, rules, game.roles, game.result, game.facts)


def standings(
    players: Sequence[Player],
    games: Sequence[Counted],
    rules: RuleSet,
    scoring: Scoring | None = None,
    stages: Plan | None = None,
    public: bool = False,
) -> list[Line]:
    """`stages`: each game's points times its stage's multiplier, the night's points off
    where its stage switched them off, and a player ranked by the last stage reached
    first; `public`: a hidden stage's extra points left out."""
    scoring = scoring or of_rules(rules)
    lines = {p.id: Line(p) for p in players}
    reached = dict(stages.reached) if stages else {}
    for pid, one in lines.items():
        if stages and pid in reached:
            one.stage = stages.stages[reached[pid]].name
    due: list[tuple[Line, dict[str, Any]]] = []  # Ci, once every game is counted
    for game in games:
        scores = game_points(game, rules, scoring)
        if scores is None or scoring is None:
            continue
        stage = stages.of_round(game.round) if stages else None
        hide = public and stages is not None and game.round in stages.hidden
        if stage is not None or hide:
            scores = [_staged(s, stage, hide) for s in scores]
        for seat, (pid, score) in enumerate(zip(game.players, scores, strict=False), start=1):
            line = lines.get(pid)
            if line is None:
                continue
            line.games += 1
            won = score["win"] > 0
            line.wins += 1 if won else 0
            role = game.roles[seat - 1] if seat <= len(game.roles) else ""
            line.special_wins += 1 if won and role in scoring.special_roles else 0
            line.shot_first += int(score["shot_first"])
            line.win_points += score["win"]
            line.best_move += score["best_move"]
            line.extra += score["extra"]
            line.penalty += score["penalty"]
            line.votes += score["votes"]
            line.total += score["total"]
            entry: dict[str, Any] = {
                "game_id": game.uid,
                "round": game.round,
                "table": game.table,
                "seat": seat,
                **score,
            }
            line.by_game.append(entry)
            if score["ci_due"] and scoring.first_night is not None:
                due.append((line, entry))
    if scoring is not None and scoring.first_night is not None:
        for line, entry in due:
            ci = scoring.first_night.points(line.shot_first, line.games)
            ci = round(ci * entry.get("multiplier", 1.0), 4)
            entry["ci"] = ci
            entry["total"] = round(float(entry["total"]) + ci, 4)
            line.ci += ci
            line.total += ci
    keys = scoring.tie_breaks if scoring is not None else ("total",)

    def rank(line: Line) -> tuple[Any, ...]:
        at = reached.get(line.player.id, 0)
        return (-at, *(-line.tie_break(k) for k in keys), line.player.name.casefold())

    order = sorted(lines.values(), key=rank)
    for i, line in enumerate(order):
        same = i and rank(order[i - 1])[:-1] == rank(line)[:-1]
        line.place = order[i - 1].place if same else i + 1
    return order


def _staged(score: dict[str, float], stage: Stage | None, hide: bool) -> dict[str, float]:
    out = dict(score)
    if hide:
        out["extra"] = 0.0
    if stage is not None and not stage.night:
        out["best_move"], out["ci_due"] = 0.0, 0.0
    mult = stage.multiplier if stage is not None else 1.0
    parts = ("win", "best_move", "extra", "penalty", "votes")
    for k in parts:
        out[k] = round(out[k] * mult, 4)
    out["multiplier"] = mult
    out["total"] = round(sum(out[k] for k in parts), 4)
    return out
