"""Three real boxes (`narrator run --simulate`: the service, its page, mock pins, simulated
players on a fast clock) and a real collector (`narrator tournament`), each its own
process on 127.0.0.1, play a two-table, two-round tournament as an organiser whose
standings decide prizes would see it go wrong, and as a player holding the key would try
to cheat it:

- the boxes are found by python-zeroconf on the loopback interface (real multicast); a
  box paired with another tournament's key is not listed, gets no round, delivers nothing;
- box 1 is killed (SIGKILL) while its round-2 game is in play (its journal open, no
  protocol yet); the collector is killed while round 2 plays, and started again with only
  `--state-dir` on another port: it is the same tournament, and box 2 finds it there by
  itself (mDNS, a signed answer) and delivers the game it finished meanwhile;
- the spare box is given box 1's table and plays its round-2 game; box 1, started again,
  finishes its game: that delivery is refused (the table has its game), and box 1's own
  page says why;
- box 2's "next game" after the last round stays on box 2; delivered by hand, signed, it
  is refused, and so are forged deliveries of real games (wrong round, wrong table,
  strangers, an extra of 50, a second game for a seat);
- the organiser's correction out of bounds is refused in words; one within them counts.
The final standings are checked against the counted games' protocols on the boxes, and
every exported record is replayed by `narrator replay`. Waits are bounded polls of real
subprocesses; nothing sleeps a fixed time.
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

from narrator.cli import main
from narrator.records.protocol_value import Protocol
from narrator.tournament.signing import make_key, sign_request
from narrator.tournament.tables import (
    DEMO_PIN,
    DemoBox,
    free_port,
    make_box,
    pair_box,
    start_box,
    stop_box,
    wait_up,
)
from narrator.tournament.wire import DELIVERY_PATH, Delivery, to_bytes
from narrator.uplink import pairing

LIMIT = 120.0  # seconds for any one wait


def collector(folder: Path, port: int, *flags: str) -> subprocess.Popen[bytes]:
    log = open(folder / "collector.log", "ab")  # noqa: SIM115
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "narrator",
            "tournament",
            "--state-dir",
            str(folder),
            "--listen",
            f"127.0.0.1:{port}",
            "--mdns",
            "127.0.0.1",
            *flags,
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


async def get(url: str, http: aiohttp.ClientSession | None = None) -> Any:
    try:
        if http is not None:
            async with http.get(url) as reply:
                return await reply.json() if reply.status == 200 else None
        async with aiohttp.ClientSession() as anon, anon.get(url) as reply:
            return await reply.json() if reply.status == 200 else None
    except (aiohttp.ClientError, OSError):
        return None


async def signed_in(url: str, form: dict[str, str]) -> aiohttp.ClientSession:
    http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    async with http.post(url + "/login", data=form, allow_redirects=False) as reply:
        assert reply.status in (302, 303), await reply.text()
    return http


async def post_json(
    http: aiohttp.ClientSession, url: str, data: dict[str, Any] | None = None
) -> tuple[int, Any]:
    async with http.post(url, json=data or {}, headers={"Accept": "application/json"}) as reply:
        return reply.status, await reply.json()


def protocols(box: DemoBox) -> list[Path]:
    folder = box.state / "protocols"
    return (
        sorted(p for p in folder.glob("*.json") if not p.name.endswith(".polemica.json"))
        if folder.exists()
        else []
    )


def of_round(box: DemoBox, rnd: int, game: int | None = None) -> list[Protocol]:
    out = []
    for path in protocols(box):
        p = Protocol.from_json(json.loads(path.read_text()))
        if p.event.round == rnd and (game is None or p.event.game == game) and p.finished:
            out.append(p)
    return out


def journal_lines(box: DemoBox) -> int:
    path = box.state / "journal" / "current.jsonl"
    try:
        return path.read_bytes().count(b"\n")
    except OSError:
        return 0


def delivery_of(box: DemoBox, protocol: Protocol) -> Delivery:
    journal = (box.state / "games" / f"{protocol.game.id}.jsonl").read_text()
    return Delivery(box.table, box.port, protocol, journal)


def relabel(d: Delivery, **event: Any) -> Delivery:
    """A real game given another place (round, table, game) by someone with the key: its
    protocol and its journal's header both, so that they agree."""
    data = d.protocol.to_json()
    data["game"]["event"].update(event)
    first, rest = d.journal.split("\n", 1)
    head = json.loads(first)
    head["header"]["event"].update(event)
    return Delivery(d.box, d.port, Protocol.from_json(data), json.dumps(head) + "\n" + rest)


