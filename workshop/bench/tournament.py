"""`narrator bench --only tournament`: the seating's figures for fields of 23 to 300
players (workshop/bench/seating.py), then a simulated 30-table, 10-round tournament through
the collector: the seating's time and evenness, the games' intake per second (signed
deliveries over HTTP on 127.0.0.1: each game's journal replayed through the engine and
its protocol rebuilt and compared before it is counted into SQLite, one after another as
boxes send them), and the standings' refresh (every game's result in force, points by
the rule set, the page's live parts rendered) just after a game came in (its protocol read
and parsed, the others' kept), cold (a collector started again: every protocol read and
parsed) and warm (the page's next asks).

The games are six real games of simulated players (narrator.sim.recorded: journal and
protocol as a box writes them), each given to many tables: its journal's header and its
protocol carry that table's players, round, table and game id (what a game's play does
not depend on), so each delivery is one the collector's replay accepts.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from narrator.records.protocol_value import Protocol
from narrator.sim.recorded import record_game
from narrator.tournament.collector import Collector
from narrator.tournament.event import Tournament
from narrator.tournament.language import Words
from narrator.tournament.organiser import make_seating
from narrator.tournament.page import LIVE, live
from narrator.tournament.seating import evenness
from narrator.tournament.signing import make_key
from narrator.tournament.store import Store
from narrator.tournament.wire import Delivery, post
from workshop.bench.seating import clubs

TEMPLATES = 6


def run(quick: bool) -> dict[str, float | int | str]:
    from workshop.bench import seating

    tables, rounds = (4, 2) if quick else (30, 10)
    with tempfile.TemporaryDirectory(prefix="bench-tourney-") as tmp:
        return {**asyncio.run(_bench(Path(tmp), tables, rounds)), **seating.run(quick)}


def _templates(folder: Path) -> list[tuple[dict[str, Any], str]]:
    out = []
    for seed in range(1, TEMPLATES + 1):
        names = [f"T{seed}-{s}" for s in range(1, 11)]
        game = record_game(folder / f"t{seed}", "sport", seed, names, {"tournament": "Bench cup"})
        out.append(
            (json.loads(game.protocol.read_text(encoding="utf-8")), game.journal.read_text(encoding="utf-8"))
        )
    return out


def _for_table(
    template: tuple[dict[str, Any], str], game_id: str, names: list[str], event: dict[str, Any]
) -> Delivery:
    protocol, journal = json.loads(json.dumps(template[0])), template[1]
    first, rest = journal.split("\n", 1)
    head = json.loads(first)
    head["header"].update(game_id=game_id, names=names, event=event)
    protocol["game"].update(id=game_id, event=event)
    protocol["names"] = names
    text = json.dumps(head, ensure_ascii=False, separators=(",", ":")) + "\n" + rest
    return Delivery(f"Table {event['table']}", 8080, Protocol.from_json(protocol), text)


async def _bench(folder: Path, tables: int, rounds: int) -> dict[str, float | int | str]:
    templates = await asyncio.to_thread(_templates, folder / "games")
    key = make_key()
    store = Store(folder / "t.sqlite")
    collector = Collector(store, key, Tournament("Bench cup", tables=tables, rounds=rounds))
    club = clubs(tables * 10)
    for i in range(tables * 10):
        store.add_player(f"Player {i}", club[i])
    start = time.perf_counter()
    make_seating(collector)
    seating_s = time.perf_counter() - start
    seating = store.seating()
    index = {p.id: i for i, p in enumerate(store.players())}
    schedule = [[[index[p] for p in seating[r][t]] for t in sorted(seating[r])] for r in sorted(seating)]
    even = evenness(schedule, tables * 10)

    names = {p.id: p.name for p in store.players()}
    deliveries = []
    for r in range(1, rounds + 1):
        for t in range(1, tables + 1):
            store.add_order(r, t, f"Table {t}")
            event = {"tournament": "Bench cup", "table": t, "round": r, "game": r}
            seated = [names[p] for p in seating[r][t]]
            template = templates[(r * tables + t) % len(templates)]
            deliveries.append(_for_table(template, f"2026112{r % 10}-{t:06d}", seated, event))

    def refreshed(source: Store) -> float:
        start = time.perf_counter()
        collector.store = source
        view = collector.view()
        lines[:] = view.lines
        for part in LIVE:
            live(Words("en"), view, True, part)
        return time.perf_counter() - start

    lines: list[Any] = []
    await collector.start("127.0.0.1", 0)
    try:
        async with aiohttp.ClientSession() as http:
            start = time.perf_counter()
            for delivery in deliveries[:-1]:
                reply = await post(http, collector.url, key, delivery)
                assert reply.ok and reply.data.get("kept") == "new", reply
            intake = time.perf_counter() - start
            refreshed(store)  # the page, seen before the round's last game comes in
            start = time.perf_counter()
            reply = await post(http, collector.url, key, deliveries[-1])
            intake += time.perf_counter() - start
            assert reply.ok
    finally:
        await collector.stop()
    # A game just came in: the page's next ask reads the new one's protocol only. Cold: a
    # store just opened (the collector restarted): every protocol read and parsed. Warm:
    # the page's next asks while nothing new came.
    new_game = refreshed(store)
    cold = min(refreshed(Store(folder / "t.sqlite")) for _ in range(3))
    warm = min(refreshed(store) for _ in range(3))
    assert sum(line.games for line in lines) == tables * rounds * 10
    return {
        "tournament_tables": tables,
        "tournament_rounds": rounds,
        "tournament_seating_s": round(seating_s, 2),
        "tournament_intake_per_s": round(len(deliveries) / intake, 1),
        "tournament_standings_refresh_ms": round(warm * 1000, 1),
        "tournament_standings_rebuild_ms": round(cold * 1000, 1),
        "tournament_standings_new_game_ms": round(new_game * 1000, 1),
        "tournament_meetings_min": even.meetings_min,
        "tournament_meetings_max": even.meetings_max,
        "tournament_meetings_spread": even.meetings_spread,
        "tournament_seat_spread_max": even.seat_spread_max,
        "tournament_seat_repeat_max": even.seat_repeat_max,
    }
