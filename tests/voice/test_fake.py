"""FakeSpeaker and the spoken-length estimate that the virtual clock relies on."""

from __future__ import annotations

import asyncio

import pytest

from narrator.clock import FakeClock
from narrator.engine.timeline import SOUND_SECONDS
from narrator.voice.estimate import estimate_seconds
from narrator.voice.fake import FakeSpeaker


def test_the_fake_takes_its_time_on_the_clock() -> None:
    async def scene() -> FakeSpeaker:
        clock = FakeClock()
        speaker = FakeSpeaker(clock, "ru")

        async def night() -> None:
            await speaker.sound("gong")
            speaker.ambience(True)
            await speaker.say("Наступает ночь. Все закрывают глаза.")
            await speaker.say("Мафия засыпает.")

        task = asyncio.create_task(night())
        await clock.run_until_idle()
        assert task.done()
        return speaker

    speaker = asyncio.run(scene())
    first = SOUND_SECONDS["gong"]
    second = first + estimate_seconds("Наступает ночь. Все закрывают глаза.", "ru")
    assert speaker.sounds == [(0.0, "gong")]
    assert speaker.ambience_changes == [(first, True)]
    assert speaker.said == [(first, "Наступает ночь. Все закрывают глаза."),
                            (pytest.approx(second), "Мафия засыпает.")]


def test_unknown_sound() -> None:
    with pytest.raises(ValueError, match="no cue sound 'bell'"):
        asyncio.run(FakeSpeaker(FakeClock()).sound("bell"))


def test_prepare_counts_new_texts() -> None:
    speaker = FakeSpeaker(FakeClock())
    assert speaker.prepare(["a", "b", "a"]) == 2
    assert speaker.prepare(["b", "c"]) == 1


def test_estimate_is_deterministic_and_grows_with_the_text() -> None:
    short, long = "three", "Player number three, name three players as your best move."
    assert estimate_seconds(short) == estimate_seconds(short)
    assert 0.3 < estimate_seconds(short) < estimate_seconds(long) < 8
    assert estimate_seconds("") == 0.0
    # Slower speech, longer time.
    assert estimate_seconds(long, rate=80) == pytest.approx(2 * estimate_seconds(long), abs=0.002)


@pytest.mark.parametrize(("lang", "rate"), [("de", 160), ("en", 0)])
def test_estimate_refuses_what_it_cannot_know(lang: str, rate: int) -> None:
    with pytest.raises(ValueError):
        estimate_seconds("three", lang, rate)
