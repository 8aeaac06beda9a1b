"""The organiser's extra points, given after a game: the protocol files are written again.

A tournament judge hands out extra points (or takes some away) once the game is over.
`give_extra_points` checks them against the rule set's scoring (its range, real seats,
a finished game whose rules give points), puts them in the JSON protocol, recomputes
every player's points and writes the JSON, the sheet and the Polemica record again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from narrator.errors import RecordError
from narrator.records.journal import games_dir, read
from narrator.records.protocol import protocol_paths, score_players
from narrator.records.session import ProtocolFiles, protocols_dir, write_protocol_files
from narrator.rules.scoring import check_extra, scoring_of


def give_extra_points(state_dir: str | Path, game_id: str,
                      extra: Mapping[int, float]) -> ProtocolFiles:
    """Set these seats' extra points (others keep theirs); RecordError when they can't be
    given (no such finished game, no scoring, out of range), nothing written then."""
    folder = protocols_dir(state_dir)
    path = protocol_paths(folder, game_id)["json"]
    journal = games_dir(state_dir) / f"{game_id}.jsonl"
    if not path.is_file() or not journal.is_file():
        raise RecordError(str(path), "", "no finished game with this id")
    try:
        protocol = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RecordError(str(path), "", f"cannot read the protocol: {exc}") from None
    if not protocol.get("over") or protocol.get("abandoned"):
        raise RecordError(str(path), "", "points are given only for a finished game")
    rules = read(journal).header.rule_set()
    problem = check_extra(scoring_of(rules), len(protocol["seats"]), extra)
    if problem:
        raise RecordError(str(path), "extra", problem)
    given = {str(k): v for k, v in (protocol.get("extra") or {}).items()}
    given.update({str(seat): float(value) for seat, value in extra.items()})
    protocol["extra"] = {k: v for k, v in given.items() if v}
    score_players(protocol, rules)
    return write_protocol_files(protocol, folder, game_id)
