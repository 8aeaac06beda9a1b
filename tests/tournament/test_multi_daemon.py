"""Four real boxes (`narrator run --simulate`: the service, its page, mock pins, simulated
players on a fast clock) and a real collector (`narrator tournament`), each its own
process on 127.0.0.1, play a two-round tournament from seating to final standings.

On the way: the boxes are found by python-zeroconf on the loopback interface (real
multicast, no records injected); a box paired with a wrong key gets no round and its
signed delivery is refused; a box killed (SIGKILL) in the middle of its round-2 game is
started again, finishes the game and delivers it; the collector killed while round 2 is
played is started again on its folder, has lost nothing, and then takes every game the
boxes kept for it. The final standings are checked against the boxes' own protocol files.
Waits are bounded polls of real subprocesses; nothing sleeps a fixed time.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

from narrator.records.polemica import read_record
from narrator.records.replay import replay
from narrator.records.script import estimated_timeline
from narrator.rules.loader import load_bundled
from narrator.tournament.signing import make_key, sign_request
from narrator.tournament.tables import DemoBox, free_port, make_box, pair_box, start_box, stop_box, wait_up
from narrator.uplink import pairing

TABLES, ROUNDS = 4, 2
LIMIT = 90.0  # seconds for any one wait


def collector(folder: Path, port: int, players: Path) -> subprocess.Popen[bytes]:
    log = open(folder / "collector.log", "ab")  # noqa: SIM115
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "narrator",
            "tournament",
            "--name",
            "Loopback cup",
            "--state-dir",
            str(folder),
            "--listen",
            f"127.0.0.1:{port}",
            "--tables",
            str(TABLES),
            "--rounds",
            str(ROUNDS),
            "--players",
            str(players),
            "--mdns",
            "127.0.0.1",
        ],
        stdout=log,
        stderr=log,
        env={**os.environ, "NARRATOR_PURE_ENGINE": "1"},
    )


async def until(what: str, check: Callable[[], Any], seconds: float = LIMIT) -> Any:
    end = time.monotonic() + seconds
    while True:
        value = check()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"{what}: not within {seconds:.0f} s")
        await asyncio.sleep(0.05)


async def get(url: str) -> Any:
    try:
        async with aiohttp.ClientSession() as http, http.get(url) as reply:
            return await reply.json() if reply.status == 200 else None
    except aiohttp.ClientError:
        return None


async def organiser(url: str, key: str) -> aiohttp.ClientSession:
    http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    async with http.post(url + "/login", data={"key": key}, allow_redirects=False) as reply:
        assert reply.status == 303, await reply.text()
    return http


async def send(http: aiohttp.ClientSession, url: str, rnd: int) -> dict[str, str]:
    async with http.post(f"{url}/rounds/{rnd}/send", headers={"Accept": "application/json"}) as reply:
        assert reply.status == 200, await reply.text()
        tables: dict[str, str] = (await reply.json())["tables"]
        return tables


def protocols(box: DemoBox) -> list[Path]:
    folder = box.state / "protocols"
    return (
        sorted(p for p in folder.glob("*.json") if not p.name.endswith(".polemica.json"))
        if folder.exists()
        else []
    )


def journals(box: DemoBox) -> list[Path]:
    folder = box.state / "games"
    return sorted(folder.glob("*.jsonl")) if folder.exists() else []


def test_four_tables_two_rounds(tmp_path: Path) -> None:
    asyncio.run(_tournament(tmp_path))


async def _tournament(tmp: Path) -> None:
    folder = tmp / "collector"
    folder.mkdir()
    players = tmp / "players.csv"
    players.write_text(
        "name,club,rating_id\n" + "".join(f"Player {i:02d},Club {i % 3},R{i}\n" for i in range(40))
    )
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = collector(folder, port, players)
    boxes = [make_box(tmp, i + 1) for i in range(TABLES)]
    http: aiohttp.ClientSession | None = None
    try:
        for i, b in enumerate(boxes):
            start_box(b, seed=i + 1)
        key = await until(
            "the collector's key", lambda: (folder / "key").is_file() and (folder / "key").read_text().strip()
        )
        await until("the collector's page", lambda: get(url + "/api/state"))
        await asyncio.gather(*(wait_up(b.url, LIMIT) for b in boxes))
        for b in boxes[:3]:
            assert await pair_box(b.url, key) == 200
        stranger = make_key()
        assert await pair_box(boxes[3].url, stranger) == 200  # another tournament's key

        # A box announces its key's tag: the collector lists only its own tournament's.
        names = {b.table for b in boxes}

        def ours(state: dict[str, Any]) -> set[str]:
            return {b["name"] for b in state["boxes"]} & names

        await until(
            "three boxes found by mDNS", lambda: _with(get(url + "/api/state"), lambda s: len(ours(s)) >= 3)
        )
        assert boxes[3].table not in ours(await get(url + "/api/state"))
        assert await pair_box(boxes[3].url, key) == 200
        state = await until(
            "the fourth found once paired",
            lambda: _with(get(url + "/api/state"), lambda s: len(ours(s)) == 4),
        )
        assert len(state["boxes"]) == TABLES
        table_of = {b["name"]: b["table"] for b in state["boxes"]}
        assert await pair_box(boxes[3].url, stranger) == 200  # its key changed since

        http = await organiser(url, key)
        async with http.post(url + "/seating", headers={"Accept": "application/json"}) as reply:
            assert reply.status == 200, await reply.text()
        sent = await send(http, url, 1)
        wrong = str(table_of[boxes[3].table])
        assert sent[wrong].startswith("not the tournament's box"), sent
        assert all(v == "taken" for t, v in sent.items() if t != wrong), sent
        assert pairing.load(boxes[3].state).tournament == ""  # the stranger's round not taken

        # The box with the wrong key delivers nothing: its signature is refused.
        body = json.dumps(
            {"box": "intruder", "protocol": {"game": {"id": "x", "event": {"tournament": "Loopback cup"}}}}
        ).encode()
        async with (
            aiohttp.ClientSession() as anon,
            anon.post(
                url + "/api/box/protocol",
                data=body,
                headers=sign_request(make_key(), "POST", "/api/box/protocol", body),
            ) as reply,
        ):
            assert reply.status == 401
        async with aiohttp.ClientSession() as anon, anon.post(url + "/seating") as reply:
            assert reply.status == 401  # a stranger changes nothing

        assert await pair_box(boxes[3].url, key) == 200  # the right key now
        assert (await send(http, url, 1))[wrong] == "taken"
        await until(
            "round 1's four games", lambda: _with(get(url + "/api/state"), lambda s: len(s["games"]) == 4)
        )

        # Round 2: a box killed in mid-game, the collector killed while the round plays.
        before = len(journals(boxes[1]))
        assert set((await send(http, url, 2)).values()) == {"taken"}
        await http.close()
        await until("box 2's round-2 game begun", lambda: len(journals(boxes[1])) > before, 30)
        done_before = len(protocols(boxes[1]))
        stop_box(boxes[1], kill=True)
        assert len(protocols(boxes[1])) == done_before, "the game ended before the kill: not mid-game"
        saved = await get(url + "/api/state")
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        start_box(boxes[1], seed=2)
        await until(
            "every round-2 game over on the boxes", lambda: all(len(protocols(b)) == 2 for b in boxes)
        )
        proc = collector(folder, port, players)
        state = await until("the collector back", lambda: get(url + "/api/state"))
        assert state["seating"] == saved["seating"]
        assert {g["id"] for g in saved["games"]} <= {g["id"] for g in state["games"]}
        state = await until(
            "all eight games delivered",
            lambda: _with(get(url + "/api/state"), lambda s: len(s["games"]) == 8),
        )
        assert sorted(g["event"]["round"] for g in state["games"]) == [1] * 4 + [2] * 4

        standings = (await get(url + "/api/standings"))["standings"]
        expected: dict[str, float] = {}
        for b in boxes:
            for path in protocols(b):
                for p in json.loads(path.read_text())["players"]:
                    expected[p["name"]] = expected.get(p["name"], 0.0) + p["points"]
        assert len(expected) == 40
        assert {s["name"]: s["total"] for s in standings} == {n: round(v, 4) for n, v in expected.items()}
        assert all(s["games"] == 2 for s in standings)
        assert [s["total"] for s in standings] == sorted((s["total"] for s in standings), reverse=True)

        # Every game's sheet is on the page; every game exports as a Polemica record that
        # the engine replays to the same winner.
        game = state["games"][0]
        async with aiohttp.ClientSession() as anon, anon.get(f"{url}/games/{game['id']}") as reply:
            assert reply.status == 200 and "Player" in await reply.text()
        records = await get(url + "/export/polemica.json")
        assert len(records) == 8
        for record in records:
            path = tmp / f"{record['id']}.json"
            path.write_text(json.dumps(record))
            result = replay(load_bundled("sport"), read_record(path), estimated_timeline("en", 0.0, 0))
            assert (
                result.disagreement is None
                and result.to_json()["winner"] == {0: "red", 1: "black"}[record["result"]]
            )
    finally:
        if http is not None:
            await http.close()
        for b in boxes:
            stop_box(b)
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=20)


async def _with(value: Any, test: Callable[[Any], bool]) -> Any:
    got = await value
    return got if got is not None and test(got) else None
