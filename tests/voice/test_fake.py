"""FakeSpeaker and the spoken-length estimate that the virtual clock relies on."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from narrator.clock import FakeClock
from narrator.engine.timeline import SOUND_SECONDS
from narrator.errors import DeviceError
from narrator.voice.estimate import estimate_seconds
from narrator.voice.fake import FakeSpeaker
from narrator.voice.voice_config import VoiceSettings


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


class BrokenRenderer:
    key = "broken"

    def render(self, text: str, path: Path) -> None:
        raise DeviceError("espeak-ng is gone")


def test_a_failed_render_keeps_the_game_and_its_timing(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from narrator.voice.pyttsx3_speaker import Pyttsx3Speaker

    async def scene() -> float:
        clock = FakeClock()
        speaker = Pyttsx3Speaker(VoiceSettings(cache_dir=tmp_path, sounds_dir=tmp_path),
                                 clock, renderer=BrokenRenderer())
        for job in (speaker.say("Mafia, go to sleep."), speaker.sound("gong")):  # no sounds/
            task = asyncio.create_task(job)
            while not task.done():  # the render runs in a thread: let it come back
                await asyncio.sleep(0)
                await clock.run_until_idle()
        return clock.now()

    assert asyncio.run(scene()) == pytest.approx(
        estimate_seconds("Mafia, go to sleep.") + SOUND_SECONDS["gong"])
    assert "espeak-ng is gone" in caplog.text


class HangingRenderer:
    """The speech engine's child hangs mid-cue (stopped, or stuck in a driver): the render
    never comes back until released."""

    key = "hanging"

    def __init__(self) -> None:
        import threading

        self.release = threading.Event()

    def render(self, text: str, path: Path) -> None:
        self.release.wait(30)
        raise DeviceError("released")


def test_a_hung_speech_engine_costs_the_cue_not_the_game(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Before, the cue waited for the child's own time limit (70 s for espeak-ng, once per
    retry): the table sat in silence and the watchdog could restart the box. Now the
    speaker waits `render_wait` (real time: it watches the engine), then holds the cue's
    time on the game's clock and goes on; the page shows the cue meanwhile."""
    from narrator.voice.pyttsx3_speaker import Pyttsx3Speaker

    renderer = HangingRenderer()

    async def scene() -> float:
        clock = FakeClock()
        speaker = Pyttsx3Speaker(VoiceSettings(cache_dir=tmp_path, sounds_dir=tmp_path),
                                 clock, renderer=renderer)
        speaker.render_wait = 0.05
        task = asyncio.create_task(speaker.say("Mafia, go to sleep."))
        while not task.done():
            await asyncio.sleep(0.001)  # the render's time limit is real time
            await clock.run_until_idle()
        return clock.now()

    try:
        held = asyncio.run(asyncio.wait_for(scene(), 10))
    finally:
        renderer.release.set()
    assert held == pytest.approx(estimate_seconds("Mafia, go to sleep."))
    assert "the speech engine gave no clip" in caplog.text


class SilentRenderer:
    """Renders nothing itself: the cache's own folder fails first (a full card)."""

    key = "silent"

    def render(self, text: str, path: Path) -> None:
        raise AssertionError("not reached: the cache's folder cannot be made")


def test_a_speech_cache_on_a_card_that_refuses_it_holds_the_cue_time(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The speech cache lives on the same card: when it refuses the rendered clip (full,
    read-only) the cue's time is held like any other failed cue. Before, the OSError
    reached the performer, which went on at once: a night shorter than the script."""
    from narrator.voice.pyttsx3_speaker import Pyttsx3Speaker

    card = tmp_path / "cache"
    card.write_text("the card refuses this folder")

    async def scene() -> float:
        clock = FakeClock()
        speaker = Pyttsx3Speaker(VoiceSettings(cache_dir=card, sounds_dir=tmp_path), clock,
                                 renderer=SilentRenderer())
        task = asyncio.create_task(speaker.say("Mafia, go to sleep."))
        while not task.done():
            await asyncio.sleep(0.001)  # the render runs in a thread
            await clock.run_until_idle()
        task.result()
        return clock.now()

    assert asyncio.run(asyncio.wait_for(scene(), 10)) == pytest.approx(
        estimate_seconds("Mafia, go to sleep."))
    assert "the speech engine gave no clip" in caplog.text
