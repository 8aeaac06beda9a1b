"""After a power cut the organiser's page has forgotten its sessions: its address and PIN
are said again, but never into the night. A game resumed at night keeps to the night
script and says them once the table has woken ("Good morning. Day N."); a game resumed in
the day says them at once (eyes are open, the table is waiting for the box anyway)."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from narrator.box.referee import Box
from narrator.clock import FakeClock
from narrator.engine.effects import Say
from narrator.engine.state import State
from tests.box.test_resume_recall import make_service

ADDRESS = Say("web_page", {"address": "ten dot zero dot zero dot seven", "port": 8080})


def cut_when(tmp_path: Path, where: str) -> None:
    """Play a sport game until `where` ("night": night 1's sheriff; "day": day 1's first
    speech), then pull the plug."""

    def reached(st: State) -> bool:
        if where == "night":
            return st.phase == "night" and st.number == 1 and st.current is not None \
                and getattr(st.current, "step", "") == "sheriff_check"
        return st.phase == "day" and st.number == 1 and type(st.current).__name__ == "Speech"

    async def main() -> None:
        clock = FakeClock()
        service, _ = make_service(tmp_path, clock, "en", [])
        service.announce.append(ADDRESS)
        task = asyncio.get_running_loop().create_task(service.run(games=1))
        for _ in range(200_000):
            if service.box is not None and reached(service.box.game.state):
                break
            if not await clock.step():
                await asyncio.sleep(0)
        else:
            raise AssertionError(f"the game never reached the {where}")
        task.cancel()  # the power cord is kicked
        with contextlib.suppress(asyncio.CancelledError):
            await task

    asyncio.run(main())


def resume_until_day_speech(tmp_path: Path) -> Box:
    async def main() -> Box:
        clock = FakeClock()
        service, _ = make_service(tmp_path, clock, "en", [])
        service.announce.append(ADDRESS)
        boxes: list[Box] = []
        service.on_box.append(boxes.append)
        task = asyncio.get_running_loop().create_task(service.run(games=1))
        for _ in range(200_000):
            if boxes and boxes[0].game.state.phase == "day" and boxes[0].performer.idle \
                    and type(boxes[0].game.state.current).__name__ == "Speech":
                break
            if not await clock.step():
                await asyncio.sleep(0)
        else:
            raise AssertionError("the resumed game never reached a day's speech")
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return boxes[0]

    return asyncio.run(main())


def test_a_night_resume_keeps_the_address_for_the_morning(tmp_path: Path) -> None:
    cut_when(tmp_path, "night")
    box = resume_until_day_speech(tmp_path)
    spoken = box.performer.spoken
    cues = [s.cue for s in spoken]
    assert cues.count("web_page") == 1, cues
    said = cues.index("web_page")
    # Nothing but the night script at night: the morning comes first, then the address.
    assert not [s for s in spoken[:said] if s.cue == "web_page"]
    assert spoken[said].phase == "day-2"  # night 1 ended: the second day
    assert cues[said - 1] == "morning", cues[said - 3:said + 2]
    assert all(s.phase.startswith("night") for s in spoken[cues.index("status_night"):said - 1])


def test_a_day_resume_says_the_address_at_once(tmp_path: Path) -> None:
    cut_when(tmp_path, "day")
    box = resume_until_day_speech(tmp_path)
    cues = [s.cue for s in box.performer.spoken]
    assert cues.count("web_page") == 1, cues
    assert cues.index("web_page") < cues.index("status_speaker")