def _renamed(d: Delivery, name: str) -> Delivery:
    """A real game whose seat 1 is somebody else, in its protocol and its journal both."""
    data = d.protocol.to_json()
    data["names"][0] = name
    first, rest = d.journal.split("\n", 1)
    head = json.loads(first)
    head["header"]["names"][0] = name
    return Delivery(d.box, d.port, Protocol.from_json(data), json.dumps(head) + "\n" + rest)


async def forge(url: str, key: str, delivery: Delivery | dict[str, Any]) -> dict[str, Any]:
    body = to_bytes(delivery) if isinstance(delivery, Delivery) else json.dumps(delivery).encode()
    headers = sign_request(key, "POST", DELIVERY_PATH, body)
    async with (
        aiohttp.ClientSession() as http,
        http.post(url + DELIVERY_PATH, data=body, headers=headers) as reply,
    ):
        assert reply.status == 400, await reply.text()
        answer: dict[str, Any] = await reply.json()
        return answer


def test_a_tournament_that_goes_wrong(tmp_path: Path) -> None:
    asyncio.run(_tournament(tmp_path))


async def _tournament(tmp: Path) -> None:
    folder = tmp / "collector"
    folder.mkdir()
    players = tmp / "players.csv"
    players.write_text(
        "name,club,rating_id\n" + "".join(f"Player {i:02d},Club {i % 3},R{i:03d}\n" for i in range(20))
    )
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    flags = ("--name", "Loopback cup", "--tables", "2", "--rounds", "2", "--players", str(players))
    proc = collector(folder, port, *flags)
    boxes = [make_box(tmp, i + 1) for i in range(3)]
    spare = boxes[2]
    sessions: list[aiohttp.ClientSession] = []
    try:
        for i, b in enumerate(boxes):
            start_box(b, seed=i + 1)
        key = await until(
            "the key", lambda: (folder / "key").is_file() and (folder / "key").read_text().strip()
        )
        await until("the collector's page", lambda: get(url + "/api/state"))
        await asyncio.gather(*(wait_up(b.url, LIMIT) for b in boxes))
        for b in boxes[:2]:
            assert await pair_box(b.url, key) == 200
        stranger = make_key()
        assert await pair_box(spare.url, stranger) == 200  # another tournament's key

        def listed(s: dict[str, Any]) -> dict[str, Any]:
            return {b["name"]: b["table"] for b in s["boxes"]}

        state = await until(
            "two boxes found by mDNS", lambda: _with(get(url + "/api/state"), lambda s: len(listed(s)) >= 2)
        )
        assert sorted(listed(state).values()) == [1, 2]  # numbered as they were found
        org = await signed_in(url, {"key": key})
        sessions.append(org)
        # The organiser numbers the tables as they stand in the hall: box 1 at table 1.
        status, numbered = await post_json(org, url + "/boxes", {"name": boxes[0].table, "table": "1"})
        assert status == 200 and {b["name"]: b["table"] for b in numbered["boxes"]} == {
            boxes[0].table: 1,
            boxes[1].table: 2,
        }
        assert (await post_json(org, url + "/seating"))[0] == 200
        assert await pair_box(spare.url, key) == 200  # now one of ours: a spare, no table
        await until(
            "the spare found", lambda: _with(get(url + "/api/state"), lambda s: spare.table in listed(s))
        )
        assert listed(await get(url + "/api/state"))[spare.table] is None

        status, sent = await post_json(org, url + "/rounds/1/send")
        assert status == 200 and sent["tables"] == {"1": "taken", "2": "taken"}, sent
        assert pairing.load(spare.state).tournament == ""  # the spare took nothing
        await until(
            "round 1's two games", lambda: _with(get(url + "/api/state"), lambda s: len(s["games"]) == 2)
        )

        # Round 2: box 1 killed while its game is in play (its journal open, no protocol).
        status, sent = await post_json(org, url + "/rounds/2/send")
        assert sent["tables"] == {"1": "taken", "2": "taken"}, sent
        await until(
            "box 1's round-2 game well begun",
            lambda: journal_lines(boxes[0]) > 60 and not of_round(boxes[0], 2),
        )
        stop_box(boxes[0], kill=True)
        assert journal_lines(boxes[0]) > 60 and not of_round(boxes[0], 2), "the game had ended: not mid-game"
        saved = await get(url + "/api/state")
        hall = {s["table"]: s["state"] for s in saved["hall"]}
        assert saved["round"] == 2 and hall[1] in ("playing", "sent"), saved["hall"]
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        await until("box 2's round-2 game over", lambda: of_round(boxes[1], 2))

        # The collector again, with only --state-dir, on another port.
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        proc = collector(folder, port)
        state = await until("the collector back", lambda: get(url + "/api/state"))
        assert (state["tournament"], state["tables"], state["rounds"]) == ("Loopback cup", 2, 2)
        assert state["seating"] == saved["seating"] and state["players"] == 20
        assert {g["id"] for g in state["games"]} == {g["id"] for g in saved["games"]}
        # Box 2 finds it by itself and delivers what it finished meanwhile.
        await until(
            "box 2's round-2 game delivered to the moved collector",
            lambda: _with(get(url + "/api/state"), lambda s: any(g["round"] == 2 for g in s["games"])),
        )
        assert pairing.load(boxes[1].state).collector == url

        # The spare takes box 1's table over.
        org = await signed_in(url, {"key": key})  # the old cookie is for the old port's jar
        sessions.append(org)
        status, numbered = await post_json(org, url + "/boxes", {"name": spare.table, "table": "1"})
        assert status == 200, numbered
        assert {b["name"]: b["table"] for b in numbered["boxes"]}[boxes[0].table] is None
        status, sent = await post_json(org, url + "/rounds/2/send")
        assert sent["tables"] == {"1": "taken", "2": "counted"}, sent
        state = await until(
            "the spare's game counted", lambda: _with(get(url + "/api/state"), lambda s: len(s["games"]) == 4)
        )
        assert {(g["round"], g["table"]): g["box"] for g in state["games"]}[(2, 1)] == spare.table

        # Box 1 again: it finishes the game it was killed in; the table has its game.
        start_box(boxes[0], seed=1)
        await until("box 1's round-2 game over", lambda: of_round(boxes[0], 2))
        refused = await until(
            "box 1's late game refused",
            lambda: _with(
                get(url + "/api/state", org),
                lambda s: [r for r in s.get("refused", []) if r["box"] == boxes[0].table],
            ),
        )
        assert "table 1's round 2 has its game already (from box Demo table 3)" in refused[0]["reason"]
        assert len((await get(url + "/api/state"))["games"]) == 4
        page = await until(
            "box 1's page says so",
            lambda: _text(boxes[0].url + "/tournament", "Refused by the collector"),
        )
        assert "has its game already" in page

        # Box 2's "next game" after the last round: its own, kept on the box.
        box2 = await signed_in(boxes[1].url, {"pin": DEMO_PIN, "next": "/tournament"})
        sessions.append(box2)
        assert (await post_json(box2, boxes[1].url + "/api/next-game"))[0] == 200
        extra = (await until("box 2's next game over", lambda: of_round(boxes[1], 2, game=3)))[0]
        await until("its page says it stays", lambda: _text(boxes[1].url + "/tournament", "kept on this box"))
        assert len((await get(url + "/api/state"))["games"]) == 4  # not delivered

        # Forged but signed: the extra game, real games given other places, strangers,
        # an extra of 50; none counts, each says why.
        round1 = delivery_of(boxes[1], of_round(boxes[1], 1)[0])
        strangers = _renamed(round1, "Mallory")
        fifty = round1.to_json()
        fifty["protocol"]["extra"] = {"3": 50}
        for attempt, words in (
            (delivery_of(boxes[1], extra), "game 3 at table 2 is not round 2's game (2)"),
            (relabel(delivery_of(boxes[1], extra), game=2), "table 2's round 2 has its game already"),
            (relabel(round1, round=9), "round 9 is not in the seating"),
            (relabel(round1, table=7), "round 1 has no table 7"),
            (strangers, "seat 1 is Mallory; the seating has"),
            (fifty, "extra points go from -1 to 1, not 50"),
        ):
            answer = await forge(url, key, attempt)
            assert answer["kept"] == "refused" and words in answer["reason"], (words, answer)
        assert len((await get(url + "/api/state"))["games"]) == 4

        # The organiser's corrections: out of the rule set's bounds, refused in words.
        game = next(g for g in (await get(url + "/api/state"))["games"] if (g["round"], g["table"]) == (1, 1))
        fix = {
            "game_id": game["id"],
            "kind": "extra",
            "seat": "3",
            "value": "5",
            "who": "Judge Ann",
            "why": "fine play",
        }
        async with org.post(url + "/corrections?lang=en", data=fix) as reply:
            assert reply.status == 400 and "extra points go from -1 to 1, not 5" in await reply.text()
        status, done = await post_json(org, url + "/corrections", {**fix, "value": "0.5"})
        assert status == 200, done

        # The standings: each counted game's protocol as its box wrote it, plus the correction.
        state = await get(url + "/api/state")
        counted = {(g["round"], g["table"]): g["box"] for g in state["games"]}
        by_name = {b.table: b for b in boxes}
        expected: dict[str, float] = {}
        for (rnd, table), name in counted.items():
            [played] = [p for p in of_round(by_name[name], rnd, game=rnd) if p.event.table == table]
            data = json.loads((by_name[name].state / "protocols" / f"{played.game.id}.json").read_text())
            for p in data["players"]:
                expected[p["name"]] = expected.get(p["name"], 0.0) + p["points"]
                if (rnd, table) == (1, 1) and p["seat"] == 3:
                    expected[p["name"]] += 0.5
        standings = (await get(url + "/api/standings"))["standings"]
        assert len(expected) == 20 and all(s["games"] == 2 for s in standings)
        assert {s["name"]: s["total"] for s in standings} == {n: round(v, 4) for n, v in expected.items()}

        # Every exported record replays to the game as played.
        records = await get(url + "/export/polemica.json")
        assert len(records) == 4
        for record in records:
            assert all(p["ratingId"].startswith("R") for p in record["players"])
            path = tmp / f"{record['id']}.json"
            path.write_text(json.dumps(record))
            assert main(["replay", str(path)]) == 0
    finally:
        for http in sessions:
            await http.close()
        for b in boxes:
            stop_box(b)
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=20)


async def _text(url: str, words: str) -> str | None:
    try:
        async with aiohttp.ClientSession() as http, http.get(url) as reply:
            text = await reply.text()
            return text if words in text else None
    except (aiohttp.ClientError, OSError):
        return None


async def _with(value: Any, test: Callable[[Any], Any]) -> Any:
    got = await value
    if got is None:
        return None
    found = test(got)
    return (found if not isinstance(found, bool) else got) if found else None
