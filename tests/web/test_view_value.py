"""The page's view is a frozen value whose JSON is written in one place, and only from the
fields declared public: a field added to the view without the mark never reaches a client."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import pytest

from narrator.engine.deal import deal
from narrator.engine.game import Game
from narrator.rules.loader import load_bundled
from narrator.web import view as view_module
from narrator.web.view import GameInfo, SeatView, View, public_state
from tests.web.harness import serve_table


def a_view() -> View:
    game = Game(load_bundled("sport"), 10, seed=2)
    return public_state(GameInfo("g", "sport", "Sport", "en"), game.state)


@dataclass(frozen=True, slots=True)
class SeatTomorrow(SeatView):
    """A seat as a careless change might extend it: the night's target kept unmarked."""

    shot_tonight: bool = True


@dataclass(frozen=True, slots=True)
class ViewTomorrow(View):
    roles: tuple[str, ...] = field(default=("don", "sheriff"))


def test_a_field_not_marked_public_is_not_written() -> None:
    view = a_view()
    seats = tuple(SeatTomorrow(**{f.name: getattr(s, f.name) for f in fields(s)}) for s in view.seats)
    extended = ViewTomorrow(**{f.name: getattr(view, f.name) for f in fields(view)} | {"seats": seats})
    data = extended.to_json()
    assert data == view.to_json()
    raw = json.dumps(data)
    assert "shot_tonight" not in raw and "roles" not in raw and "sheriff" not in raw


def test_the_view_is_frozen() -> None:
    view = a_view()
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.speaker = 3  # type: ignore[misc]


def test_a_signed_out_client_gets_only_public_fields(tmp_path: Path) -> None:
    def keys(cls: type, data: Any) -> None:
        names = {f.name: f for f in fields(cls)}
        assert set(data) <= set(names), set(data) - set(names)
        for name, value in data.items():
            kinds = {"game": view_module.GameView, "ballot": view_module.BallotView}
            if name in kinds and value is not None:
                keys(kinds[name], value)
            listed = {"seats": SeatView, "nominations": view_module.NominationView,
                      "eliminations": view_module.EliminationView}
            if name in listed:
                for item in value:
                    keys(listed[name], item)

    async def main() -> None:
        async with serve_table(tmp_path, roles=deal(load_bundled("sport"), 10, 3), seed=3) as (table, client):
            await table.until(lambda: table.state.phase == "day" and table.window_running())
            r = await client.get("/api/state")
            assert r.status == 200
            keys(View, await r.json())

    asyncio.run(main())
