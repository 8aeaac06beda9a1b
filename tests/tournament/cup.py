"""A small tournament for the collector's tests, in this process: a real store, a real
collector's app on a port of 127.0.0.1 (aiohttp's TestServer), two tables, two rounds,
20 players with rating ids, the rounds seated and round 1 taken by both boxes; and games
of simulated players for its seats, written as a box writes them (journal and protocol)
and delivered signed with the key, as a box delivers them."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient

from narrator.records.protocol_value import Protocol
from narrator.sim.recorded import record_game
from narrator.tournament.collector import Collector
from narrator.tournament.event import Tournament
from narrator.tournament.organiser import make_seating
from narrator.tournament.signing import sign_request
from narrator.tournament.store import Store
from narrator.tournament.wire import DELIVERY_PATH, Delivery, to_bytes

KEY = "WXYZ-2345-6789-ABCD"
TOURNAMENT = Tournament("Cup", tables=2, rounds=2, date="2026-12-05")


@dataclass
class Cup:
    store: Store
    collector: Collector
    folder: Path

    def seat(self, rnd: int, table: int) -> tuple[str, ...]:
        names = {p.id: p.name for p in self.store.players()}
        return tuple(names[p] for p in self.store.seating()[rnd][table])

    def game(self, rnd: int, table: int, seed: int, game: int | None = None, **change: Any) -> Delivery:
        """A finished game of this seat as its box would deliver it (its players, its
        round, table and game number)."""
        event = {"tournament": "Cup", "table": table, "round": rnd, "game": rnd if game is None else game}
        folder = self.folder / f"box{table}"
        played = record_game(folder, "sport", seed, self.seat(rnd, table), event)
        protocol = Protocol.from_json(json.loads(played.protocol.read_text(encoding="utf-8")))
        return Delivery(f"Box {table}", 8080 + table, protocol, played.journal.read_text(encoding="utf-8"))


def make_cup(folder: Path, now: Callable[[], float] | None = None, names: Sequence[str] = ()) -> Cup:
    store = Store(folder / "tournament.sqlite")
    collector = Collector(store, KEY, TOURNAMENT, now=now or time.time)
    for n in range(1, 21):
        name = names[n - 1] if n <= len(names) else f"Player {n:02d}"
        store.add_player(name, f"Club {n % 3}", f"FIIM-{1000 + n}")
    make_seating(collector)
    for table in (1, 2):
        store.saw_box(f"Box {table}", "127.0.0.1", 8080 + table, tables=2)
        store.add_order(1, table, f"Box {table}")
    return Cup(store, collector, folder)


def forged(
    delivery: Delivery,
    protocol: Callable[[dict[str, Any]], None] | None = None,
    header: Callable[[dict[str, Any]], None] | None = None,
    box: str | None = None,
) -> Delivery:
    """The delivery changed by someone holding the key: its protocol, its journal's header."""
    data = delivery.protocol.to_json()
    if protocol:
        protocol(data)
    first, rest = delivery.journal.split("\n", 1)
    head = json.loads(first)
    if header:
        header(head["header"])
    journal = json.dumps(head, ensure_ascii=False, separators=(",", ":")) + "\n" + rest
    return Delivery(box or delivery.box, delivery.port, Protocol.from_json(data), journal)


async def deliver(
    client: TestClient[Any, Any], delivery: Delivery | Mapping[str, Any]
) -> tuple[int, Mapping[str, Any]]:
    """Signed with the key, as a box sends it (a mapping: JSON no box would write)."""
    body = to_bytes(delivery) if isinstance(delivery, Delivery) else json.dumps(delivery).encode()
    reply = await client.post(
        DELIVERY_PATH, data=body, headers=sign_request(KEY, "POST", DELIVERY_PATH, body)
    )
    return reply.status, await reply.json()


async def organiser(client: TestClient[Any, Any]) -> None:
    signed = await client.post("/login", data={"key": KEY}, allow_redirects=False)
    assert signed.status == 303
