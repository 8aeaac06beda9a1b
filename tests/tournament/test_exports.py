"""The exports a rating site takes: each counted game as a Polemica record with every
player's name and rating id, the extra points in force, the official result (a draw or
a corrected winner set by the organiser) and every correction record beside the game as
played; every record replayed by `narrator replay`, which agrees with it. The printable
sheet has the tournament's name, date, the round it stands after and the rating ids."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from narrator.cli import main
from narrator.tournament.corrections import Change
from tests.tournament.cup import Cup, deliver, make_cup


def test_every_export_is_one_the_engine_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cup = make_cup(tmp_path)
    records, sheet = asyncio.run(_export(cup))
    assert len(records) == 2
    by_table = {r["tournament"]["table"]: r for r in records}
    drawn, flipped = by_table[1], by_table[2]
    ids = {p.name: p.rating_id for p in cup.store.players()}
    for record in records:
        assert {p["ratingId"] for p in record["players"]} == {ids[p["name"]] for p in record["players"]}
        assert all(p["ratingId"].startswith("FIIM-") for p in record["players"])
        assert record["tournament"] | {"box": ""} == {
            "name": "Cup",
            "date": "2026-12-05",
            "round": 1,
            "table": record["tournament"]["table"],
            "box": "",
            "rules": "sport",
            "preset": "",
            "scoring": None,
        }
        path = tmp_path / f"{record['id']}.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        assert main(["replay", str(path), "--json"]) == 0, capsys.readouterr().err
        replayed = json.loads(capsys.readouterr().out)
        assert replayed["winner"] == {0: "red", 1: "black"}[record["result"]]  # the game as played
    # The draw the organiser set, the extra points and the flipped winner: beside it.
    assert drawn["official"]["winner"] == "draw" and drawn["official"]["result"] == 2
    assert all(p["win"] == 0 for p in drawn["official"]["points"])
    assert drawn["bonuses"] == [{"position": 4, "value": 0.5}]
    assert [(c["kind"], c["by"], c["why"], c["status"]) for c in drawn["corrections"]] == [
        ("extra", "Judge Ann", "a fine defence", "in force"),
        ("draw", "Judge Ann", "three rounds without an elimination", "in force"),
    ]
    played = {0: "red", 1: "black"}[flipped["result"]]
    assert flipped["official"]["winner"] == ("red" if played == "black" else "black")
    assert flipped["corrections"][0]["kind"] == "winner" and flipped["official"]["technicalDefeat"] is None

    assert "Cup" in sheet and "Standings after round 1 of 2" in sheet and "Date: 2026-12-05" in sheet
    assert all(rating in sheet for rating in ids.values())
    # The same from the command line: one file a game, the sheet, the CSV.
    assert main(["tournament", "--state-dir", str(tmp_path), "--export", str(tmp_path / "out")]) == 0
    files = sorted(p.name for p in (tmp_path / "out" / "polemica").iterdir())
    assert files == sorted(f"{r['id']}.json" for r in records)
    assert "FIIM-1001" in (tmp_path / "out" / "standings.html").read_text(encoding="utf-8")


async def _export(cup: Cup) -> tuple[list[dict[str, Any]], str]:
    async with TestClient(TestServer(cup.collector.app())) as client:
        for table, seed in ((1, 13), (2, 14)):
            assert (await deliver(client, cup.game(1, table, seed=seed)))[1]["kept"] == "new"
        one, two = sorted(cup.store.games(), key=lambda g: g.table)
        cup.store.correct(one.uid, Change("extra", 4, 0.5), "Judge Ann", "a fine defence")
        cup.store.correct(one.uid, Change("draw"), "Judge Ann", "three rounds without an elimination")
        other = "red" if two.protocol.winner == "black" else "black"
        cup.store.correct(two.uid, Change("winner", None, other), "Judge Bob", "a night breach")
        records = await (await client.get("/export/polemica.json")).json()
        sheet = await (await client.get("/export/sheet?lang=en")).text()
    return records, sheet
