"""The tournament as files a rating site takes: each counted game as a Polemica record
(narrator.records.export_polemica) with the players' names and rating ids, the standings
as CSV, and the printable sheet (the page's `sheet`).

A Polemica record says the game as it was played, so that `narrator replay` of it agrees
with the engine: its `result` is the played one (2 for a played draw). What the tournament
made of the game after it is beside it: `bonuses` (each seat's extra points in force),
`official` (the result and each seat's points in force: a draw, a corrected winner, a
technical defeat, an annulled game) and `corrections` (every record: who, when, why, what,
in force or not). A game the format can't describe (another rule set's roles) is named in
`skipped`, never left out silently.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from narrator.engine.ruleset import RuleSet
from narrator.records.export_polemica import RESULT_CODES, ExportError, to_polemica
from narrator.tournament.corrections import decisions, in_force, status
from narrator.tournament.event import Tournament
from narrator.tournament.scoring import chosen, facts
from narrator.tournament.standings import Counted, Line, game_points
from narrator.tournament.store import GameRecord, Player

CSV_COLUMNS = (
    "place",
    "name",
    "club",
    "rating_id",
    "games",
    "wins",
    "win_points",
    "best_move",
    "extra",
    "penalty",
    "votes",
    "ci",
    "special_wins",
    "shot_first",
    "total",
)


def standings_csv(lines: Sequence[Line]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for line in lines:
        row = line.to_json()
        writer.writerow([row[c] for c in CSV_COLUMNS])
    return out.getvalue()


@dataclass(frozen=True)
class Records:
    records: list[dict[str, Any]]
    skipped: list[str]  # "<game id>: why"


def polemica_of(
    game: GameRecord, tournament: Tournament, players: Mapping[int, Player], rules: RuleSet
) -> dict[str, Any]:
    """One counted game as a Polemica record with the tournament's part beside it."""
    record = to_polemica(game.protocol.to_json())
    record["id"] = game.uid
    for entry in record["players"]:
        seat = entry["position"]
        player = players.get(game.players[seat - 1]) if seat <= len(game.players) else None
        if player is not None:
            entry["name"] = player.name
            entry["ratingId"] = player.rating_id
            entry["club"] = player.club
    result = in_force(game.protocol, game.corrections, rules)
    counted = Counted(
        game.uid,
        game.round,
        game.table,
        game.players,
        game.protocol.roles,
        result,
        facts(game.protocol.rest, game.protocol.eliminations),
    )
    scores = game_points(counted, rules, chosen(tournament.scoring, rules)) or []
    record["bonuses"] = [{"position": seat, "value": value} for seat, value in sorted(result.extra.items())]
    record["tournament"] = {
        "name": tournament.name,
        "date": tournament.date,
        "round": game.round,
        "table": game.table,
        "box": game.box,
        "rules": tournament.rules,
        "preset": tournament.preset,
        "scoring": tournament.scoring or None,
    }
    record["official"] = {
        "result": RESULT_CODES.get(result.winner or ""),
        "winner": result.winner,
        "annulled": result.annulled,
        "technicalDefeat": result.technical,
        "points": [{"position": seat, **score} for seat, score in enumerate(scores, start=1)],
    }
    decided = decisions(game.corrections)
    record["corrections"] = [
        {
            "at": _iso(c.at),
            "source": c.source,
            "by": c.who,
            "why": c.why,
            **c.change.to_json(),
            "decides": c.parent,
            "status": status(c, decided),
        }
        for c in game.corrections
    ]
    return record


def polemica_records(
    games: Sequence[GameRecord], tournament: Tournament, players: Sequence[Player], rules: RuleSet
) -> Records:
    by_id = {p.id: p for p in players}
    out = Records([], [])
    for game in games:
        try:
            out.records.append(polemica_of(game, tournament, by_id, rules))
        except ExportError as exc:
            out.skipped.append(f"{game.uid}: {exc}")
    return out


def write_all(
    folder: Path, tournament: Tournament, lines: Sequence[Line], records: Records, sheet: str
) -> list[Path]:
    """Write standings.csv, standings.html and polemica/<game id>.json; the files written.
    A game the Polemica format can't describe is named in polemica/skipped.txt."""
    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / "standings.csv", folder / "standings.html"]
    written[0].write_text(standings_csv(lines), encoding="utf-8")
    written[1].write_text(sheet, encoding="utf-8")
    games_dir = folder / "polemica"
    games_dir.mkdir(exist_ok=True)
    for record in records.records:
        path = games_dir / f"{record['id']}.json"
        path.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        written.append(path)
    if records.skipped:
        (games_dir / "skipped.txt").write_text("\n".join(records.skipped) + "\n", encoding="utf-8")
        written.append(games_dir / "skipped.txt")
    return written


def _iso(seconds: float) -> str:
    return dt.datetime.fromtimestamp(seconds, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
