"""The box's outbox against a real collector (its aiohttp app on a port of 127.0.0.1): a
finished game of a round the collector sent is delivered with its journal, once; not at
all while the collector is away (then when it is back); a game played after the round
("next game") stays on the box; extra points given on the box afterwards are delivered
again and wait for the organiser's yes; a refused game is not sent again and the box's
ledger says why; an answer not signed with the box's own key counts for nothing."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from aiohttp import web

from narrator.clock import FakeClock
from narrator.records.extra_points import give_extra_points
from narrator.sim.recorded import record_game
from narrator.tournament.collector import Collector
from narrator.tournament.signing import make_key
from narrator.tournament.store import Store
from narrator.tournament.tables import free_port
from narrator.tournament.wire import RoundOrder
from narrator.uplink import pairing
from narrator.uplink.outbox import Outbox, read_answers
from tests.tournament.cup import KEY, TOURNAMENT, Cup, make_cup


async def serve(collector: Collector, port: int) -> web.AppRunner:
    runner = web.AppRunner(collector.app())
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    return runner


def order(cup: Cup, rnd: int, table: int, url: str) -> RoundOrder:
    names = cup.seat(rnd, table)
    return RoundOrder("Cup", url, table, rnd, rnd, "sport", len(names), names)


def test_delivered_until_acknowledged(tmp_path: Path) -> None:
    asyncio.run(_outbox(tmp_path, make_cup(tmp_path)))


async def _outbox(tmp: Path, cup: Cup) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    state = tmp / "box1"
    pairing.save(state, pairing.Pairing(KEY).with_round(order(cup, 1, 1, url)))
    event = {"tournament": "Cup", "table": 1, "round": 1, "game": 1}
    game = record_game(state, "sport", 7, cup.seat(1, 1), event)
    record_game(state, "sport", 8, cup.seat(1, 1), {**event, "tournament": "Another cup"})
    after = record_game(state, "sport", 9, cup.seat(1, 1), {**event, "game": 2})  # "next game"
    outbox = Outbox(state, FakeClock(), "Box 1", lambda: 8081)
    assert [p.stem for p in outbox.waiting()] == [game.game_id]
    assert outbox.ledger().own == [after.game_id]

    assert await outbox.deliver() == 0  # the collector is not up yet
    assert "out of reach" in outbox.last_error
    runner = await serve(cup.collector, port)
    try:
        assert await outbox.deliver() == 1
        assert await outbox.deliver() == 0  # acknowledged: nothing more to send
        assert [g.uid for g in cup.store.games()] == [f"Box-1.{game.game_id}"]
        assert cup.store.games()[0].protocol.to_json()["names"] == list(cup.seat(1, 1))
        # Extra points given on the box afterwards: the file changes, delivered again, and
        # the collector keeps it waiting for the organiser's yes.
        give_extra_points(state, game.game_id, {3: 0.5})
        assert await outbox.deliver() == 1
        assert [c.source for c in cup.store.games()[0].corrections] == ["box"]
        assert cup.store.games()[0].protocol.extra == {}  # the played game is not edited
        # A restarted box remembers what was acknowledged.
        assert await Outbox(state, FakeClock(), "Box 1", lambda: 8081).deliver() == 0

        # Another box sent the same table's round: its game is refused, for good.
        other = tmp / "box9"
        pairing.save(other, pairing.Pairing(KEY).with_round(order(cup, 1, 1, url)))
        record_game(other, "sport", 10, cup.seat(1, 1), event)
        cup.store.saw_box("Box 9", "127.0.0.1", 8089, tables=2)
        cup.store.add_order(1, 1, "Box 9")
        spare = Outbox(other, FakeClock(), "Box 9", lambda: 8089)
        assert await spare.deliver() == 1 and "has its game already" in spare.last_error
        assert await spare.deliver() == 0  # not sent again
        refused = spare.ledger().refused
        assert len(refused) == 1 and "table 1's round 1 has its game already" in refused[0][1]
        assert read_answers(other)[1] == spare.last_error  # kept for the box's page
    finally:
        await runner.cleanup()

    # A collector with another key: its answers count for nothing, the game waits.
    game2 = record_game(state, "sport", 11, cup.seat(1, 1), {**event, "table": 2})
    state_pairing = pairing.load(state)
    pairing.save(state, state_pairing.with_round(order(cup, 1, 2, url)))
    assert json.loads(game2.protocol.read_text())["game"]["event"]["table"] == 2
    stranger = Collector(Store(tmp / "s.sqlite"), make_key(), TOURNAMENT)
    runner = await serve(stranger, port)
    try:
        assert await outbox.deliver() == 0
        assert "not signed with this box's key" in outbox.last_error
        assert game2.game_id not in outbox.answers
    finally:
        await runner.cleanup()
