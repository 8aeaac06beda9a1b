"""At a judge's table the judge shows a check's answer (read on the judge's page,
narrator/web/judge.py): the cues say so, and no light or screen shows one, not even a
decoy; a table without a judge keeps its answer light."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

from narrator.boxconfig import load_settings
from narrator.clock import FakeClock
from narrator.daemon import Box
from narrator.devices.fake import FakeSeatPanel
from narrator.devices.keypads import FakeKeypad
from narrator.engine.actions import Choose
from narrator.engine.effects import Effect, ShowAnswer
from narrator.engine.tasks import CallOut
from narrator.evening import GameSetup
from narrator.records.session import GameSession
from narrator.sdnotify import Notifier
from narrator.service import Ports, Service
from narrator.voice.fake import FakeSpeaker

WORDS = {"en": "The judge shows you the answer.", "ru": "Ответ покажет судья."}


async def first_night(tmp: Path, lang: str, judge: bool) -> tuple[list[str], list[ShowAnswer],
                                                                   FakeSeatPanel]:
    """Classic's night zero (the angel asks at once), the cards dealt by the box; whoever
    enters the night (the judge's page, or the keypad) asks about seat 1."""
    clock = FakeClock()
    settings = load_settings(None, {"state_dir": str(tmp / "state"), "cache_dir": str(tmp / "cache"),
                                    "keypad": "none"})
    panel = FakeSeatPanel(10, clock)
    service = Service(settings, Ports(FakeSpeaker(clock), panel, [FakeKeypad(clock=clock)]), clock,
                      Notifier(""), setup=GameSetup(rules="classic", lang=lang, deal="phone",
                                                    judge=judge))
    service.evening.next()  # the host asks for the game: nothing starts unasked
    boxes: list[Box] = []
    service.on_box.append(boxes.append)
    shown: list[ShowAnswer] = []
    asked = False

    def heard(_action: object, effects: list[Effect]) -> None:
        shown.extend(e for e in effects if isinstance(e, ShowAnswer))

    task = asyncio.get_running_loop().create_task(service.run(games=1))
    try:
        while not boxes:
            await asyncio.sleep(0)
        box = boxes[0]
        box.listeners.append(heard)
        while box.game.state.phase != "day":
            current = box.game.state.current
            if not asked and isinstance(current, CallOut) and current.step == "angel_ask":
                asked = True
                box.apply_now(Choose(None, 1), "judge" if judge else "keypad")
            if not await clock.step():
                clock.advance(1.0)
        texts = [s.text for s in box.performer.spoken if s.phase == "night-0"]
        return texts, shown, panel
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_judge_shows_the_answer_and_no_light_does(tmp_path: Path, lang: str) -> None:
    texts, shown, panel = asyncio.run(first_night(tmp_path / "judge", lang, judge=True))
    assert shown  # the engine answered the angel...
    assert panel.answers == []  # ...and the answer light showed nothing
    assert any(WORDS[lang] in t for t in texts)
    # The same night without a judge: the light shows it, and the cue names the light.
    texts, shown, panel = asyncio.run(first_night(tmp_path / "table", lang, judge=False))
    assert shown and [a for a, _ in panel.answers] == [s.answer for s in shown]
    assert not any(WORDS[lang] in t for t in texts)


# The keypad's and the pads' words, which a judge's table must never hear at night.
DEVICE_WORDS = {"en": ("keypad", "pad", "Enter"), "ru": ("клавиатур", "кнопк", "Enter")}
TO_THE_JUDGE = {"en": "to the judge", "ru": "судье"}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_judge_s_night_speaks_the_judge_s_words_not_the_keypad_s(tmp_path: Path,
                                                                    lang: str) -> None:
    """Found at a judge's table (issue 33): on a box whose players would type on the
    keypad, the judge's game said "Each of you, type your seat number on the keypad and
    press Enter" and "The sheriff wakes up... Type the number on the keypad", whose keys
    it ignores, and never "The judge shows you the answer". Sport, nights 0 and 1."""

    async def main() -> list[str]:
        clock = FakeClock()
        settings = load_settings(None, {"state_dir": str(tmp_path / "state"),
                                        "cache_dir": str(tmp_path / "cache"), "keypad": "none"})
        service = Service(settings, Ports(FakeSpeaker(clock), None, [FakeKeypad(clock=clock)]),
                          clock, Notifier(""),
                          setup=GameSetup(rules="sport", lang=lang, deal="phone", judge=True))
        service.evening.next()
        boxes: list[Box] = []
        service.on_box.append(boxes.append)
        task = asyncio.get_running_loop().create_task(service.run(games=1))
        try:
            while not boxes:
                await asyncio.sleep(0)
            box = boxes[0]
            session = box.session
            assert isinstance(session, GameSession)
            assert session.header.input == "keypad"  # the table's own: no pads here
            st = box.game.state
            while not box.game.over and not (st.phase == "day" and st.number >= 2):
                if not await clock.step():
                    clock.advance(1.0)
                assert clock.now() < 20_000
                st = box.game.state
            texts = [s.text for s in box.performer.spoken if s.phase.startswith("night")]
            # From the first night's fall: the start-up's "use the keypad" is the day's.
            return texts[next(i for i, t in enumerate(texts) if "night falls" in t
                              or "Наступает" in t):]
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    texts = asyncio.run(main())
    night = " ".join(texts)
    assert TO_THE_JUDGE[lang] in night and WORDS[lang] in night, night
    sheriff = [t for t in texts if "checks a player" in t or "проверяет игрока" in t]
    assert sheriff and all(WORDS[lang] in t for t in sheriff), sheriff
    for word in DEVICE_WORDS[lang]:
        assert word not in night, (word, night)
