"""The playback thread under faults: the dawn race, a crash in the mixer, a blocking
device. The device is the fake output stream (the port sounddevice fills for real)."""

from __future__ import annotations

import asyncio
import logging
import os

import numpy as np
import pytest

from narrator.voice.ambience import night_noise
from narrator.voice.fake import FakeOutputStream
from narrator.voice.playback import Player
from narrator.voice.wav import Clip

RATE = 8000
DAWNS = int(os.environ.get("NARRATOR_DAWNS", "10000"))


def tone(frames: int = 700) -> Clip:
    return Clip(np.full(frames, 0.1, dtype=np.float32), RATE)


def player(stream: FakeOutputStream) -> Player:
    return Player(sample_rate=RATE, ambience=night_noise(RATE, 0.5), ambience_volume=0.2,
                  open_stream=lambda **_: stream)


def test_the_callers_thread_never_touches_the_ambience_flag() -> None:
    # The race's root: the flag the mixer reads belongs to the playback thread alone.
    stream = FakeOutputStream(keep=False)
    p = player(stream)
    p.close()  # no thread running: a message just waits in the queue
    p.set_ambience(True)
    assert p._bed_on is False
    p.play(tone()).done.result(timeout=5)
    assert p._bed_on is True  # applied in order, before the clip, by the thread itself
    p.close()


def test_ten_thousand_dawns_with_ambience_play_every_clip() -> None:
    stream = FakeOutputStream(keep=False)
    p = player(stream)
    for _ in range(DAWNS):
        p.set_ambience(True)
        night = p.play(tone(300))
        p.set_ambience(False)  # dawn: the bed stops while the night's last clip is queued
        day = p.play(tone(300))
        assert night.done.result(timeout=5) == 0.0
        assert day.done.result(timeout=5) == 0.0
    assert p.crashes == 0 and p.failures == 0
    p.close()


def test_a_crash_in_the_mixer_is_logged_and_the_thread_restarted(
        caplog: pytest.LogCaptureFixture) -> None:
    stream = FakeOutputStream()
    p = player(stream)
    real = p._chunk
    calls = {"n": 0}

    def broken(*args: object) -> tuple[np.ndarray, int]:
        calls["n"] += 1
        if calls["n"] == 1:
            raise AssertionError("mixer bug")
        return real(*args)  # type: ignore[arg-type]

    p._chunk = broken  # type: ignore[method-assign,assignment]
    with caplog.at_level(logging.ERROR):
        lost = p.play(tone(800)).done.result(timeout=5)
    assert lost == pytest.approx(800 / RATE)  # the speaker holds the clip's time instead
    assert p.play(tone(800)).done.result(timeout=5) == 0.0
    assert p.crashes == 1
    assert any("crashed" in r.getMessage() for r in caplog.records)
    p.close()


def test_a_blocking_device_write_is_given_up_and_the_next_clip_plays() -> None:
    from narrator.voice.pyttsx3_speaker import Pyttsx3Speaker

    stuck = FakeOutputStream(block=True)
    good = FakeOutputStream()
    streams = [stuck, good]
    p = Player(sample_rate=RATE, write_timeout=0.05, open_stream=lambda **_: streams.pop(0))
    speaker = Pyttsx3Speaker.__new__(Pyttsx3Speaker)
    speaker.player, speaker.hold_time, speaker.last = p, False, None

    async def main() -> None:
        await speaker._play(tone(80))  # 10 ms of sound, stuck for ever in the device
        assert p.failed
        await speaker._play(tone(80))

    asyncio.run(asyncio.wait_for(main(), 5))
    assert stuck.blocked.is_set()
    assert good.frames == 80
    stuck.release.set()  # the old thread wakes, sees it was abandoned, and leaves quietly
    p.close()
    assert good.frames == 80
