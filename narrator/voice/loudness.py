"""Loudness (ITU-R BS.1770-4, mono) and normalisation to one target.

Every clip the box plays (speech of any voice, recorded packs, cue sounds) is brought to
TARGET_LUFS, so no cue, seat number or voice sounds louder than another: a listener could
otherwise tell a rendered name from a recorded one, or a prepared cue from a late one.

Own implementation on numpy, so the box needs no scipy: the K-weighting filter (a high
shelf and the RLB high-pass, BS.1770's two biquads, derived for any sample rate) is applied
as its impulse response, which dies out within a few tens of milliseconds, by FFT
convolution; then gated 400 ms blocks with 75 % overlap (absolute gate -70 LUFS,
relative gate -10 LU). A clip shorter than one block is measured as one block.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from narrator.voice.wav import Clip, Samples

# About espeak-ng's own level (so the box is as loud as it was); speech peaks stay near -2.5 dBFS.
TARGET_LUFS = -21.0
PEAK_LIMIT = 0.98  # a clip is never driven past this (a click, not speech, would be)
VERSION = "bs1770-1"  # part of cache keys: a change here re-renders every clip
_SILENT = -70.0


def _biquad(b: tuple[float, float, float], a: tuple[float, float, float],
            x: list[float]) -> list[float]:
    y: list[float] = []
    x1 = x2 = y1 = y2 = 0.0
    for v in x:
        out = b[0] * v + b[1] * x1 + b[2] * x2 - a[1] * y1 - a[2] * y2
        x2, x1, y2, y1 = x1, v, y1, out
        y.append(out)
    return y


@cache
def _k_weighting(rate: int) -> np.ndarray:
    """The K-weighting filter's impulse response at `rate` (both stages)."""
    # Stage 1: the head's high shelf (+4 dB above ~1.7 kHz).
    k = math.tan(math.pi * 1681.974450955533 / rate)
    q = 0.7071752369554196
    vh = 10 ** (3.999843853973347 / 20)
    vb = vh ** 0.4996667741545416
    a0 = 1 + k / q + k * k
    shelf_b = ((vh + vb * k / q + k * k) / a0, 2 * (k * k - vh) / a0, (vh - vb * k / q + k * k) / a0)
    shelf_a = (1.0, 2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0)
    # Stage 2: the RLB high-pass (~38 Hz).
    k = math.tan(math.pi * 38.13547087602444 / rate)
    q = 0.5003270373238773
    a0 = 1 + k / q + k * k
    hp_b = (1.0, -2.0, 1.0)
    hp_a = (1.0, 2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0)
    taps = max(256, int(rate * 0.25))  # the high-pass rings longest; 250 ms is far below 1e-6
    impulse = [1.0] + [0.0] * (taps - 1)
    return np.asarray(_biquad(hp_b, hp_a, _biquad(shelf_b, shelf_a, impulse)), dtype=np.float64)


def _weighted(samples: Samples, rate: int) -> np.ndarray:
    h = _k_weighting(rate)
    x = samples.astype(np.float64)
    n = x.shape[0] + h.shape[0] - 1
    size = 1 << (n - 1).bit_length()
    y = np.fft.irfft(np.fft.rfft(x, size) * np.fft.rfft(h, size), size)
    return y[: x.shape[0]]


def loudness(clip: Clip) -> float:
    """Integrated loudness in LUFS; -70 or less for silence."""
    if clip.frames == 0:
        return -math.inf
    y = _weighted(clip.samples, clip.rate)
    block = round(0.4 * clip.rate)
    if y.shape[0] <= block:
        powers = np.array([float(np.mean(y * y))])
    else:
        step = block // 4
        squares = np.concatenate(([0.0], np.cumsum(y * y)))
        starts = np.arange(0, y.shape[0] - block + 1, step)
        powers = (squares[starts + block] - squares[starts]) / block
    with np.errstate(divide="ignore"):
        levels = -0.691 + 10 * np.log10(powers)
    kept = powers[levels > _SILENT]
    if kept.size == 0:
        return -math.inf
    relative = -0.691 + 10 * math.log10(float(np.mean(kept))) - 10.0
    kept = powers[(levels > _SILENT) & (levels > relative)]
    return -0.691 + 10 * math.log10(float(np.mean(kept)))


def normalised(clip: Clip, target: float = TARGET_LUFS) -> Clip:
    """The clip at `target` loudness. Silence stays silence; peaks are softly limited."""
    level = loudness(clip)
    if not math.isfinite(level) or level <= _SILENT:
        return clip
    gain = 10 ** ((target - level) / 20)
    samples = clip.samples.astype(np.float64) * gain
    peak = float(np.max(np.abs(samples))) if samples.size else 0.0
    if peak > PEAK_LIMIT:
        # Only peaks past the knee are bent (tanh): speech at the target never gets here,
        # a short sharp cue sound may.
        knee = PEAK_LIMIT * 0.8
        over = np.abs(samples) > knee
        room = PEAK_LIMIT - knee
        bent = knee + room * np.tanh((np.abs(samples[over]) - knee) / room)
        samples[over] = np.sign(samples[over]) * bent
    return Clip(samples.astype(np.float32), clip.rate)


def spread(levels: list[float]) -> float:
    """Largest minus smallest loudness (LU) of the audible ones."""
    audible = [v for v in levels if math.isfinite(v)]
    return max(audible) - min(audible) if audible else 0.0
