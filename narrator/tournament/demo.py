"""`narrator tournament --demo N`: a whole small tournament on this computer: N simulated
boxes (`narrator run --simulate`), found by mDNS on the loopback interface, paired with
the key through their pages; 10 x N demo players seated for the rounds; each round sent
to the boxes, played by the simulated players, delivered; the standings printed and the
exports written."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from narrator.tournament.collector import Collector, Tournament
from narrator.tournament.discovery import Discovery, for_key
from narrator.tournament.exports import write_all
from narrator.tournament.page import Words, sheet
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
    tables: int, rounds: int, folder: Path, key: str, port: int = 0, seconds_per_round: float = 600.0
) -> Collector:
    folder.mkdir(parents=True, exist_ok=True)
    store = Store(folder / "tournament.sqlite")
    collector = Collector(store, key, Tournament("Demo cup", tables=tables, rounds=rounds))
    await collector.start("127.0.0.1", port)
    print(f"the tournament's page: {collector.url}/  (the key is in {folder / 'key'})", flush=True)
    found: set[str] = set()

    def seen(table: str, host: str, port: int) -> None:
        store.saw_box(table, host, port)
        found.add(table)

    discovery = Discovery(for_key(key, seen), ["127.0.0.1"])
    await discovery.start()
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
                store.add_player(name, club)
        if not store.seated():
            collector.make_seating()
        for rnd in range(1, rounds + 1):
            until = loop.time() + seconds_per_round
            while True:
                sent = {t for r, t in store.sent() if r == rnd}
                if len(sent) < tables:
                    await collector.push_round(rnd)
                games = [g for g in store.games() if (g["game"].get("event") or {}).get("round") == rnd]
                if len(games) >= tables:
                    break
                if loop.time() > until:
                    raise RuntimeError(f"round {rnd} did not end in {seconds_per_round:.0f} s")
                await asyncio.sleep(0.25)
            print(f"round {rnd}: {len(games)} games delivered", flush=True)
        lines = collector.standings()
        for line in lines[:10]:
            print(f"{line.place:>3}. {line.player.name:<14} {line.total:5.2f}  ({line.wins} wins)")
        written = write_all(
            folder / "exports", "Demo cup", lines, store.games(), sheet(Words("en"), "Demo cup", lines)
        )
        print(f"exports: {len(written)} files in {folder / 'exports'}", flush=True)
    finally:
        for b in boxes:
            stop_box(b)
        await discovery.stop()
    return collector
