"""scripts/boot-check reads the booted box's game from /api/state: here from a real box's
page (the service on a fake clock), so the check follows the page's answer (found: the
check read the game's id and phase at the top level, and its first boot 2 waited ten
minutes for a game that was playing)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from narrator.clock import FakeClock
from narrator.devices.keypads import FakeKeypad
from tests.box.test_service import make_service
from tests.web.harness import serve_service
from workshop.bootcheck.__main__ import game_of
from workshop.bootcheck.guest import CheckFailed


def test_the_check_reads_a_real_box_s_game(tmp_path: Path) -> None:
    clock = FakeClock()
    service, _panel, _speaker = make_service(tmp_path, clock, FakeKeypad())

    async def main() -> None:
        async with serve_service(service, clock, pin="1357") as client:
            while service.box is None or service.box.game.state.phase != "day":
                if not await clock.step():
                    clock.advance(1.0)
            r = await client.get("/api/state")
            game = game_of(r.status, await r.text())
            assert isinstance(game["id"], str) and game["id"]
            assert game["phase"] == "day" and game["over"] is False

    asyncio.run(main())


def test_no_game_or_another_shape_is_a_failed_step() -> None:
    with pytest.raises(CheckFailed, match="404"):
        game_of(404, '{"error": "no game"}')
    with pytest.raises(CheckFailed, match="no game"):
        game_of(200, '{"id": "20261202-0135", "phase": "night"}')
