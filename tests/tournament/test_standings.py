"""The standings of a played tournament against a table made by hand (sport's scoring: a
win 1 point to each player of the winning team, the first-night victim's best move 0.25
for two black players named and 0.5 for three, the organiser's extra points), kept in a
real SQLite store: a protocol delivered twice is kept once, a changed one and a judge's
change are corrections (new records), and a store opened again has lost nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from narrator.tournament.standings import standings
from narrator.tournament.store import Store

ROLES = ["don", "mafia", "mafia", "sheriff"] + ["civilian"] * 6


def protocol(
    game_id: str, rnd: int, winner: str, best: dict[str, Any] | None, extra: dict[str, float]
) -> dict[str, Any]:
    return {
        "game": {
            "id": game_id,
            "rules": "sport",
            "event": {"tournament": "Cup", "table": 1, "round": rnd, "game": rnd},
        },
        "seats": [{"seat": s, "role": r} for s, r in enumerate(ROLES, start=1)],
        "over": True,
        "abandoned": False,
        "winner": winner,
        "best_move": best,
        "extra": extra,
    }


# Player n is p[n-1]. Round 1 seats p1..p10 in order; round 2 the other way round.
# Game A (round 1): the town wins; seat 5 (p5) named seats 1, 2, 7: two black, +0.25;
# extra points +0.5 to seat 4 (p4), -0.25 to seat 2 (p2).
# Game B (round 2): the mafia wins (seats 1-3: p10, p9, p8); seat 6 (p5) named 1, 2, 3:
# three black, +0.5.
HAND = {  # player: (total, wins, games)
    1: (0.0, 0),
    2: (-0.25, 0),
    3: (0.0, 0),
    4: (1.5, 1),
    5: (1.75, 1),
    6: (1.0, 1),
    7: (1.0, 1),
    8: (2.0, 2),
    9: (2.0, 2),
    10: (2.0, 2),
}
PLACES = {8: 1, 9: 1, 10: 1, 5: 4, 4: 5, 6: 6, 7: 6, 1: 8, 3: 8, 2: 10}
# The judge then gives game B to the town: seats 4-10 (p7..p1) win instead.
AFTER = {1: 1.0, 2: 0.75, 3: 1.0, 4: 2.5, 5: 2.75, 6: 2.0, 7: 2.0, 8: 1.0, 9: 1.0, 10: 1.0}


def played(path: Path) -> tuple[Store, list[int]]:
    store = Store(path)
    ids = [store.add_player(f"P{n}", "Club").id for n in range(1, 11)]
    store.set_seating([[ids], [list(reversed(ids))]])
    a = protocol("20261128-100000", 1, "red", {"seat": 5, "seats": [1, 2, 7]}, {"4": 0.5, "2": -0.25})
    b = protocol("20261128-110000", 2, "black", {"seat": 6, "seats": [1, 2, 3]}, {})
    assert store.take_protocol("Table 1", a) == "new"
    assert store.take_protocol("Table 1", b) == "new"
    assert store.take_protocol("Table 1", a) == "same"  # delivered again: nothing added
    return store, ids


def table(store: Store) -> dict[int, tuple[float, int, int, int]]:
    lines = standings(store.players(), store.seating(), store.games())
    return {int(line.player.name[1:]): (line.total, line.wins, line.games, line.place) for line in lines}


def test_standings_match_the_hand_made_table(tmp_path: Path) -> None:
    store, _ids = played(tmp_path / "t.sqlite")
    got = table(store)
    assert {p: (v[0], v[1]) for p, v in got.items()} == HAND
    assert {p: v[3] for p, v in got.items()} == PLACES
    assert all(v[2] == 2 for v in got.values())


def test_corrections_are_new_records_and_a_reopened_store_keeps_everything(tmp_path: Path) -> None:
    store, _ids = played(tmp_path / "t.sqlite")
    store.correct("Table-1.20261128-110000", {"winner": "red"})
    assert {p: v[0] for p, v in table(store).items()} == AFTER
    # The box writes game A again with more extra points: a correction, the first kept.
    a2 = protocol(
        "20261128-100000", 1, "red", {"seat": 5, "seats": [1, 2, 7]}, {"4": 0.5, "2": -0.25, "1": 1.0}
    )
    assert store.take_protocol("Table 1", a2) == "correction"
    assert store.take_protocol("Table 1", a2) == "same"
    assert [c["kind"] for c in store.corrections()] == ["judge", "box"]
    store.close()
    again = Store(tmp_path / "t.sqlite")
    assert {p: v[0] for p, v in table(again).items()} == {**AFTER, 1: 2.0}
    original = again._rows("SELECT body FROM protocols WHERE game_id='Table-1.20261128-100000'")
    assert '"1": 1.0' not in original[0][0]  # never edited in place


def test_two_boxes_with_the_same_game_id_are_two_games(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.sqlite")
    a = protocol("20261128-100000", 1, "red", None, {})
    assert store.take_protocol("Table 1", a) == "new"
    assert store.take_protocol("Table 2", a) == "new"
    assert len(store.games()) == 2


def test_the_organiser_s_extra_points_on_the_page_reach_the_standings(tmp_path: Path) -> None:
    """Only a corrected winner was tried (issue 33: extra points dropped by the correction
    passed every test). Signed in on the collector's page, the organiser gives game A's
    extra points again (seat 4 +1, seat 2 -0.5): the standings count them at once, and a
    later correction replaces them, as the hand-made table says."""
    import asyncio

    from aiohttp.test_utils import TestClient, TestServer

    from narrator.tournament.collector import Collector, Tournament

    key = "WXYZ-2345-6789-ABCD"
    store, _ids = played(tmp_path / "t.sqlite")
    collector = Collector(store, key, Tournament("Cup", tables=1, rounds=2))

    async def totals(client: TestClient[Any, Any]) -> dict[int, float]:
        got = await (await client.get("/api/standings")).json()
        return {int(line["name"][1:]): line["total"] for line in got["standings"]}

    async def main() -> None:
        async with TestClient(TestServer(collector.app())) as client:
            refused = await client.post("/corrections", data={"game_id": "Table-1.20261128-100000",
                                                              "extra": "4=9"})
            assert refused.status == 401 and await totals(client) == {p: v[0] for p, v in HAND.items()}
            signed = await client.post("/login", data={"key": key}, allow_redirects=False)
            assert signed.status == 303
            r = await client.post("/corrections", data={"game_id": "Table-1.20261128-100000",
                                                        "extra": "4=1, 2=-0.5"},
                                  headers={"Accept": "application/json"})
            assert r.status == 200, await r.text()
            assert await totals(client) == {p: v[0] for p, v in HAND.items()} | {4: 2.0, 2: -0.5}
            r = await client.post("/corrections", data={"game_id": "Table-1.20261128-100000",
                                                        "extra": "4=0.25"},
                                  headers={"Accept": "application/json"})
            assert r.status == 200
            assert await totals(client) == {p: v[0] for p, v in HAND.items()} | {4: 1.25, 2: 0.0}

    asyncio.run(main())
