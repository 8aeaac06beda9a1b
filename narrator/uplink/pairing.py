"""The tournament this box plays in: its key (typed once on the box's page), the
tournament's name and the collector's address (from the last signed round, or the last
signed answer of the collector where it moved), and the rounds the collector sent it
(tournament, round, table, game): only a game of one of those is delivered. One small
JSON file in the state folder, mode 0600: the key grants control and is never shown,
spoken or logged."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from narrator.records.journal import write_private
from narrator.records.protocol_value import EventInfo
from narrator.tournament.wire import RoundOrder

FILE = "tournament.json"
ORDERS_MAX = 200

Place = tuple[str, int, int, int]  # tournament, round, table, game


@dataclass(frozen=True)
class Pairing:
    key: str = ""
    tournament: str = ""
    collector: str = ""  # http://host:port of the collector
    orders: tuple[Place, ...] = ()

    @property
    def paired(self) -> bool:
        return bool(self.key)

    def with_round(self, order: RoundOrder) -> Pairing:
        orders = (*tuple(o for o in self.orders if o != order.place), order.place)
        return replace(
            self, tournament=order.tournament, collector=order.collector, orders=orders[-ORDERS_MAX:]
        )

    def with_collector(self, collector: str) -> Pairing:
        return replace(self, collector=collector)

    def ordered(self, event: EventInfo) -> bool:
        """Was a game of this event asked for by the collector (a round it sent)?"""
        place = (event.tournament, event.round, event.table, event.game)
        return any(place == o for o in self.orders)

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "tournament": self.tournament,
            "collector": self.collector,
            "orders": [list(o) for o in self.orders],
        }


def load(state_dir: Path) -> Pairing:
    try:
        data = json.loads((state_dir / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Pairing()
    if not isinstance(data, dict):
        return Pairing()
    orders = tuple(
        (str(o[0]), int(o[1]), int(o[2]), int(o[3]))
        for o in data.get("orders") or []
        if isinstance(o, list) and len(o) == 4 and all(isinstance(x, int) for x in o[1:])
    )
    return Pairing(
        str(data.get("key", "")), str(data.get("tournament", "")), str(data.get("collector", "")), orders
    )


def save(state_dir: Path, pairing: Pairing) -> None:
    state_dir.mkdir(parents=True, exist_ok=True)
    write_private(state_dir / FILE, json.dumps(pairing.to_json()) + "\n")
