"""`narrator bench --only tournament`: the seating's figures for fields of 23 to 300
players (workshop/bench/seating.py), then a simulated 30-table, 10-round tournament through
the collector: the seating's time and evenness, the protocols' intake per second (signed
deliveries over HTTP on 127.0.0.1 into SQLite, one after another as boxes send them), and
the standings' refresh (all games' protocols in force, points by the rule set, the page's
live part rendered), cold (every protocol read and parsed: a new protocol came in) and warm
(the page's next asks). The protocols are one real game's (a `--fast` demo game), given each
table's game id, round, table and a winner.
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from narrator.tournament.collector import PROTOCOL_PATH, Collector, Tournament
from narrator.tournament.page import Words, live
from narrator.tournament.seating import evenness
from narrator.tournament.signing import make_key, sign_request
from narrator.tournament.store import Store
from workshop.bench.seating import clubs


def run(quick: bool) -> dict[str, float | int | str]:
    from workshop.bench import seating

    tables, rounds = (4, 2) if quick else (30, 10)
    with tempfile.TemporaryDirectory(prefix="bench-tourney-") as tmp:
        return {**asyncio.run(_bench(Path(tmp), tables, rounds)), **seating.run(quick)}


def _template(folder: Path) -> dict[str, Any]:
    from narrator.demo import DemoOptions, play_demo
    from narrator.rules.loader import load

    asyncio.run(play_demo(DemoOptions(load("sport"), 10, seed=5, fast=True, state_dir=folder, foul_rate=0.0)))
    path = next(p for p in (folder / "protocols").glob("*.json") if not p.name.endswith(".polemica.json"))
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


async def _bench(folder: Path, tables: int, rounds: int) -> dict[str, float | int | str]:
    template = await asyncio.to_thread(_template, folder / "game")
    key = make_key()
    store = Store(folder / "t.sqlite")
    collector = Collector(store, key, Tournament("Bench cup", tables=tables, rounds=rounds))
    club = clubs(tables * 10)
    for i in range(tables * 10):
        store.add_player(f"Player {i}", club[i])
    start = time.perf_counter()
    collector.make_seating()
    seating_s = time.perf_counter() - start
    seating = store.seating()
    index = {p.id: i for i, p in enumerate(store.players())}
    schedule = [[[index[p] for p in seating[r][t]] for t in sorted(seating[r])] for r in sorted(seating)]
    even = evenness(schedule, tables * 10)

    rng = random.Random(1)
    bodies = []
    for r in range(1, rounds + 1):
        for t in range(1, tables + 1):
            p = json.loads(json.dumps(template))
            p["game"]["id"] = f"2026112{r % 10}-{t:06d}"
            p["game"]["event"] = {"tournament": "Bench cup", "table": t, "round": r, "game": r}
            p["winner"] = rng.choice(["red", "black"])
            bodies.append(json.dumps({"box": f"Table {t}", "port": 8080, "protocol": p}).encode())
    await collector.start("127.0.0.1", 0)
    try:
        async with aiohttp.ClientSession() as http:
            start = time.perf_counter()
            for body in bodies:
                headers = sign_request(key, "POST", PROTOCOL_PATH, body)
                async with http.post(collector.url + PROTOCOL_PATH, data=body, headers=headers) as reply:
                    assert reply.status == 200, await reply.text()
            intake = time.perf_counter() - start
    finally:
        await collector.stop()
    def refreshed(source: Store) -> float:
        start = time.perf_counter()
        collector.store = source
        lines[:] = collector.standings()
        live(Words("en"), "Bench cup", lines, source.players(), source.boxes(), seating, source.sent(),
             source.games())
        return time.perf_counter() - start

    lines: list[Any] = []
    # Cold: a store just opened (the collector restarted, or a protocol just came in):
    # every protocol read and parsed. Warm: the page's next asks while nothing new came.
    cold = min(refreshed(Store(folder / "t.sqlite")) for _ in range(3))
    warm = min(refreshed(store) for _ in range(3))
    assert sum(line.games for line in lines) == tables * rounds * 10
    return {
        "tournament_tables": tables,
        "tournament_rounds": rounds,
        "tournament_seating_s": round(seating_s, 2),
        "tournament_intake_per_s": round(len(bodies) / intake, 1),
        "tournament_standings_refresh_ms": round(warm * 1000, 1),
        "tournament_standings_rebuild_ms": round(cold * 1000, 1),
        "tournament_meetings_min": even.meetings_min,
        "tournament_meetings_max": even.meetings_max,
        "tournament_meetings_spread": even.meetings_spread,
        "tournament_seat_spread_max": even.seat_spread_max,
        "tournament_seat_repeat_max": even.seat_repeat_max,
    }
