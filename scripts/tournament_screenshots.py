"""Screenshots of the tournament's page for the README (docs/tournament-*.png), showing
every table's state: a real collector (its aiohttp server, its SQLite store) with four
tables in round 2 of 3: table 1's game delivered, table 2 playing, table 3's box silent
for four minutes with a game in its outbox, table 4 sent and not begun; round 1's games
delivered by signed deliveries of games simulated players played (narrator.sim.recorded,
replayed by the collector like any box's), one corrected, one refused. Headless Chromium
opens the page at phone (412 x 915) and laptop (1280 x 800) size, the organiser signed in.

    NARRATOR_PURE_ENGINE=1 .venv/bin/python scripts/tournament_screenshots.py
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from narrator.records.protocol_value import Protocol
from narrator.sim.recorded import record_game
from narrator.tournament.collector import Collector
from narrator.tournament.corrections import Change
from narrator.tournament.event import Tournament
from narrator.tournament.organiser import make_seating
from narrator.tournament.signing import make_key
from narrator.tournament.store import Store
from narrator.tournament.tables import free_port
from narrator.tournament.wire import BoxStatus, Delivery, post

DOCS = Path(__file__).resolve().parent.parent / "docs"
SIZES = {"phone": (412, 915), "laptop": (1280, 800)}
FIRST = ["Anna", "Boris", "Vera", "Gleb", "Daria", "Egor", "Zoya", "Ilya", "Kira", "Lev"]
LAST = ["Orlova", "Petrov", "Smirnova", "Volkov"]


def shoot(url: str, key: str, profile: Path) -> None:
    for name, (width, height) in SIZES.items():
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for flag in (
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            f"--user-data-dir={profile / name}",
            f"--window-size={width},{height}",
        ):
            options.add_argument(flag)
        driver = webdriver.Chrome(
            service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options
        )
        try:
            # The page's own size (the window's would include the browser's frame).
            driver.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
            )
            driver.get(url + "/login?lang=en")
            field = driver.find_element(By.NAME, "key")
            field.send_keys(key)
            field.submit()
            driver.get(url + "/?lang=en&who=Kira+Volkov")
            driver.save_screenshot(str(DOCS / f"tournament-{name}.png"))
        finally:
            driver.quit()


async def scene(folder: Path, key: str, port: int) -> Collector:
    now = [time.time()]
    store = Store(folder / "tournament.sqlite")
    tournament = Tournament("Friday cup", tables=4, rounds=3, preset="", date=time.strftime("%Y-%m-%d"))
    collector = Collector(store, key, tournament, now=lambda: now[0])
    for i in range(40):
        store.add_player(
            f"{FIRST[i % 10]} {LAST[i // 10]}",
            ["Red Lamp", "Night Owls", "Don's Table"][i % 3],
            f"FIIM-{2000 + i}",
        )
    make_seating(collector)
    for table in range(1, 5):
        store.saw_box(f"Box {table}", "127.0.0.1", 8080 + table, tables=4, now=now[0])
    store.saw_box("Spare box", "127.0.0.1", 8089, tables=4, now=now[0])
    await collector.start("127.0.0.1", port)
    names = {p.id: p.name for p in store.players()}
    async with aiohttp.ClientSession() as http:

        async def play(rnd: int, table: int, seed: int) -> None:
            event = {"tournament": tournament.name, "table": table, "round": rnd, "game": rnd}
            seated = [names[p] for p in store.seating()[rnd][table]]
            game = record_game(folder / f"box{table}", "sport", seed, seated, event)
            protocol = Protocol.from_json(json.loads(game.protocol.read_text(encoding="utf-8")))
            delivery = Delivery(
                f"Box {table}", 8080 + table, protocol, game.journal.read_text(encoding="utf-8")
            )
            reply = await post(http, collector.url, key, delivery)
            assert reply.ok, reply

        async def tell(box: int, **said: Any) -> None:
            status = BoxStatus(f"Box {box}", 8080 + box, tournament.name, **said)
            reply = await post(http, collector.url, key, status)
            assert reply.ok, reply

        for table in range(1, 5):
            store.add_order(1, table, f"Box {table}", now[0] - 3600)
            await play(1, table, table)
        first = store.games()[0]
        store.correct(
            first.uid, Change("extra", 4, 0.5), "Judge Irina", "a clear defence of seat 7", now=now[0]
        )
        for table in range(1, 5):
            store.add_order(2, table, f"Box {table}", now[0] - 1500)
        await play(2, 1, 11)
        await tell(
            3, round=2, table=3, game=2, playing=True, phase="night", number=2, since=now[0] - 1400, waiting=1
        )
        now[0] += 240  # box 3 says nothing from here on
        await tell(2, round=2, table=2, game=2, playing=True, phase="day", number=3, since=now[0] - 1380)
        await tell(4, round=2, table=4, game=2, playing=False)
        forged = Delivery(
            "Box 2",
            8082,
            Protocol.from_json({**first.protocol.to_json(), "extra": {"3": 50}}),
            store.journal(first.uid) or "",
        )
        await post(http, collector.url, key, forged)
    return collector


async def main() -> None:
    with tempfile.TemporaryDirectory(prefix="shots-") as tmp:
        key, port = make_key(), free_port()
        collector = await scene(Path(tmp), key, port)
        try:
            await asyncio.to_thread(shoot, collector.url, key, Path(tmp) / "profiles")
        finally:
            await collector.stop()


if __name__ == "__main__":
    asyncio.run(main())
    sys.exit(0)
