"""The tournament this box plays in: its key (typed once on the box's page), and the
tournament's name and collector's address (from the last round the collector sent,
signed with that key). One small JSON file in the state folder, mode 0600: the key grants
control and is never shown, spoken or logged."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from narrator.records.journal import write_private

FILE = "tournament.json"


@dataclass(frozen=True)
class Pairing:
    key: str = ""
    tournament: str = ""
    collector: str = ""  # http://host:port of the collector

    @property
    def paired(self) -> bool:
        return bool(self.key)

    def with_round(self, tournament: str, collector: str) -> Pairing:
        return replace(self, tournament=tournament, collector=collector)


def load(state_dir: Path) -> Pairing:
    try:
        data = json.loads((state_dir / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Pairing()
    if not isinstance(data, dict):
        return Pairing()
    return Pairing(str(data.get("key", "")), str(data.get("tournament", "")), str(data.get("collector", "")))


def save(state_dir: Path, pairing: Pairing) -> None:
    state_dir.mkdir(parents=True, exist_ok=True)
    write_private(state_dir / FILE, json.dumps(asdict(pairing)) + "\n")
