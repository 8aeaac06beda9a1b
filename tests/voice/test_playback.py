"""Speech and cue sounds played for real through sounddevice, onto ALSA's file device."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from narrator.voice.cache import WavCache
from narrator.voice.tts import Pyttsx3Renderer
from narrator.voice.voice_config import VoiceSettings
from narrator.voice.wav import Clip, read_wav, write_wav
from tests.voice.conftest import AudioHome


def cached(cache: Path, text: str, lang: str = "en") -> Clip:
    settings = VoiceSettings(language=lang)
    return WavCache(cache, Pyttsx3Renderer(settings.voice_id, settings.rate), lang).clip(text)


def device_output(path: Path) -> np.ndarray:
    return np.fromfile(path, dtype=np.float32)


def test_say_returns_once_the_device_has_every_frame(audio_home: AudioHome) -> None:
    texts = ["Night falls. Everyone, close your eyes.", "three", "seven"]
    result = audio_home.scenario("say", lang="en", texts=texts, volume=0.5)
    assert result["failures"] == 0
    total = 0
    for step in result["steps"]:
        total += step["frames"]
        assert step["out_after"] == total
    assert result["out"] == total + result["tick"]
    # What reached the device is the rendered speech at the configured volume.
    out = device_output(audio_home.out)
    first = cached(audio_home.cache, texts[0]).samples
    assert np.allclose(out[:len(first)], first * 0.5, atol=1e-6)
    assert np.abs(out[-result["tick"]:]).max() > 0.1  # the tick came last


def test_a_failing_device_holds_the_time_and_comes_back(audio_home: AudioHome) -> None:
    result = audio_home.scenario("recover", text="Pause.", device_dir=str(audio_home.flaky))
    first = result["first"]
    assert first["failed"] and first["failures"] >= 1
    # Nothing could be played: the whole clip's time was waited on the clock instead.
    assert first["slept"] == [pytest.approx(result["seconds"], abs=1e-3)]
    assert not result["failed"]
    assert result["slept"] == first["slept"]  # the second time it played
    assert result["device_frames"] == result["frames"]
    assert any("failed" in line for line in result["logs"])
    assert any("is back" in line for line in result["logs"])


def test_ambience_is_mixed_under_speech_and_stops(audio_home: AudioHome) -> None:
    text = "Mafia, go to sleep."
    result = audio_home.scenario("ambience", text=text)
    frames = result["frames"]
    out = device_output(audio_home.out)
    assert len(out) == result["out"] > 2 * frames
    speech = cached(audio_home.cache, text).samples
    # Ambience off: the last clip is the speech alone.
    assert np.allclose(out[-frames:], speech, atol=1e-6)
    # Just before it, after the first clip ended: quiet noise at the ambience's level
    # (RMS 0.25 scaled by 0.2).
    bed = out[-frames - 256:-frames]
    rms = float(np.sqrt(np.mean(bed**2)))
    assert 0.02 < rms < 0.1


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_sport_night_one_sounds_as_long_as_its_timeline(
        audio_home: AudioHome, tmp_path: Path, lang: str) -> None:
    result = audio_home.scenario("night", lang=lang)
    rate = result["rate"]
    audio = device_output(audio_home.out)[result["start_frames"]:]
    assert len(audio) == result["frames"]
    wav = tmp_path / f"night1-{lang}.wav"
    write_wav(wav, Clip(audio, rate))
    heard = read_wav(wav).seconds
    assert heard == pytest.approx(result["timeline_end"], abs=0.05)
    # The estimate the virtual clock uses without rendering stays close to the real thing.
    assert result["estimated_end"] == pytest.approx(heard, rel=0.05)
    spoken = result["spoken"]
    assert [s["cue"] for s in spoken].count("callout") == 30
    for s in spoken:
        start, end = round(s["at"] * rate), round((s["at"] + s["seconds"]) * rate)
        assert np.abs(audio[start:end]).max() > 0.05, s  # speech where the timeline says
        if s["cue"] == "callout":
            # ... and silence in the call-out's beat after it: nothing answers a tap.
            gap = audio[end + rate // 50:end + rate]
            assert np.abs(gap).max() < 1e-4, s
