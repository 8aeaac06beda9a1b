"""The tournament as files: each game as the Polemica JSON the rating services import
(narrator.records.export_polemica), the standings as CSV, and the printable sheet (the
page's `sheet`)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from narrator.records.export_polemica import ExportError, to_polemica
from narrator.tournament.standings import Line

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


def polemica_of(protocol: Mapping[str, Any], tournament: str) -> dict[str, Any]:
    """One game as a Polemica record, named by its game id and tournament."""
    record = to_polemica({k: v for k, v in protocol.items() if not k.startswith("_")})
    record["id"] = protocol.get("_uid") or protocol["game"]["id"]
    event = protocol["game"].get("event") or {}
    record["tournament"] = {"name": tournament, "round": event.get("round"), "table": event.get("table")}
    return record


def write_all(
    folder: Path, tournament: str, lines: Sequence[Line], games: Sequence[Mapping[str, Any]], sheet: str
) -> list[Path]:
    """Write standings.csv, standings.html and polemica/<game id>.json; the files written.
    A game the Polemica format can't describe (another rule set) is left out, named in
    polemica/skipped.txt."""
    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / "standings.csv", folder / "standings.html"]
    written[0].write_text(standings_csv(lines), encoding="utf-8")
    written[1].write_text(sheet, encoding="utf-8")
    games_dir = folder / "polemica"
    games_dir.mkdir(exist_ok=True)
    skipped: list[str] = []
    for protocol in games:
        try:
            record = polemica_of(protocol, tournament)
        except ExportError as exc:
            skipped.append(f"{record_id(protocol)}: {exc}")
            continue
        path = games_dir / f"{record_id(protocol)}.json"
        path.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        written.append(path)
    if skipped:
        (games_dir / "skipped.txt").write_text("\n".join(skipped) + "\n", encoding="utf-8")
    return written


def record_id(protocol: Mapping[str, Any]) -> str:
    return str(protocol.get("_uid") or protocol["game"]["id"])
