"""The utterance levels kept chunk by chunk (SpeechLevels) give exactly what the whole
utterance's computation gives: levels, peak, loud stretch; and the recogniser's tracked
calls give what its whole-utterance ones would, on real speech in microphone chunks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import narrator.voice.recognizer_pocketsphinx as rp
from narrator.voice.commands import CommandSet
from narrator.voice.listen_clips import ClipSpec, read_wav, speak_all
from narrator.voice.pocketsphinx_settings import TRIM_PAD
from narrator.voice.recognizer import chunked
from narrator.voice.speech_levels import SpeechLevels, bounds, levels, loud_bounds, peak_level
from tests.listen.conftest import TALK


def _speechlike(rng: np.random.Generator) -> bytes:
    """Noise with bursts of every loudness, some at full scale, any length (odd bytes too)."""
    length = int(rng.integers(0, 16000 * 3))
    x = rng.normal(0, 40, length)
    for _ in range(int(rng.integers(0, 8))):
        a = int(rng.integers(0, max(1, length)))
        b = a + int(rng.integers(100, 16000))
        x[a:b] += rng.normal(0, float(rng.choice([200, 1000, 5000, 15000])), len(x[a:b]))
    audio = np.clip(x, -32768, 32767).astype("<i2").tobytes()
    return audio + b"\x01" if rng.random() < 0.3 else audio


def _same_as_whole(tracked: SpeechLevels, audio: bytes, trim_db: float) -> None:
    tracked.update(audio)
    whole = levels(audio)
    assert np.array_equal(tracked.levels(), whole)
    if len(whole):
        assert tracked.peak == float(whole.max())
        assert tracked.recent(3) == float(whole[-3:].max())
        assert tracked.loud(trim_db) == bounds(whole, trim_db)


@pytest.mark.parametrize("seed", range(4))
def test_tracked_levels_are_the_whole_computation_on_random_audio(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(25):
        audio = _speechlike(rng)
        trim_db = float(rng.choice([6.0, 15.0, 30.0]))
        tracked, at = SpeechLevels(), 0
        while at < len(audio):
            # any chunk size, frames split anywhere, a single byte at a time too
            at += int(rng.choice([1, 3, 320, 958, 960, 3200, 5001]))
            _same_as_whole(tracked, audio[:at], trim_db)


def test_a_shorter_utterance_starts_over() -> None:
    rng = np.random.default_rng(9)
    first, second = _speechlike(rng) + bytes(32000), _speechlike(rng)
    tracked = SpeechLevels()
    _same_as_whole(tracked, first, 15.0)
    _same_as_whole(tracked, second, 15.0)
    tracked.reset()
    _same_as_whole(tracked, first[:4000], 15.0)


def test_the_recognizer_tracks_the_whole_computation_on_real_speech(
        clips: Path, english: CommandSet, monkeypatch: pytest.MonkeyPatch) -> None:
    # Commands, talk running on under a command, talk after a command (the run-on's peak):
    # every loud stretch and peak the recogniser takes from its tracked levels, chunk by
    # chunk, is the one computed over the whole utterance so far.
    specs = [ClipSpec("start voting", "en-us", tail=0.1),
             ClipSpec(TALK[1] + " " + TALK[3], "en-gb+f2", lead=0.0),
             ClipSpec("i nominate player number seven", "en-gb"), ClipSpec(TALK[8], "en-us+f3")]
    command, talk, nominate, pause = (read_wav(p) for p in speak_all(specs, clips))
    under = (talk.astype(np.float64) * 0.2).astype(np.int16)
    audio = np.concatenate([command, under, nominate, pause]).tobytes()
    whole_bounds, whole_peak = loud_bounds, peak_level
    calls: list[tuple[str, bool]] = []

    def checked_bounds(speech: bytes, trim_db: float | None, pad: float = TRIM_PAD,
                       end_pad: float | None = None,
                       tracked: SpeechLevels | None = None) -> tuple[int, int]:
        got = whole_bounds(speech, trim_db, pad, end_pad, tracked)
        if tracked is not None:
            calls.append(("bounds", got == whole_bounds(bytes(speech), trim_db, pad, end_pad)))
        return got

    def checked_peak(speech: bytes | bytearray, tracked: SpeechLevels | None = None) -> float:
        got = whole_peak(speech, tracked)
        if tracked is not None:
            calls.append(("peak", got == whole_peak(bytes(speech))))
        return got

    monkeypatch.setattr(rp, "loud_bounds", checked_bounds)
    monkeypatch.setattr(rp, "peak_level", checked_peak)
    recognizer = rp.PocketsphinxRecognizer(english)
    got = [c.command for chunk in chunked(audio) for c in recognizer.accept(chunk)]
    got += [c.command for c in recognizer.flush()]
    assert "start_voting" in got
    kinds = {kind for kind, _ in calls}
    wrong = [kind for kind, same in calls if not same]
    assert len(calls) > 100 and kinds == {"bounds", "peak"} and not wrong, (len(calls), wrong)
