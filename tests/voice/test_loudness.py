"""Loudness (BS.1770) and the one level every clip is played at."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from narrator.phrases.book import PhraseBook
from narrator.phrases.variants import likely_texts
from narrator.rules.loader import load_bundled
from narrator.voice.cache import WavCache
from narrator.voice.loudness import PEAK_LIMIT, TARGET_LUFS, loudness, normalised, spread
from narrator.voice.sounds import SoundBank
from narrator.voice.speaker import SOUND_NAMES
from narrator.voice.tts import Pyttsx3Renderer
from narrator.voice.voice_config import SOUNDS_DIR
from narrator.voice.wav import Clip, read_wav


def _sine(hz: float, amplitude: float, seconds: float = 2.0, rate: int = 48000) -> Clip:
    t = np.arange(int(seconds * rate)) / rate
    return Clip((amplitude * np.sin(2 * np.pi * hz * t)).astype(np.float32), rate)


@pytest.mark.parametrize("rate", [16000, 22050, 24000, 48000])
def test_a_full_scale_997_hz_sine_is_minus_3_01_lufs(rate: int) -> None:
    # BS.1770-4's own calibration: a 0 dBFS 997 Hz sine in one channel reads -3.01 LKFS.
    assert loudness(_sine(997, 1.0, rate=rate)) == pytest.approx(-3.01, abs=0.05)


def test_k_weighting_cuts_the_lows_and_lifts_the_highs() -> None:
    mid = loudness(_sine(1000, 0.5))
    assert loudness(_sine(20, 0.5)) < mid - 10  # the RLB high-pass
    # The shelf (+4 dB at the top) stands at about +3.3 dB by 8 kHz.
    assert loudness(_sine(8000, 0.5)) == pytest.approx(mid + 3.3, abs=0.2)


def test_silence_is_gated_out() -> None:
    tone = _sine(1000, 0.3)
    padded = Clip(np.concatenate([tone.samples, np.zeros(2 * tone.rate, np.float32)]), tone.rate)
    # (blocks across the edge still count, a little quieter)
    assert loudness(padded) == pytest.approx(loudness(tone), abs=0.5)
    quiet = Clip(np.zeros(48000, np.float32), 48000)
    assert loudness(quiet) == -np.inf
    assert normalised(quiet) is quiet


def test_normalised_clips_reach_the_target_and_never_clip() -> None:
    for clip in (_sine(440, 0.01), _sine(3000, 0.9), _sine(1000, 0.5, seconds=0.1)):
        out = normalised(clip)
        assert loudness(out) == pytest.approx(TARGET_LUFS, abs=0.3)
        assert float(np.abs(out.samples).max()) <= PEAK_LIMIT


def test_the_cue_sounds_play_at_the_speech_level() -> None:
    bank = SoundBank(SOUNDS_DIR)
    levels = [loudness(bank.clip(name)) for name in SOUND_NAMES]
    assert all(abs(level - TARGET_LUFS) <= 1.0 for level in levels), levels


def test_english_cue_clips_of_one_voice_are_within_one_lu(voice_cache: Path) -> None:
    # A spread of the sport set's English cues: short callouts to long night cues.
    texts = list(likely_texts(PhraseBook.load("en"), load_bundled("sport")))
    sample = list(itertools.islice(texts, 0, None, len(texts) // 12))
    renderer = Pyttsx3Renderer("gmw/en-us", 170)
    cache = WavCache(voice_cache / "loudness", renderer, "en")
    levels = [loudness(cache.clip(text)) for text in sample]
    assert len(levels) >= 12
    assert all(abs(level - TARGET_LUFS) <= 1.0 for level in levels), levels
    assert spread(levels) <= 1.0
    # What is stored on disk is the normalised clip (a later start reads it as is).
    stored = read_wav(cache.path_for(sample[-1]))
    assert loudness(stored) == pytest.approx(TARGET_LUFS, abs=0.1)
