"""Spoken clips for testing and measuring the listening side: a synthesizer speaks
(espeak-ng, or flite / festival for voices the recognizer was never tuned on), sox
resamples to 16 kHz mono and can add room reverb, babble (other voices talking) can be
mixed under it, and a little seeded noise is added (pure digital silence confuses
voice-activity detection and recognizers alike).

A voice is "name" (an espeak-ng voice), "flite:NAME" or "festival:NAME".

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
from functools import lru_cache
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
    reverb: int = 0             # sox reverb amount, 0-100 (0: a dry recording)
    babble: float = 0.0         # babble level against the speech (0: none; 0.3: 10 dB under)
    # A table: the babble is other voices in the same room (reverberated as the speaker
    # is), its level against the voice's own recording (babble 0.25: 12 dB SNR).
    table: bool = False

    def key(self) -> str:
        raw = f"{self.text}|{self.voice}|{self.speed}|{self.lead}|{self.tail}|{self.noise}"
        if self.reverb or self.babble:  # dry clips keep the names (and noise) they had
            raw += f"|{self.reverb}|{self.babble}"
        if self.table:
            raw += "|table"
        return hashlib.sha1(raw.encode()).hexdigest()[:16]


def synthesizer(voice: str) -> str:
    return voice.partition(":")[0] if ":" in voice else "espeak-ng"


def require_tools(voices: Iterable[str] = ()) -> None:
    for tool in {"espeak-ng", "sox", *(synthesizer(v) for v in voices)}:
        command = "text2wave" if tool == "festival" else tool
        if shutil.which(command) is None:
            raise DeviceError(f"{tool} is not installed (scripts/setup installs it)")


def _synthesize(spec: ClipSpec, raw: Path) -> None:
    engine = synthesizer(spec.voice)
    name = spec.voice.partition(":")[2]
    if engine == "flite":
        # flite has no words-per-minute; its duration stretch is the inverse of speed.
        stretch = f"{160 / spec.speed:.2f}"
        command = ["flite", "-voice", name, "--setf", f"duration_stretch={stretch}",
                   "-t", spec.text, "-o", str(raw)]
        subprocess.run(command, check=True, capture_output=True)
    elif engine == "festival":
        scheme = f"(voice_{name})"
        subprocess.run(["text2wave", "-eval", scheme, "-o", str(raw)], input=spec.text,
                       text=True, check=True, capture_output=True)
    else:
        subprocess.run(["espeak-ng", "-v", spec.voice, "-s", str(spec.speed), "-w", str(raw),
                        spec.text], check=True, capture_output=True)


def speak(spec: ClipSpec, out: Path, babble: np.ndarray | None = None) -> Path:
    """Write one clip as a 16 kHz mono int16 WAV at `out`; `babble` (a long recording of
    other talk) is mixed under it when the spec asks for babble."""
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "voice.wav"
        mono = Path(tmp) / "mono.wav"
        _synthesize(spec, raw)
        effects = ["pad", str(spec.lead), str(spec.tail)]
        if spec.reverb:
            effects += _reverb(spec.reverb)
        subprocess.run(
            ["sox", str(raw), "-r", str(SAMPLE_RATE), "-c", "1", "-b", "16", "-e",
             "signed-integer", str(mono), *effects],
            check=True, capture_output=True,
        )
        samples = read_wav(mono)
        voice = samples[round(spec.lead * SAMPLE_RATE) : len(samples) - round(spec.tail * SAMPLE_RATE)]
    seed = int(spec.key()[:8], 16)
    rng = np.random.default_rng(seed)
    mixed = samples.astype(np.float64) + rng.normal(0.0, spec.noise, samples.shape)
    if spec.babble and babble is not None and len(babble):
        start = int(rng.integers(0, len(babble)))
        under = np.resize(np.roll(babble.astype(np.float64), -start), samples.shape)
        # A table's SNR is against the voice itself, not the clip with its quiet pads.
        speech = voice if spec.table and len(voice) else samples
        level = np.sqrt(np.mean(speech.astype(np.float64) ** 2))
        under *= spec.babble * level / max(np.sqrt(np.mean(under ** 2)), 1.0)
        mixed += under
    write_wav(out, np.clip(mixed, -32768, 32767).astype(np.int16))
    return out


def _reverb(amount: int) -> list[str]:
    return ["reverb", str(amount), "50", "60"]


def reverberated(audio: np.ndarray, amount: int) -> np.ndarray:
    """`audio` (16 kHz) through the same sox reverb a clip's voice gets."""
    with tempfile.TemporaryDirectory() as tmp:
        dry, wet = Path(tmp) / "dry.wav", Path(tmp) / "wet.wav"
        peak = max(float(np.abs(audio).max()), 1.0)
        write_wav(dry, np.round(audio * (16000 / peak)).astype(np.int16))
        subprocess.run(["sox", str(dry), str(wet), *_reverb(amount)], check=True,
                       capture_output=True)
        return read_wav(wet)[: len(audio)].astype(np.float64) * (peak / 16000)


@lru_cache(maxsize=4096)
def speech_end(spec: ClipSpec) -> float:
    """Seconds from a clip's start to the end of its speech: the lead, then the voice up
    to its last sound within 40 dB of its peak. The synthesizers end their recordings
    with up to 0.3 s of their own silence, so the pad alone would put the end too late
    and flatter a latency measured from it."""
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "voice.wav"
        mono = Path(tmp) / "mono.wav"
        _synthesize(spec, raw)
        subprocess.run(["sox", str(raw), "-r", str(SAMPLE_RATE), "-c", "1", "-b", "16", "-e",
                        "signed-integer", str(mono)], check=True, capture_output=True)
        voice = np.abs(read_wav(mono).astype(np.float64))
    if not len(voice) or not voice.max():
        return spec.lead
    loud = np.nonzero(voice >= voice.max() * 0.01)[0]
    return spec.lead + (int(loud[-1]) + 1) / SAMPLE_RATE


def make_babble(texts: Sequence[str], voices: Sequence[str], folder: Path) -> np.ndarray:
    """Several people talking at once: talk clips in several voices, summed with offsets."""
    specs = [ClipSpec(t, voices[i % len(voices)], noise=0.0) for i, t in enumerate(texts)]
    tracks = [read_wav(p).astype(np.float64) for p in speak_all(specs, folder)]
    streams = [np.concatenate(tracks[i::3]) for i in range(min(3, len(tracks)))]
    length = min(len(s) for s in streams)
    return sum((np.roll(s[:length], 4000 * i) for i, s in enumerate(streams)),
               np.zeros(length)).astype(np.float64)


def speak_all(specs: Iterable[ClipSpec], folder: Path, workers: int = 4,
              babble: np.ndarray | None = None) -> list[Path]:
    """Write many clips into `folder` (named by content, so re-runs reuse them)."""
    todo = list(specs)
    require_tools(s.voice for s in todo)
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"{spec.key()}.wav" for spec in todo]

    # A table's babble is in the same room as the speaker: reverberated alike, once.
    missing = {s.reverb for s, p in zip(todo, paths, strict=True)
               if s.table and s.reverb and not p.exists()}
    rooms = {r: reverberated(babble, r) for r in missing} if babble is not None else {}

    def one(item: tuple[ClipSpec, Path]) -> Path:
        spec, path = item
        under = rooms.get(spec.reverb, babble) if spec.table else babble
        return path if path.exists() else speak(spec, path, under)

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
