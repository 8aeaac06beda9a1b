"""The evening's operations on the service (fake ports, virtual clock): a game started with
a set-up carries it in its journal, an abandoned game is archived marked abandoned with
its protocol, the next game keeps the names, and what can't be done now is refused."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from narrator.box.evening import EveningError
from narrator.box.memory import remember
from narrator.box.setups import initial_setup
from narrator.boxconfig import load_settings
from narrator.clock import FakeClock
from narrator.devices.keypads import FakeKeypad
from narrator.evening import Event, GameSetup, SetupError
from tests.box.test_service import drive, make_service

TEN = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")


def journals(tmp_path: Path) -> list[list[dict[str, object]]]:
    files = (tmp_path / "state" / "games").glob("*.jsonl")
    games = [[json.loads(line) for line in f.read_text().splitlines()] for f in files]
    return sorted(games, key=lambda lines: float(str(lines[0]["wall"])))


def test_abandon_then_next_game_with_the_same_names(tmp_path: Path) -> None:
    clock = FakeClock()
    keypad = FakeKeypad()
    service, _panel, speaker = make_service(tmp_path, clock, keypad)
    evening = service.evening
    evening.setup = GameSetup(names=TEN, event=Event("Cup", 1, 2, 5))  # as the page would have
    started: list[str] = []
    evening.listeners.append(started.append)

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(service.run(games=3))
        while service.box is None or service.box.game.state.number < 1:
            assert await clock.step()
        assert evening.in_play
        with pytest.raises(EveningError, match="abandon it first"):
            evening.start(GameSetup())
        with pytest.raises(EveningError):
            evening.next()
        files = evening.abandon()
        assert files is not None and files.json.is_file()
        assert not evening.in_play
        with pytest.raises(EveningError, match="no game is in play"):
            evening.abandon()
        for _ in range(20):
            await asyncio.sleep(0)
        assert service.games == 1
        # A set-up the page got wrong changes nothing...
        with pytest.raises(SetupError):
            evening.start(GameSetup(names=TEN[:9]))
        assert not evening.starting
        # ...and the keypad's Enter starts the next game with the same names.
        service.ports.keypads[0].press("enter")
        assert evening.starting

        async def after_the_second() -> None:
            while service.games < 2:
                await clock.sleep(5)
            evening.next()

        asyncio.get_running_loop().create_task(after_the_second())
        await drive(clock, task)
        await task

    asyncio.run(main())
    first, second, third = journals(tmp_path)
    assert first[-1]["end"] is None and first[-1]["abandoned"] is True
    protocol = json.loads(next((tmp_path / "state" / "protocols").glob(
        f"{first[0]['header']['game_id']}.json")).read_text())  # type: ignore[index]
    assert protocol["abandoned"] is True and not protocol["over"]
    heads = [j[0]["header"] for j in (first, second, third)]
    assert all(h["names"] == list(TEN) for h in heads)  # type: ignore[index]
    # The abandoned game is played again under its number; a finished one counts on.
    assert [h["event"]["game"] for h in heads] == [5, 5, 6]  # type: ignore[index]
    assert "abandoned" not in second[-1] and second[-1]["end"] is not None
    assert started.count("start") == 2 and started.count("abandon") == 1
    assert [text for _at, text in speaker.said].count("A new game begins.") == 3


def test_names_are_remembered_for_the_next_start_of_the_box(tmp_path: Path) -> None:
    settings = load_settings(None, {"state_dir": str(tmp_path / "state"), "keypad": "none"})
    assert initial_setup(settings).names == ()
    remember(settings.state_dir, GameSetup(names=TEN))
    assert initial_setup(settings).names == TEN
    # Names given win; remembered names that don't fit the table are not used.
    given = tuple(n + "a" for n in TEN)
    assert initial_setup(settings, given).names == given
    remember(settings.state_dir, GameSetup(rules="classic", seats=12,
                                           names=(*TEN, "Kim", "Lou")))
    assert initial_setup(settings).names == ()
