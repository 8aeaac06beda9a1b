"""`narrator tournament --demo N`: a whole small tournament on this computer: N simulated
boxes (`narrator run --simulate`), found by mDNS on the loopback interface, paired with
the key through their pages; 10 x N demo players seated for the rounds; each round sent
to the boxes, played by the simulated players, delivered; the standings printed and the
exports written."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from narrator.mdns import Announcer, Browser
from narrator.tournament.collector import Collector
from narrator.tournament.discovery import announcer, box_browser
from narrator.tournament.event import Tournament, today
from narrator.tournament.exports import polemica_records, write_all
from narrator.tournament.language import Words
from narrator.tournament.organiser import make_seating, seat_stage
from narrator.tournament.store import Store
from narrator.tournament.tables import make_box, pair_box, start_box, stop_box, wait_up

log = logging.getLogger("narrator.tournament")

FIRST = [
    "Anna",
    "Boris",
    "Vera",
    "Gleb",
    "Daria",
    "Egor",
    "Zoya",
    "Ilya",
    "Kira",
    "Lev",
    "Maya",
    "Nikita",
    "Olga",
    "Pavel",
    "Rita",
    "Semyon",
    "Taisia",
    "Ulyana",
    "Fedor",
    "Yana",
]
CLUBS = ["Red Lamp", "Night Owls", "Don's Table", "Sheriff's Star"]


def demo_players(n: int) -> list[tuple[str, str]]:
    return [
        (f"{FIRST[i % len(FIRST)]} {chr(65 + i // len(FIRST))}.", CLUBS[i % len(CLUBS)]) for i in range(n)
    ]


async def run_demo(
    tables: int,
    rounds: int,
    folder: Path,
    key: str,
    port: int = 0,
    seconds_per_round: float = 600.0,
    final: str = "",
    scoring: str = "",
) -> Collector:
    """The main rounds, then (`final`) the final of the top 10 at table 1."""
    folder.mkdir(parents=True, exist_ok=True)
    store = Store(folder / "tournament.sqlite")
    tournament = store.tournament() or Tournament(
        "Demo cup", tables=tables, rounds=rounds, date=today(), final=final, scoring=scoring
    )
    collector = Collector(store, key, tournament)
    await collector.start("127.0.0.1", port)
    print(f"the tournament's page: {collector.url}/  (the key is in {folder / 'key'})", flush=True)
    found: set[str] = set()

    def seen(table: str, host: str, port: int) -> None:
        store.saw_box(table, host, port, tables=tables)
        found.add(table)

    on_network: list[Announcer | Browser] = [
        box_browser(key, seen, ["127.0.0.1"]),
        announcer(key, "Demo cup", "127.0.0.1", collector.port, ["127.0.0.1"]),
    ]
    for part in on_network:
        await part.start()
    boxes = [start_box(make_box(folder, i + 1), seed=i + 1) for i in range(tables)]
    try:
        await asyncio.gather(*(wait_up(b.url) for b in boxes))
        for b in boxes:
            status = await pair_box(b.url, key)
            if status != 200:
                raise RuntimeError(f"{b.table} refused the key ({status})")
        loop = asyncio.get_running_loop()
        until = loop.time() + 30
        while len(found) < tables and loop.time() < until:
            await asyncio.sleep(0.1)
        if len(found) < tables:
            raise RuntimeError(f"only {len(found)} of {tables} boxes were found by mDNS")
        if not store.players():
            for name, club in demo_players(tables * 10):
                store.add_player(name, club, f"DEMO-{len(store.players()) + 1:03d}")
        if not store.seated():
            make_seating(collector)
        await _play(collector, range(1, rounds + 1), seconds_per_round)
        if final:
            seat_stage(collector)
            first, last = store.get("stages")["final"]
            print(f"the final: the top 10 at table 1, rounds {first} to {last}", flush=True)
            await _play(collector, range(first, last + 1), seconds_per_round)
        lines = collector.standings()
        for line in lines[:12]:
            print(
                f"{line.place:>3}. {line.player.name:<14} {line.total:5.2f}  ({line.wins} wins, "
                f"guess {line.best_move:.2f}, Ci {line.ci:.2f}, {line.stage})"
            )
        t = collector.t
        records = polemica_records(store.games(), t, store.players(), t.rule_set)
        written = write_all(folder / "exports", t, lines, records, collector.sheet(Words("en")))
        print(f"exports: {len(written)} files in {folder / 'exports'}", flush=True)
    finally:
        for b in boxes:
            stop_box(b)
        for part in on_network:
            await part.stop()
    return collector


async def _play(collector: Collector, rounds: range, seconds_per_round: float) -> None:
    """Each round sent to its tables' boxes until every game of it is in."""
    store = collector.store
    loop = asyncio.get_running_loop()
    for rnd in rounds:
        tables = len(store.seating()[rnd])
        until = loop.time() + seconds_per_round
        while True:
            sent = {o.table for o in store.orders() if o.round == rnd}
            if len(sent) < tables:
                await collector.push_round(rnd)
            games = [g for g in store.games() if g.round == rnd]
            if len(games) >= tables:
                break
            if loop.time() > until:
                raise RuntimeError(f"round {rnd} did not end in {seconds_per_round:.0f} s")
            await asyncio.sleep(0.25)
        print(f"round {rnd}: {len(games)} games delivered", flush=True)
