"""A club's season on its own box: the standings of the box's finished games of a date
range, by a scoring of narrator/rules/scorings (its tie-breaks in its order), with no
collector. Players are their names as typed at the box (one name, one player, whatever
its case); a game with a seat left unnamed cannot be rated and is counted as skipped.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path

from narrator.errors import NarratorError, RecordError
from narrator.records.protocol_value import Protocol
from narrator.rules.loader import bundled_names, load_bundled
from narrator.tournament.corrections import played
from narrator.tournament.scoring import chosen, facts
from narrator.tournament.scoring import names as scoring_names
from narrator.tournament.standings import Counted, Line, standings
from narrator.tournament.store import Player


class SeasonError(NarratorError, ValueError):
    """A date range, scoring or rule set that cannot be read (one line)."""


@dataclass(frozen=True)
class Season:
    start: str
    end: str
    rules: str
    scoring: str
    lines: list[Line]
    games: int  # counted
    skipped: int  # finished games of the range that could not be rated (a seat unnamed)


def day(text: str, what: str) -> str:
    try:
        return dt.date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise SeasonError(f"{what}: expected a date YYYY-MM-DD, not {text[:20]!r}") from None


def season(folder: Path, start: str, end: str, rules: str = "sport", scoring: str = "") -> Season:
    """The standings of the finished games of `rules` in `folder` (the box's protocols)
    begun from `start` to `end`, both days included."""
    start, end = day(start, "from"), day(end, "to")
    if start > end:
        raise SeasonError(f"from {start} is after to {end}")
    if rules not in bundled_names():
        raise SeasonError(f"rule set: one of {', '.join(bundled_names())}, not {rules!r}")
    if scoring and scoring not in scoring_names():
        raise SeasonError(f"scoring: one of {', '.join(scoring_names())}, not {scoring!r}")
    rule_set = load_bundled(rules)
    players: dict[str, Player] = {}
    games: list[Counted] = []
    skipped = 0
    found = folder.glob("*.json") if folder.is_dir() else iter(())
    paths = sorted(p for p in found if not p.name.endswith(".polemica.json"))
    for path in paths:
        try:
            protocol = Protocol.from_json(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, RecordError):
            continue  # not a protocol this box wrote whole: the archive shows it as it is
        when = protocol.game.started[:10]
        if not protocol.finished or protocol.game.rules != rules or not start <= when <= end:
            continue
        if len(protocol.names) != len(protocol.seats) or not all(n.strip() for n in protocol.names):
            skipped += 1
            continue
        ids = []
        for name in protocol.names:
            key = " ".join(name.split()).casefold()
            if key not in players:
                players[key] = Player(len(players) + 1, " ".join(name.split()))
            ids.append(players[key].id)
        games.append(
            Counted(
                protocol.game.id,
                0,
                0,
                tuple(ids),
                protocol.roles,
                played(protocol),
                facts(protocol.rest, protocol.eliminations),
            )
        )
    lines = standings(list(players.values()), games, rule_set, chosen(scoring, rule_set))
    return Season(start, end, rules, scoring, lines, len(games), skipped)
