"""A final seated after a main round, with real processes: a collector (`narrator
tournament --rounds 1 --final 1x1.5`) and two boxes (`narrator run --simulate`, simulated
players on a fast clock) on 127.0.0.1, found by mDNS. The main round's two games come in;
the organiser seats the final: the top 10 of the standings at one table; its round goes
to table 1's box like any round, is played and counted x1.5, and the standings rank the
finalists first. Waits are bounded polls; nothing sleeps a fixed time."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp

from narrator.tournament.tables import free_port, make_box, pair_box, start_box, stop_box, wait_up
from tests.tournament.test_multi_daemon import LIMIT, collector, get, of_round, post_json, signed_in, until


def test_a_final_seats_the_top_10_after_the_main_round(tmp_path: Path) -> None:
    asyncio.run(_final(tmp_path))


async def _final(tmp: Path) -> None:
    folder = tmp / "collector"
    folder.mkdir()
    players = tmp / "players.csv"
    players.write_text("".join(f"Player {i:02d},Club {i % 3},R{i:03d}\n" for i in range(20)))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    flags = ("--name", "Final cup", "--rounds", "1", "--final", "1x1.5", "--players", str(players))
    proc = collector(folder, port, *flags)
    boxes = [make_box(tmp, i + 1) for i in range(2)]
    org: aiohttp.ClientSession | None = None
    try:
        for i, b in enumerate(boxes):
            start_box(b, seed=i + 1)
        key_file = folder / "key"
        key = await until("the key", lambda: key_file.is_file() and key_file.read_text().strip())
        await until("the collector's page", lambda: get(url + "/api/state"))
        await asyncio.gather(*(wait_up(b.url, LIMIT) for b in boxes))
        for b in boxes:
            assert await pair_box(b.url, key) == 200

        async def two_boxes() -> Any:
            state = await get(url + "/api/state")
            return state if state and len([b for b in state["boxes"] if b["table"]]) == 2 else None

        state = await until("two boxes found by mDNS", two_boxes)
        table_of = {b["name"]: b["table"] for b in state["boxes"]}
        org = await signed_in(url, {"key": key})
        assert (await post_json(org, url + "/seating"))[0] == 200
        status, early = await post_json(org, url + "/stages/next")
        assert status == 400 and "every game before it is in" in json.dumps(early)
        status, sent = await post_json(org, url + "/rounds/1/send")
        assert status == 200 and sent["tables"] == {"1": "taken", "2": "taken"}, sent

        async def games(n: int) -> Any:
            state = await get(url + "/api/state")
            return state if state and len(state["games"]) == n else None

        await until("the main round's two games", lambda: games(2))
        after_main = (await get(url + "/api/standings"))["standings"]
        status, staged = await post_json(org, url + "/stages/next")
        assert status == 200 and staged == {"stage": "final", "rounds": [2, 2]}, staged
        state = await get(url + "/api/state")
        assert state["rounds"] == 2 and list(state["seating"]["2"]) == ["1"]
        assert sorted(state["seating"]["2"]["1"]) == sorted(s["name"] for s in after_main[:10])

        status, sent = await post_json(org, url + "/rounds/2/send")
        assert status == 200 and sent["tables"] == {"1": "taken"}, sent
        state = await until("the final's game", lambda: games(3))
        final_box = next(b for b in boxes if table_of[b.table] == 1)
        [played] = of_round(final_box, 2, game=2)
        data = json.loads((final_box.state / "protocols" / f"{played.game.id}.json").read_text())
        final_points = {p["name"]: p["points"] for p in data["players"]}

        standings = (await get(url + "/api/standings"))["standings"]
        main_total = {s["name"]: s["total"] for s in after_main}
        assert [s["stage"] for s in standings] == ["final"] * 10 + ["main"] * 10
        for s in standings:
            more = 1.5 * final_points.get(s["name"], 0.0)
            assert s["total"] == round(main_total[s["name"]] + more, 4), s
        assert {s["name"] for s in standings[:10]} == set(final_points)
    finally:
        if org is not None:
            await org.close()
        for b in boxes:
            stop_box(b)
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=20)
