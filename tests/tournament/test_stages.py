"""Stages: 20 players play one main round at two tables, then a final of the top 10 at
one table (2 games, points x1.5, the night's points off), seated from the standings only
once the main round is complete; the finalists rank above the rest; with --hide-extra
the final's extra points stay off the public standings until the final is over."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from narrator.cli import main
from narrator.records.protocol_value import Protocol
from narrator.tournament.collector import Collector
from narrator.tournament.corrections import Change
from narrator.tournament.event import Tournament
from narrator.tournament.organiser import make_seating, seat_stage
from narrator.tournament.signing import make_key
from narrator.tournament.stages import StageError, parse
from narrator.tournament.store import Store, StoreError

ROLES = ["sheriff", "don", "mafia", "mafia"] + ["civilian"] * 6


def protocol(
    rnd: int, table: int, winner: str, extra: dict[str, float] | None = None, guess: bool = False
) -> Protocol:
    return Protocol.from_json(
        {
            "game": {
                "id": f"g{rnd}-{table}",
                "rules": "sport",
                "seats": 10,
                "event": {"tournament": "Cup", "table": table, "round": rnd, "game": rnd},
            },
            "seats": [
                {
                    "seat": s,
                    "role": r,
                    "fouls": 0,
                    "out": {"how": "shot", "phase": "night", "number": 1} if s == 5 else None,
                }
                for s, r in enumerate(ROLES, start=1)
            ],
            "eliminations": [{"seat": 5, "how": "shot", "phase": "night", "number": 1}],
            "over": True,
            "winner": winner,
            "best_move": {"seat": 5, "seats": [2, 3, 4]} if guess else None,
            "extra": extra or {},
        }
    )


def play(c: Collector, rnd: int, table: int, winner: str, **kw: Any) -> None:
    seated = c.store.seating()[rnd][table]
    c.store.add_order(rnd, table, f"Box {table}")
    assert c.store.keep(f"Box {table}", protocol(rnd, table, winner, **kw), "journal", seated)[0] == "new"


def test_a_final_of_the_top_10_after_the_main_round(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.sqlite")
    for i in range(20):
        store.add_player(f"Player {i:02d}", f"Club {i % 4}")
    t = Tournament("Cup", rounds=1, final="2x1.5,no-night", hide_extra=True, date="2026-12-05")
    c = Collector(store, make_key(), t)
    make_seating(c)
    assert c.t.tables == 2 and c.t.rounds == 1
    with pytest.raises(StoreError, match="every game before it is in"):
        seat_stage(c)  # the main round is not in yet
    play(c, 1, 1, "red", extra={"1": 0.5}, guess=True)
    with pytest.raises(StoreError, match="every game before it is in"):
        seat_stage(c)
    play(c, 1, 2, "black", extra={"7": 1.0})
    after_main = c.standings()
    top = {line.player.id for line in after_main[:10]}
    assert seat_stage(c).name == "final"
    seating = store.seating()
    assert sorted(seating) == [1, 2, 3] and c.t.rounds == 3
    assert all(list(seating[r]) == [1] and set(seating[r][1]) == top for r in (2, 3))
    assert store.tournament() == c.t  # a restart knows the final's rounds
    # Two games each, never in the same seat twice.
    seats = Counter((p, s) for r in (2, 3) for s, p in enumerate(seating[r][1], 1))
    assert max(seats.values()) == 1
    with pytest.raises(StoreError, match="every stage is seated already"):
        seat_stage(c)

    # Final game 1: reds win; seat 5 shot first with a guess (off: no-night); extra +1 to seat 2.
    play(c, 2, 1, "red", extra={"2": 1.0}, guess=True)
    final = seating[2][1]
    lines = {line.player.id: line for line in c.standings()}
    public = {line.player.id: line for line in c.standings(public=True)}
    sheriff, don, guesser = final[0], final[1], final[4]
    main_total = {line.player.id: line.total for line in after_main}
    assert lines[sheriff].total == pytest.approx(main_total[sheriff] + 1.5)  # a win x1.5
    assert lines[guesser].total == pytest.approx(main_total[guesser] + 1.5)  # the guess does not count
    assert lines[don].total == pytest.approx(main_total[don] + 1.5)  # extra +1 x1.5
    assert public[don].total == pytest.approx(main_total[don])  # hidden while the final plays
    assert public[sheriff].total == lines[sheriff].total
    view = c.view(public=True)
    assert all(not g.protocol.extra for g in view.games if g.round == 2)
    play(c, 3, 1, "black")
    shown = {line.player.id: line.total for line in c.standings(public=True)}
    assert shown == {line.player.id: line.total for line in c.standings()}  # shown: the final is over
    black_again = ROLES[seating[3][1].index(don)] in ("don", "mafia")
    assert shown[don] == pytest.approx(main_total[don] + 1.5 + (1.5 if black_again else 0))

    # The finalists first, whatever their points; then the rest by points: a finalist
    # given -1 in both final games afterwards (-1.5 each) has fewer than players left out.
    last = next(g for g in store.games() if g.round == 3)
    for g in store.games():
        if g.round >= 2:
            seat = g.players.index(last.players[0]) + 1
            store.correct(g.uid, Change("extra", seat, -1.0), "Judge", "a late penalty")
    order = c.standings()
    punished = next(line for line in order if line.player.id == last.players[0])
    assert punished.total < max(line.total for line in order[10:])
    assert {line.player.id for line in order[:10]} == top
    assert [line.stage for line in order] == ["final"] * 10 + ["main"] * 10
    assert order[10].place == 11


def test_stage_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert parse("final", "4x1.5") == parse("final", "4X1.5")
    assert parse("semi", "30:3,no-night").players == 30 and not parse("semi", "30:3,no-night").night
    for name, bad, words in (
        ("final", "20:4", "a final is 10 players"),
        ("semi", "25:2", "do not fill tables of 10"),
        ("final", "4x", r"expected \[PLAYERS:\]GAMES"),
        ("final", "4,fast", "'fast' is not an option"),
    ):
        with pytest.raises(StageError, match=words):
            parse(name, bad)
    folder = tmp_path / "t"
    first = ["tournament", "--state-dir", str(folder), "--export", str(tmp_path / "out")]
    assert main([*first, "--final", "4x"]) == 2
    assert "--final" in capsys.readouterr().err
    assert main([*first, "--final", "4x1.5", "--hide-extra"]) == 0
    assert main([*first, "--final", "2"]) == 2
    assert "--final '2' (it is '4x1.5')" in capsys.readouterr().err
    assert main(first) == 0


def test_a_stage_through_the_page(tmp_path: Path) -> None:
    """The organiser's button seats the final, in a worker thread, and says so."""
    import aiohttp

    async def run() -> None:
        store = Store(tmp_path / "t.sqlite")
        for i in range(20):
            store.add_player(f"P{i}")
        key = make_key()
        c = Collector(store, key, Tournament("Cup", rounds=1, final="2"))
        make_seating(c)
        await c.start("127.0.0.1", 0)
        try:
            jar = aiohttp.CookieJar(unsafe=True)
            async with aiohttp.ClientSession(cookie_jar=jar) as http:
                await http.post(c.url + "/login", data={"key": key}, allow_redirects=False)
                page = await (await http.get(c.url + "/")).text()
                assert "Seat the final" in page
                async with http.post(c.url + "/stages/next", headers={"Accept": "application/json"}) as r:
                    assert r.status == 400 and "every game before it is in" in await r.text()
                play(c, 1, 1, "red")
                play(c, 1, 2, "red")
                async with http.post(c.url + "/stages/next", headers={"Accept": "application/json"}) as r:
                    assert r.status == 200 and await r.json() == {"stage": "final", "rounds": [2, 3]}
                page = await (await http.get(c.url + "/")).text()
                assert "Seat the final" not in page and "Send round 3" in page
        finally:
            await c.stop()

    asyncio.run(run())


def test_a_semi_final_then_a_final(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.sqlite")
    for i in range(30):
        store.add_player(f"Player {i:02d}")
    c = Collector(store, make_key(), Tournament("Cup", rounds=1, semi="20:1x1.25", final="1x1.5"))
    make_seating(c)
    for table in (1, 2, 3):
        play(c, 1, table, "red" if table != 2 else "black")
    main_top = [line.player.id for line in c.standings()[:20]]
    assert seat_stage(c).name == "semi"
    semi = store.seating()[2]
    assert sorted(semi) == [1, 2] and {p for t in semi.values() for p in t} == set(main_top)
    play(c, 2, 1, "black")
    play(c, 2, 2, "red")
    semi_top = [line.player.id for line in c.standings()[:10]]
    assert all(line.stage == "semi" for line in c.standings()[:20])
    assert seat_stage(c).name == "final"
    assert set(store.seating()[3][1]) == set(semi_top) <= set(main_top)
    assert store.get("stages") == {"main": [1, 1], "semi": [2, 2], "final": [3, 3]}
