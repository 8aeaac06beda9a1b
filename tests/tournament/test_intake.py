"""One game per planned seat, replayed by the engine before it counts: the collector's
app (a real aiohttp server, a real SQLite store) and deliveries signed with the key,
genuine and forged by someone who holds the key. Every forged one is refused with its
reason in words, kept in the list of refused deliveries (shown to the organiser, in
English and Russian), and never counted."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from narrator.tournament.wire import Delivery
from tests.tournament.cup import Cup, deliver, forged, make_cup, organiser


def test_a_planned_game_counts_once(tmp_path: Path) -> None:
    asyncio.run(_counts_once(make_cup(tmp_path)))


async def _counts_once(cup: Cup) -> None:
    game = cup.game(1, 1, seed=1)
    async with TestClient(TestServer(cup.collector.app())) as client:
        status, receipt = await deliver(client, game)
        assert (status, receipt["kept"]) == (200, "new"), receipt
        status, receipt = await deliver(client, game)  # the box did not hear the answer
        assert (status, receipt["kept"]) == (200, "same")
    assert len(cup.store.games()) == 1
    lines = cup.collector.standings()
    assert sum(line.games for line in lines) == 10 and {line.games for line in lines} == {0, 1}
    seated = set(cup.store.seating()[1][1])
    assert {line.player.id for line in lines if line.games} == seated  # by id, not by name


def _strangers(p: dict[str, Any]) -> None:
    p["names"][3] = "Somebody Else"


def _flip(p: dict[str, Any]) -> None:
    p["winner"] = "red" if p["winner"] == "black" else "black"


def _ten_dons(p: dict[str, Any]) -> None:
    for seat in p["seats"]:
        seat["role"] = "don"


def _raw(delivery: Delivery, change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data = delivery.to_json()
    change(data["protocol"])
    return data


def test_forged_but_signed_deliveries_are_refused_with_their_reasons(tmp_path: Path) -> None:
    asyncio.run(_forged(make_cup(tmp_path)))


async def _forged(cup: Cup) -> None:
    good = cup.game(1, 1, seed=2)
    second = cup.game(1, 1, seed=3)  # another game played for the same seat
    after = cup.game(1, 2, seed=4, game=2)  # "next game" after the round: round 1, game 2
    dons = ["don"] * 10
    attempts: dict[str, Delivery | dict[str, Any]] = {
        "round 9 is not in the seating": forged(
            good, lambda p: p["game"]["event"].update(round=9), lambda h: h["event"].update(round=9)
        ),
        "round 1 has no table 7": forged(
            good, lambda p: p["game"]["event"].update(table=7), lambda h: h["event"].update(table=7)
        ),
        "seat 4 is Somebody Else": forged(
            good, _strangers, lambda h: h["names"].__setitem__(3, "Somebody Else")
        ),
        "extra points go from -1 to 1, not 50": forged(good, lambda p: p["extra"].update({"3": 50})),
        "there is no seat 11": _raw(good, lambda p: p["extra"].update({"11": 0.5})),
        "winner differ": forged(good, _flip),
        "can't start the journal's game": forged(
            good,
            _ten_dons,
            lambda h: h.update(roles=dons),
        ),
        "other settings than the tournament's: best_move": forged(
            good,
            lambda p: p["game"]["settings"].update(best_move=True),
            lambda h: h["settings"].update(best_move=True),
        ),
        "another tournament": forged(
            good,
            lambda p: p["game"]["event"].update(tournament="Other cup"),
            lambda h: h["event"].update(tournament="Other cup"),
        ),
        "is not round 1's game": after,
        "Intruder box was never sent table 1's round 1": forged(good, box="Intruder box"),
        "not what its journal plays to": forged(good, lambda p: p["eliminations"].pop()),
    }
    async with TestClient(TestServer(cup.collector.app())) as client:
        for words, delivery in attempts.items():
            status, receipt = await deliver(client, delivery)
            assert status == 400 and receipt["kept"] == "refused", (words, receipt)
            assert words in receipt["reason"], (words, receipt["reason"])
        assert cup.store.games() == []  # none counted
        assert (await deliver(client, good))[1]["kept"] == "new"
        status, receipt = await deliver(client, second)  # a second game for the same seat
        assert status == 400 and "has its game already (from box Box 1)" in receipt["reason"]
        assert (await deliver(client, second))[0] == 400  # sent again: refused again, listed once
        assert len(cup.store.games()) == 1 and len(cup.store.refusals()) == len(attempts) + 1

        # The organiser sees each refusal in words, in English and in Russian; a
        # stranger on the network does not see the list at all.
        assert "Refused deliveries" not in await (await client.get("/?lang=en")).text()
        await organiser(client)
        english = await (await client.get("/?lang=en")).text()
        assert "Refused deliveries" in english and "round 9 is not in the seating" in english
        russian = await (await client.get("/?lang=ru")).text()
        assert "Отклонённые протоколы" in russian and "тура 9 нет в рассадке" in russian
        assert "Somebody Else" in russian  # the stranger's name, escaped like every name


def test_a_dead_boxs_late_game_counts_once_and_a_spares_other_game_does_not(tmp_path: Path) -> None:
    asyncio.run(_spare(make_cup(tmp_path)))


async def _spare(cup: Cup) -> None:
    late = cup.game(1, 2, seed=17)  # box 2's game, delivered after the spare was sent the round
    cup.store.saw_box("Spare box", "127.0.0.1", 8089, tables=2)
    cup.store.assign("Spare box", 2)
    cup.store.add_order(1, 2, "Spare box")
    spares = forged(cup.game(1, 2, seed=18), box="Spare box")
    async with TestClient(TestServer(cup.collector.app())) as client:
        assert (await deliver(client, late))[1]["kept"] == "new"
        assert (await deliver(client, late))[1]["kept"] == "same"
        status, receipt = await deliver(client, spares)
        assert (
            status == 400 and "table 2's round 1 has its game already (from box Box 2)" in receipt["reason"]
        )
    assert [(g.table, g.box) for g in cup.store.games()] == [(2, "Box 2")]
