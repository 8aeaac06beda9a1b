"""Synthesise the cue sounds in sounds/: gong (night), chime (morning), tick (the last ten
seconds), beat (the call-out's pulse). Our own synthesis with numpy, 16 kHz 16-bit mono
(small files; the player resamples), lengths as the timeline expects them.

Run: scripts/make-sounds [FOLDER]
"""

from __future__ import annotations

import sys
import wave
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

RATE = 16000
Wave = npt.NDArray[np.float64]
# Kept in step with narrator.engine.timeline.SOUND_SECONDS (a test checks it).
SECONDS = {"gong": 2.5, "chime": 1.5, "tick": 0.2, "beat": 0.15}


def _t(seconds: float) -> Wave:
    return np.arange(round(seconds * RATE)) / RATE


def _partials(t: Wave, base: float, ratios: Sequence[float], amps: Sequence[float],
              decays: Sequence[float]) -> Wave:
    out = np.zeros_like(t)
    for ratio, amp, decay in zip(ratios, amps, decays, strict=True):
        out += amp * np.sin(2 * np.pi * base * ratio * t) * np.exp(-t / decay)
    return out


def _envelope(x: Wave, attack: float, release: float) -> Wave:
    """Soft edges: no click at the start, silence exactly at the end."""
    n_a, n_r = max(1, round(attack * RATE)), max(1, round(release * RATE))
    env = np.ones_like(x)
    env[:n_a] = np.linspace(0, 1, n_a)
    env[-n_r:] = np.linspace(1, 0, n_r) ** 2
    return x * env


def gong(seconds: float) -> Wave:
    t = _t(seconds)
    # Inharmonic partials decaying at different speeds, with a slight downward bend.
    bend = 1 - 0.004 * (1 - np.exp(-t / 0.3))
    x = _partials(t * bend, 165.0, (1.0, 1.52, 2.11, 2.68, 3.33, 4.12),
                  (1.0, 0.6, 0.45, 0.3, 0.2, 0.12), (1.6, 1.1, 0.8, 0.55, 0.4, 0.25))
    return _envelope(x, 0.008, 0.4)


def chime(seconds: float) -> Wave:
    t = _t(seconds)
    ratios, amps, decays = (1.0, 2.76, 5.40), (1.0, 0.35, 0.12), (0.6, 0.3, 0.15)
    first = _partials(t, 1046.5, ratios, amps, decays)  # C6
    later = t - 0.18
    onset = np.clip(later / 0.003, 0, 1)  # a soft strike: an abrupt one clicks
    second = onset * _partials(np.maximum(later, 0), 1318.5, ratios, amps, decays)  # E6
    return _envelope(first + second, 0.003, 0.2)


def tick(seconds: float) -> Wave:
    t = _t(seconds)
    x = np.sin(2 * np.pi * 1900 * t) * np.exp(-t / 0.006) + 0.4 * np.sin(
        2 * np.pi * 3100 * t) * np.exp(-t / 0.003)
    return _envelope(x, 0.0005, 0.05)


def beat(seconds: float) -> Wave:
    t = _t(seconds)
    # A soft thump: a low sine whose pitch falls quickly.
    freq = 70 + 50 * np.exp(-t / 0.02)
    phase = 2 * np.pi * np.cumsum(freq) / RATE
    return _envelope(np.sin(phase) * np.exp(-t / 0.045), 0.002, 0.04)


SYNTHS: dict[str, Callable[[float], Wave]] = {
    "gong": gong, "chime": chime, "tick": tick, "beat": beat,
}
PEAKS = {"gong": 0.7, "chime": 0.5, "tick": 0.45, "beat": 0.6}


def write(path: Path, x: Wave, peak: float) -> None:
    x = x * (peak / max(float(np.max(np.abs(x))), 1e-9))
    pcm = np.round(x * 32767).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm.tobytes())


def main(argv: Sequence[str]) -> int:
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / "sounds"
    folder.mkdir(parents=True, exist_ok=True)
    for name, synth in SYNTHS.items():
        path = folder / f"{name}.wav"
        write(path, synth(SECONDS[name]), PEAKS[name])
        print(f"{path} {SECONDS[name]} s, {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
