"""The box's outbox against a real collector (its aiohttp app on a port of 127.0.0.1): a
finished game of the tournament is delivered once, again when its file changes (kept as
a correction), not at all while the collector is away (then when it is back), and never
counted as delivered on an answer not signed with the box's own key."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from aiohttp import web

from narrator.clock import FakeClock
from narrator.tournament.collector import Collector, Tournament
from narrator.tournament.signing import make_key
from narrator.tournament.store import Store
from narrator.tournament.tables import free_port
from narrator.uplink import pairing
from narrator.uplink.outbox import Outbox


def protocol(game_id: str, tournament: str = "Cup", extra: dict[str, float] | None = None) -> dict[str, Any]:
    return {
        "game": {
            "id": game_id,
            "rules": "sport",
            "event": {"tournament": tournament, "table": 1, "round": 1, "game": 1},
        },
        "seats": [],
        "over": True,
        "abandoned": False,
        "winner": "red",
        "extra": extra or {},
    }


def write(state: Path, p: dict[str, Any]) -> None:
    folder = state / "protocols"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{p['game']['id']}.json").write_text(json.dumps(p))


async def serve(collector: Collector, port: int) -> web.AppRunner:
    runner = web.AppRunner(collector.app())
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    return runner


def test_delivered_until_acknowledged(tmp_path: Path) -> None:
    asyncio.run(_outbox(tmp_path))


async def _outbox(tmp: Path) -> None:
    key, port = make_key(), free_port()
    state = tmp / "box"
    store = Store(tmp / "t.sqlite")
    collector = Collector(store, key, Tournament("Cup"))
    pairing.save(state, pairing.Pairing(key, "Cup", f"http://127.0.0.1:{port}"))
    write(state, protocol("20261128-100000"))
    write(state, protocol("20261128-090000", tournament="Another cup"))  # not this tournament's
    write(state, {**protocol("20261128-080000"), "over": False})  # not finished
    outbox = Outbox(state, FakeClock(), "Table 1", lambda: 8080)

    assert await outbox.deliver() == 0  # the collector is not up yet
    assert "out of reach" in outbox.last_error
    runner = await serve(collector, port)
    try:
        assert await outbox.deliver() == 1
        assert await outbox.deliver() == 0  # acknowledged: nothing more to send
        assert [g["_uid"] for g in store.games()] == ["Table-1.20261128-100000"]
        # Extra points given on the box afterwards: the file changes, delivered again.
        write(state, protocol("20261128-100000", extra={"3": 0.5}))
        assert await outbox.deliver() == 1
        assert [c["kind"] for c in store.corrections()] == ["box"]
        assert store.games()[0]["extra"] == {"3": 0.5}
        # A restarted box remembers what was acknowledged.
        assert await Outbox(state, FakeClock(), "Table 1", lambda: 8080).deliver() == 0
    finally:
        await runner.cleanup()

    # A collector with another key: its answers count for nothing, the game waits.
    write(state, protocol("20261128-110000"))
    stranger = Collector(Store(tmp / "s.sqlite"), make_key(), Tournament("Cup"))
    runner = await serve(stranger, port)
    try:
        assert await outbox.deliver() == 0
        assert "not signed with this box's key" in outbox.last_error
        assert "20261128-110000" not in outbox.delivered
    finally:
        await runner.cleanup()
    runner = await serve(collector, port)
    try:
        assert await outbox.deliver() == 1
        assert len(store.games()) == 2
    finally:
        await runner.cleanup()
