"""Spoken clips for testing and measuring the listening side: espeak-ng speaks, sox
resamples to 16 kHz mono, and a little seeded noise is added (pure digital silence
confuses voice-activity detection and recognizers alike).

Used by tests/listen and by `narrator bench --only listen`; nothing here runs on the box.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
import wave
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from narrator.errors import DeviceError

SAMPLE_RATE = 16000

# Voices that cover two accents, male and female, slow and quick speakers.
ENGLISH_VOICES: tuple[str, ...] = (
    "en-us", "en-gb", "en-us+f3", "en-gb+f2", "en-us+m3", "en-gb-scotland", "en-029+f4",
    "en-gb-x-rp",
)


@dataclass(frozen=True, slots=True)
class ClipSpec:
    text: str
    voice: str
    speed: int = 160            # espeak-ng words per minute
    lead: float = 0.4           # seconds of noise before the speech
    tail: float = 0.8           # and after it
    noise: float = 40.0         # noise amplitude (int16 standard deviation)

    def key(self) -> str:
        raw = f"{self.text}|{self.voice}|{self.speed}|{self.lead}|{self.tail}|{self.noise}"
        return hashlib.sha1(raw.encode()).hexdigest()[:16]


def require_tools() -> None:
    for tool in ("espeak-ng", "sox"):
        if shutil.which(tool) is None:
            raise DeviceError(f"{tool} is not installed (scripts/setup installs it)")


def speak(spec: ClipSpec, out: Path) -> Path:
    """Write one clip as a 16 kHz mono int16 WAV at `out`."""
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "espeak.wav"
        mono = Path(tmp) / "mono.wav"
        subprocess.run(
            ["espeak-ng", "-v", spec.voice, "-s", str(spec.speed), "-w", str(raw), spec.text],
            check=True, capture_output=True,
        )
        subprocess.run(
            ["sox", str(raw), "-r", str(SAMPLE_RATE), "-c", "1", "-b", "16", "-e",
             "signed-integer", str(mono), "pad", str(spec.lead), str(spec.tail)],
            check=True, capture_output=True,
        )
        samples = read_wav(mono)
    seed = int(spec.key()[:8], 16)
    noise = np.random.default_rng(seed).normal(0.0, spec.noise, samples.shape)
    mixed = np.clip(samples.astype(np.float64) + noise, -32768, 32767).astype(np.int16)
    write_wav(out, mixed)
    return out


def speak_all(specs: Iterable[ClipSpec], folder: Path, workers: int = 4) -> list[Path]:
    """Write many clips into `folder` (named by content, so re-runs reuse them)."""
    require_tools()
    folder.mkdir(parents=True, exist_ok=True)
    todo = list(specs)
    paths = [folder / f"{spec.key()}.wav" for spec in todo]

    def one(item: tuple[ClipSpec, Path]) -> Path:
        spec, path = item
        return path if path.exists() else speak(spec, path)

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(one, zip(todo, paths, strict=True)))


def read_wav(path: Path) -> np.ndarray:
    with wave.open(str(path), "rb") as w:
        if w.getsampwidth() != 2 or w.getnchannels() != 1:
            raise ValueError(f"{path}: not 16-bit mono")
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").copy()


def write_wav(path: Path, samples: np.ndarray, rate: int = SAMPLE_RATE) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(samples.astype("<i2").tobytes())


def concatenate(paths: Sequence[Path], out: Path, gap: float = 0.0, seed: int = 0) -> Path:
    """Join clips into one recording, with `gap` seconds of noise between them."""
    rng = np.random.default_rng(seed)
    parts: list[np.ndarray] = []
    for path in paths:
        parts.append(read_wav(path))
        if gap > 0:
            parts.append(rng.normal(0.0, 40.0, int(gap * SAMPLE_RATE)).astype(np.int16))
    write_wav(out, np.concatenate(parts) if parts else np.zeros(0, np.int16))
    return out
