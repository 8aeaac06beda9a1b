"""Clips: mono audio held as float32 samples in -1..1, read from and written to 16-bit WAVs."""

from __future__ import annotations

import contextlib
import os
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from narrator.errors import DeviceError

Samples = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True, eq=False)
class Clip:
    samples: Samples
    rate: int

    @property
    def frames(self) -> int:
        return int(self.samples.shape[0])

    @property
    def seconds(self) -> float:
        return self.frames / self.rate

    def at_rate(self, rate: int) -> Clip:
        """The clip resampled (linearly: cue sounds and speech, not music) to `rate`."""
        if rate == self.rate or self.frames == 0:
            return self if rate == self.rate else Clip(self.samples, rate)
        frames = round(self.frames * rate / self.rate)
        where = np.arange(frames, dtype=np.float64) * (self.rate / rate)
        resampled = np.interp(where, np.arange(self.frames), self.samples)
        return Clip(resampled.astype(np.float32), rate)

    @classmethod
    def silence(cls, seconds: float, rate: int) -> Clip:
        return cls(np.zeros(round(seconds * rate), dtype=np.float32), rate)


def read_wav(path: Path) -> Clip:
    """A 16-bit PCM WAV (mono, or its first channel). Raises OSError/wave.Error/EOFError."""
    with wave.open(str(path), "rb") as w:
        if w.getsampwidth() != 2:
            raise wave.Error(f"{path}: expected 16-bit samples, got {8 * w.getsampwidth()}-bit")
        channels, rate = w.getnchannels(), w.getframerate()
        data = w.readframes(w.getnframes())
    samples = np.frombuffer(data, dtype="<i2")
    if channels > 1:
        samples = samples[::channels]
    return Clip((samples.astype(np.float32) / 32768.0), rate)


def write_wav(path: Path, clip: Clip) -> None:
    """Written to a temporary name first, so a reader never sees half a file."""
    pcm = np.clip(np.round(clip.samples * 32767.0), -32768, 32767).astype("<i2")
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with wave.open(str(tmp), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(clip.rate)
        w.writeframes(pcm.tobytes())
    os.replace(tmp, path)


def check_rendered(path: Path, problem: str) -> None:
    """A renderer's output has frames, or it is deleted and `problem` raised: a voice that
    exits without writing must not leave an empty clip in the cache."""
    try:
        with wave.open(str(path), "rb") as w:
            ok = w.getnframes() > 0
    except (OSError, wave.Error, EOFError):
        ok = False
    if not ok:
        with contextlib.suppress(OSError):
            path.unlink()
        raise DeviceError(problem)
