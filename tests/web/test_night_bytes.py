"""Nothing on the page moves with night input: two games that differ only in the night's
taps (who the mafia shoot, whom the don and the sheriff check) serve the same bytes at
every moment of that night, from /api/state, the game page and the live stream alike."""

from __future__ import annotations

import asyncio
from pathlib import Path

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from narrator.engine.actions import Tap
from narrator.engine.deal import deal
from narrator.engine.tasks import CallOut
from narrator.rules.loader import load_bundled
from tests.web.harness import PIN, Table

SEED = 11


def _seats() -> tuple[list[str], list[int], int, int, list[int]]:
    roles = deal(load_bundled("sport"), 10, SEED)
    black = [s for s, r in enumerate(roles, 1) if r in ("mafia", "don")]
    don = roles.index("don") + 1
    sheriff = roles.index("sheriff") + 1
    civilians = [s for s, r in enumerate(roles, 1) if r == "civilian"]
    return roles, black, don, sheriff, civilians


async def _night(tmp: Path, shot: int, don_checks: int, sheriff_checks: int,
                 ) -> tuple[list[tuple[float, bytes, bytes, bytes]], list[bytes], list[int]]:
    roles, black, don, sheriff, _ = _seats()
    table = Table(tmp, roles=roles, seed=SEED)
    client: TestClient[web.Request, web.Application] = TestClient(TestServer(table.server.app))
    await client.start_server()
    signed: TestClient[web.Request, web.Application] = TestClient(TestServer(table.server.app))
    await signed.start_server()
    await signed.post("/login", data={"pin": PIN, "next": "/game"}, allow_redirects=False)
    stream = table.server.hub.subscribe()
    plan = {"mafia_shot": (shot, black), "don_check": (don_checks, [don]),
            "sheriff_check": (sheriff_checks, [sheriff])}
    tapped: set[tuple[str, int]] = set()
    snaps: list[tuple[float, bytes, bytes, bytes]] = []
    messages: list[bytes] = []
    try:
        await table.until(lambda: table.state.phase == "night" and table.state.number == 1)
        while not stream.empty():
            stream.get_nowait()  # the day before: the same in both games anyway
        while table.state.phase == "night":
            st = table.state
            task = st.current
            if isinstance(task, CallOut) and table.window_running():
                target, actors = plan.get(task.step, (0, []))
                if task.seat == target and (task.step, target) not in tapped:
                    tapped.add((task.step, target))
                    for actor in actors:
                        table.box.submit(Tap(actor))
            for _ in range(3):
                await asyncio.sleep(0)
            if table.state.phase != "night":
                break  # dawn: the night's last moment has been seen
            state = await (await client.get("/api/state")).read()
            page = await (await client.get("/game")).read()
            page_signed = await (await signed.get("/game")).read()
            snaps.append((table.clock.now(), state, page, page_signed))
            while not stream.empty():
                messages.append(stream.get_nowait())
            assert await table.step()
        await table.until(lambda: table.state.phase == "day" and table.window_running())
        return snaps, messages, [e.seat for e in table.state.eliminations]
    finally:
        await client.close()
        await signed.close()
        await table.box.stop()


def test_two_nights_that_differ_only_in_taps_serve_identical_bytes(tmp_path: Path) -> None:
    _roles, black, _don, sheriff, civilians = _seats()
    a = asyncio.run(_night(tmp_path / "a", civilians[0], civilians[1], black[0]))
    b = asyncio.run(_night(tmp_path / "b", civilians[2], sheriff, civilians[3]))
    snaps_a, messages_a, out_a = a
    snaps_b, messages_b, out_b = b
    assert len(snaps_a) > 30  # the whole night, moment by moment
    assert snaps_a == snaps_b
    assert messages_a == messages_b and len(messages_a) > 10
    # The taps did count: the morning differs.
    assert out_a == [civilians[0]] and out_b == [civilians[2]]
    # And the page did follow the night: its number, the cues that name no role.
    said = b"".join(messages_a)
    assert b"Night 1" in snaps_a[-1][2] and b"close your eyes" in said and b"seven" in said
    assert b"wake up" not in said  # "Mafia, wake up" names a role: kept off the page
