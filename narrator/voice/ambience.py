"""Night ambience: quiet, soft noise that masks the rustle of people tapping their pads.

It is the same all night long, whoever acts: it covers sounds, it never carries any.
"""

from __future__ import annotations

import numpy as np

from narrator.voice.wav import Samples


def night_noise(rate: int, seconds: float = 4.0, seed: int = 7) -> Samples:
    """A seamless loop of brownish noise at RMS 0.25 (scaled by the ambience volume)."""
    frames = round(rate * seconds)
    white = np.random.default_rng(seed).standard_normal(frames)
    # Low-pass in the frequency domain: a circular filter, so the loop has no seam.
    spectrum = np.fft.rfft(white)
    freqs = np.fft.rfftfreq(frames, 1 / rate)
    spectrum *= 1 / np.sqrt(1 + (freqs / 400.0) ** 2)
    spectrum[0] = 0
    noise = np.fft.irfft(spectrum, frames)
    noise *= 0.25 / max(float(np.sqrt(np.mean(noise**2))), 1e-9)
    return np.clip(noise, -1, 1).astype(np.float32)
