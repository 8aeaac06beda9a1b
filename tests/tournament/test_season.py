"""A club's season on its own box: the finished games in the box's protocols folder, of a
date range, give the same standings as a tournament of those games would (the scoring
and its tie-breaks chosen), on the box's page (`/season`) and as CSV; a game with an
unnamed seat is not rated and is said so; a bad date is refused in words."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from narrator.records.session import protocols_dir
from narrator.tournament.scoring import load
from narrator.tournament.season import SeasonError, season
from narrator.tournament.standings import standings
from tests.tournament.test_scoring import A_ROLES, B_ROLES, NAMES, SPORT, protocol
from tests.web.harness import serve_table

DATES = {"A": "2026-09-05T19:10:00", "B": "2026-09-12T19:05:00", "C": "2026-10-03T19:20:00"}


def write_games(folder: Path) -> list[Any]:
    folder.mkdir(parents=True, exist_ok=True)
    played = [
        protocol("A", 1, A_ROLES, "red", 5, (2, 3, 4), (3, [1, 8, 9, 2]), {6: 4}, 7, {"1": 0.4}),
        protocol("B", 2, B_ROLES, "black", 3, (5, 6, 7), (4, [5, 6])),
        protocol("C", 3, A_ROLES, "red", 4, None, extra={"8": 0.25, "9": 1.0, "6": 0.5}),
    ]
    for p in played:
        data = p.to_json()
        data["game"]["started"] = DATES[p.game.id]
        data["names"] = [n.upper() if p.game.id == "B" else n for n in NAMES]  # one name, any case
        (folder / f"{p.game.id}.json").write_text(json.dumps(data), encoding="utf-8")
    unnamed = played[0].to_json()
    unnamed["game"].update(id="D", started="2026-09-19T19:00:00")
    unnamed["names"] = [*NAMES[:9], ""]
    (folder / "D.json").write_text(json.dumps(unnamed), encoding="utf-8")
    (folder / "E.json").write_text("{not json", encoding="utf-8")
    return played


def test_the_season_is_the_tournament_of_its_games(tmp_path: Path) -> None:
    from narrator.tournament.corrections import played as result_of
    from narrator.tournament.scoring import facts
    from narrator.tournament.standings import Counted
    from narrator.tournament.store import Player

    games = write_games(protocols_dir(tmp_path))
    for name in ("fiim", "mafiaratings", "polemica", ""):
        s = season(protocols_dir(tmp_path), "2026-09-01", "2026-10-31", scoring=name)
        assert (s.games, s.skipped) == (3, 1)
        players = [Player(i + 1, n) for i, n in enumerate(NAMES)]
        seats = tuple(range(1, 11))
        counted = [
            Counted(g.game.id, 0, 0, seats, g.roles, result_of(g), facts(g.rest, g.eliminations))
            for g in games
        ]
        expected = standings(players, counted, SPORT, load(name) if name else None)
        assert [(x.place, x.player.name, x.total, x.ci) for x in s.lines] == [
            (x.place, x.player.name, x.total, x.ci) for x in expected
        ]
    september = season(protocols_dir(tmp_path), "2026-09-01", "2026-09-30", scoring="fiim")
    assert (september.games, september.skipped) == (2, 1)
    with pytest.raises(SeasonError, match="to: expected a date YYYY-MM-DD"):
        season(protocols_dir(tmp_path), "2026-09-01", "30.09.2026")
    with pytest.raises(SeasonError, match="is after to"):
        season(protocols_dir(tmp_path), "2026-10-01", "2026-09-01")


def test_the_season_on_the_box_page_and_as_csv(tmp_path: Path) -> None:
    write_games(protocols_dir(tmp_path))

    async def run() -> None:
        async with serve_table(tmp_path) as (_table, client):
            reply = await client.get("/season?from=2026-09-01&to=2026-10-31&scoring=fiim")
            page = await reply.text()
            assert reply.status == 200 and "3 games from 2026-09-01 to 2026-10-31" in page
            assert "1 not rated" in page and "Yuri" in page and "Penalty" in page
            reply = await client.get("/season.csv?from=2026-09-01&to=2026-10-31&scoring=fiim")
            rows = list(csv.DictReader(io.StringIO(await reply.text())))
            assert [(r["place"], r["name"], r["total"]) for r in rows[:4]] == [
                ("1", "Yuri", "3.4"),
                ("2", "Anna", "3.4"),
                ("3", "Zoe", "3.0"),
                ("4", "Boris", "3.0"),
            ]
            archive = await (await client.get("/archive")).text()
            assert '<a href="/season">' in archive  # the way there from the box's games
            reply = await client.get("/season?from=yesterday")
            assert reply.status == 400 and "from: expected a date" in await reply.text()

    asyncio.run(run())
