"""A paused day is halted at the table too: "next speaker" typed on the keypad while the
game is paused gets the usual "Not now." and the speaker keeps the floor; once resumed
the same key moves the day on (engine rule: narrator/engine/pausing.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from narrator.clock import FakeClock
from narrator.devices.keypads import FakeKeypad
from narrator.engine.tasks import Speech
from tests.box.test_service import make_service


def test_next_speaker_waits_for_the_resume(tmp_path: Path) -> None:
    clock = FakeClock()
    keypad = FakeKeypad()
    service, _panel, speaker = make_service(tmp_path, clock, keypad)

    async def until(done: Callable[[], bool], what: str) -> None:
        for _ in range(50_000):
            if done():
                return
            assert await clock.step()
        raise AssertionError(f"never: {what}")

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(service.run(games=1))

        def speaking() -> bool:
            box = service.box
            return box is not None and box.game.state.phase == "day" \
                and isinstance(box.game.state.current, Speech) and box.performer.idle \
                and box.game.state.window != 0

        await until(speaking, "a day's speech")
        box = service.box
        assert box is not None
        keypad.press("-")  # pause
        await until(lambda: box.game.state.paused, "paused")
        seat, refused, said = box.game.state.speaker, box.refused, len(speaker.said)
        keypad.press(".")  # next speaker: refused while paused
        await until(lambda: len(speaker.said) > said, "an answer to the refused key")
        assert speaker.said[-1][1] == "Not now."
        assert box.refused == refused + 1 and box.game.state.speaker == seat
        keypad.press("-")  # resume
        await until(lambda: not box.game.state.paused, "resumed")
        keypad.press(".")
        await until(lambda: box.game.state.speaker != seat, "the next speaker")
        task.cancel()

    asyncio.run(main())
