"""The listen bench measures latency from the last sound of the command, not from the end
of the synthesizer's recording (which carries up to 0.3 s of its own silence)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from narrator.voice.listen_clips import SAMPLE_RATE, ClipSpec, read_wav, speak_all, speech_end


def test_the_speech_ends_at_its_last_sound_before_the_pad(tmp_path: Path) -> None:
    spec = ClipSpec("next speaker", "en-us", noise=0.0)
    samples = np.abs(read_wav(speak_all([spec], tmp_path)[0]).astype(np.float64))
    end = speech_end(spec)
    pad_starts = len(samples) / SAMPLE_RATE - spec.tail
    assert spec.lead < end < pad_starts  # espeak-ng ends its recording with silence
    cut = int(end * SAMPLE_RATE)
    peak = samples.max()
    assert samples[cut - SAMPLE_RATE // 100:cut].max() > 0.01 * peak  # sound just before
    assert samples[cut + 10:].max() < 0.01 * peak  # and none after it
