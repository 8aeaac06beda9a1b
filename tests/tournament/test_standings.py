"""The standings of a played tournament with corrections against tables made by hand
(sport's scoring: a win 1 point to each player of the winning team, the first-night
victim's best move 0.25 for two black players named and 0.5 for three, the extra points),
kept in a real SQLite store: a game delivered twice is kept once; a box's changed result
waits for the organiser's yes; every correction is a record of its own (who, when, why);
a store opened again has lost nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from narrator.records.protocol_value import Protocol
from narrator.rules.loader import load_bundled
from narrator.tournament.corrections import Change, decisions, status
from narrator.tournament.standings import counted, standings
from narrator.tournament.store import Store

ROLES = ["don", "mafia", "mafia", "sheriff"] + ["civilian"] * 6
SPORT = load_bundled("sport").with_settings({"best_move": True})


def protocol(
    game_id: str, rnd: int, winner: str, best: dict[str, Any] | None, extra: dict[str, float]
) -> Protocol:
    return Protocol.from_json(
        {
            "game": {
                "id": game_id,
                "rules": "sport",
                "seats": 10,
                "event": {"tournament": "Cup", "table": 1, "round": rnd, "game": rnd},
            },
            "seats": [{"seat": s, "role": r, "fouls": 0, "out": None} for s, r in enumerate(ROLES, start=1)],
            "over": True,
            "abandoned": False,
            "winner": winner,
            "best_move": best,
            "extra": extra,
        }
    )


# Player n is p[n-1]. Round 1 seats p1..p10 in order; round 2 the other way round.
# Game A (round 1): the town wins; seat 5 (p5) named seats 1, 2, 7: two black, +0.25;
# extra points +0.5 to seat 4 (p4), -0.25 to seat 2 (p2).
# Game B (round 2): the mafia wins (seats 1-3: p10, p9, p8); seat 6 (p5) named 1, 2, 3:
# three black, +0.5.
HAND = {  # player: (total, wins)
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
# The organiser gives game B to the town: seats 4-10 (p7..p1) win instead.
B_TO_RED = {1: 1.0, 2: 0.75, 3: 1.0, 4: 2.5, 5: 2.75, 6: 2.0, 7: 2.0, 8: 1.0, 9: 1.0, 10: 1.0}
# Then: the box of table 1 gives seat 1 of game A +1.0 (waits; the organiser says yes),
# and +1.0 to seat 9 (the organiser says no); the organiser sets seat 2's extra of game A
# to 0; game A becomes a draw (its best move and extra points stay).
AFTER = {1: 2.0, 2: 1.0, 3: 1.0, 4: 1.5, 5: 1.75, 6: 1.0, 7: 1.0, 8: 0.0, 9: 0.0, 10: 0.0}
# Game B annulled: only game A counts, for everyone.
B_ANNULLED = {1: 1.0, 2: 0.0, 3: 0.0, 4: 0.5, 5: 0.25, 6: 0.0, 7: 0.0, 8: 0.0, 9: 0.0, 10: 0.0}
A = protocol("20261128-100000", 1, "red", {"seat": 5, "seats": [1, 2, 7]}, {"4": 0.5, "2": -0.25})
B = protocol("20261128-110000", 2, "black", {"seat": 6, "seats": [1, 2, 3]}, {})
UID_A, UID_B = "Table-1.20261128-100000", "Table-1.20261128-110000"


def played(path: Path) -> tuple[Store, list[int]]:
    store = Store(path)
    ids = [store.add_player(f"P{n}", "Club").id for n in range(1, 11)]
    store.set_seating([{1: ids}, {1: list(reversed(ids))}])
    store.add_order(1, 1, "Table 1")
    store.add_order(2, 1, "Table 1")
    assert store.keep("Table 1", A, "journal A", ids) == ("new", UID_A)
    assert store.keep("Table 1", B, "journal B", list(reversed(ids))) == ("new", UID_B)
    assert store.keep("Table 1", A, "journal A", ids) == ("same", UID_A)  # again: nothing added
    return store, ids


def table(store: Store) -> dict[int, tuple[float, int, int, int]]:
    lines = standings(store.players(), counted(store.games(), SPORT), SPORT)
    return {int(line.player.name[1:]): (line.total, line.wins, line.games, line.place) for line in lines}


def totals(store: Store) -> dict[int, float]:
    return {p: v[0] for p, v in table(store).items()}


def test_standings_match_the_hand_made_table(tmp_path: Path) -> None:
    store, _ids = played(tmp_path / "t.sqlite")
    got = table(store)
    assert {p: (v[0], v[1]) for p, v in got.items()} == HAND
    assert {p: v[3] for p, v in got.items()} == PLACES
    assert all(v[2] == 2 for v in got.values())


def test_corrections_are_records_and_the_standings_follow_the_hand_made_tables(tmp_path: Path) -> None:
    store, ids = played(tmp_path / "t.sqlite")
    store.correct(
        UID_B, Change("winner", None, "red"), "Judge Ann", "the don's team broke the rules at night"
    )
    assert totals(store) == B_TO_RED
    # The box writes game A again with more extra points: it waits for the organiser.
    more = A.with_extra({4: 0.5, 2: -0.25, 1: 1.0})
    assert store.keep("Table 1", more, "journal A", ids)[0] == "pending"
    assert store.keep("Table 1", more, "journal A", ids)[0] == "same"
    assert totals(store) == B_TO_RED  # not yet
    pending = [c for c in store.game(UID_A).corrections if c.source == "box"]  # type: ignore[union-attr]
    store.correct(
        UID_A, Change("approve"), "Judge Ann", "the table's judge confirmed it", parent=pending[0].id
    )
    assert totals(store)[1] == 2.0
    # Another change from the box, which the organiser declines.
    assert store.keep("Table 1", more.with_extra({**more.extra, 9: 1.0}), "journal A", ids)[0] == "pending"
    game_a = store.game(UID_A)
    assert game_a is not None
    second = [c for c in game_a.corrections if c.source == "box"][-1]
    store.correct(UID_A, Change("decline"), "Judge Bob", "not agreed at the table", parent=second.id)
    store.correct(UID_A, Change("extra", 2, 0.0), "Judge Bob", "the warning was withdrawn")
    store.correct(UID_A, Change("draw"), "Judge Bob", "three rounds without an elimination were missed")
    assert totals(store) == AFTER
    store.correct(UID_B, Change("annul"), "Judge Ann", "the wrong players sat at table 1")
    assert totals(store) == B_ANNULLED
    assert all(v[2] == 1 for v in table(store).values())  # an annulled game counts for nobody
    store.correct(UID_B, Change("count_again"), "Judge Ann", "they were the right ones after all")
    assert totals(store) == AFTER

    # Every record with who and why; a store opened again has them all and the same table.
    records = [c for g in store.games() for c in g.corrections]
    assert all(c.who and c.why and c.at > 0 for c in records)
    decided = decisions(store.game(UID_A).corrections)  # type: ignore[union-attr]
    states = [status(c, decided) for c in store.game(UID_A).corrections]  # type: ignore[union-attr]
    assert states == ["in force", "decision", "declined", "decision", "in force", "in force"]
    store.close()
    again = Store(tmp_path / "t.sqlite")
    assert totals(again) == AFTER
    original = again._rows(f"SELECT body FROM protocols WHERE game_id='{UID_A}'")
    assert '"1": 1.0' not in original[0][0]  # never edited in place


def test_one_game_per_planned_seat(tmp_path: Path) -> None:
    store, ids = played(tmp_path / "t.sqlite")
    other = protocol("20261128-120000", 1, "black", None, {})
    for box in ("Table 1", "Intruder box"):  # another game for a seat that has one: refused
        store.add_order(1, 1, box)
        try:
            store.keep(box, other, "journal C", ids)
        except ValueError as exc:
            assert "has its game already" in str(exc)
        else:
            raise AssertionError("a second game for round 1, table 1 was kept")
    assert len(store.games()) == 2


def test_the_organiser_s_extra_points_on_the_page_reach_the_standings(tmp_path: Path) -> None:
    """Only a corrected winner was tried (issue 33: extra points dropped by the correction
    passed every test). Signed in on the collector's page, the organiser gives game A's
    extra points again (seat 4 +1, seat 2 -0.5): the standings count them at once, and a
    later correction replaces them, as the hand-made table says."""
    import asyncio

    from aiohttp.test_utils import TestClient, TestServer

    from narrator.tournament.collector import Collector
    from narrator.tournament.event import Tournament

    key = "WXYZ-2345-6789-ABCD"
    store, _ids = played(tmp_path / "t.sqlite")
    cup = Tournament("Cup", tables=1, rounds=2, settings={"best_move": True})
    collector = Collector(store, key, cup)

    async def totals(client: TestClient[Any, Any]) -> dict[int, float]:
        got = await (await client.get("/api/standings")).json()
        return {int(line["name"][1:]): line["total"] for line in got["standings"]}

    def extra(seat: int, value: float) -> dict[str, str]:
        return {"game_id": UID_A, "kind": "extra", "seat": str(seat), "value": str(value),
                "who": "Judge Ann", "why": "the table's judge gave it"}

    async def main() -> None:
        async with TestClient(TestServer(collector.app())) as client:
            refused = await client.post("/corrections", data=extra(4, 1))
            assert refused.status == 401 and await totals(client) == {p: v[0] for p, v in HAND.items()}
            signed = await client.post("/login", data={"key": key}, allow_redirects=False)
            assert signed.status == 303
            for seat, value in ((4, 1.0), (2, -0.5)):
                r = await client.post("/corrections", json=extra(seat, value))
                assert r.status == 200, await r.text()
            assert await totals(client) == {p: v[0] for p, v in HAND.items()} | {4: 2.0, 2: -0.5}
            r = await client.post("/corrections", json=extra(4, 0.25))
            assert r.status == 200
            assert await totals(client) == {p: v[0] for p, v in HAND.items()} | {4: 1.25, 2: -0.5}

    asyncio.run(main())
