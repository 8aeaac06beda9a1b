"""The Recognizer port: 16 kHz mono int16 audio in, in chunks of any size, as it comes;
Command events out, each as soon as the recognizer knows the utterance has ended.

Real back ends: `narrator.voice.recognizer_pocketsphinx.PocketsphinxRecognizer` (English,
its model ships in the wheel: the default) and `narrator.voice.recognizer_vosk.VoskRecognizer`
(any language with a Vosk model folder); narrator.voice.recognizers chooses one from the
settings. `FakeRecognizer` replays a script.
"""

from __future__ import annotations

import wave
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Protocol

import numpy as np

from narrator.errors import InputFileError
from narrator.voice.commands import Command

SAMPLE_RATE = 16000
BYTES_PER_SECOND = SAMPLE_RATE * 2
# Seconds of audio the microphone hands over at a time: a command is heard only once the
# chunk holding its end has come, so a chunk's length is waited on average half of it.
# 0.03 (pocketsphinx's endpointer frame) against 0.1: listen latency p50 about 50 ms lower
# for about 0.002 of RTF (the per-chunk work; a-lat, stop 22).
CHUNK_SECONDS = 0.03


class AudioFileError(InputFileError):
    """An audio file we cannot read as a WAV."""


class Recognizer(Protocol):
    def accept(self, chunk: bytes) -> list[Command]:
        """Hear `chunk` (int16 little-endian mono at 16 kHz); return the commands whose
        utterances ended in it."""
        ...

    def skip(self, chunk: bytes) -> None:
        """`chunk` went by unheard (the box was speaking): drop any utterance in progress,
        keep the stream's time."""
        ...

    def flush(self) -> list[Command]:
        """The stream ended: finish the utterance in progress."""
        ...


def seconds_of(chunk: bytes) -> float:
    return len(chunk) / BYTES_PER_SECOND


class FakeRecognizer:
    """Replays a script: each command comes out once the stream has passed its `at`."""

    def __init__(self, script: Sequence[Command]) -> None:
        self._script = sorted(script, key=lambda c: c.at)
        self.time = 0.0
        self.skipped: list[Command] = []

    def accept(self, chunk: bytes) -> list[Command]:
        self.time += seconds_of(chunk)
        return self._due()

    def skip(self, chunk: bytes) -> None:
        self.time += seconds_of(chunk)
        self.skipped += self._due()

    def flush(self) -> list[Command]:
        self.time = float("inf")
        return self._due()

    def _due(self) -> list[Command]:
        out = [c for c in self._script if c.at <= self.time]
        self._script = self._script[len(out):]
        return out


def read_audio(path: Path) -> bytes:
    """A WAV file as 16 kHz mono int16 (other rates and channel counts are converted)."""
    try:
        with wave.open(str(path), "rb") as w:
            width, channels, rate = w.getsampwidth(), w.getnchannels(), w.getframerate()
            frames = w.readframes(w.getnframes())
    except FileNotFoundError:
        raise AudioFileError(str(path), "", "no such file") from None
    except (wave.Error, EOFError) as exc:
        raise AudioFileError(str(path), "header", f"not a PCM WAV file ({exc})") from None
    if width != 2:
        raise AudioFileError(str(path), "header", f"{8 * width}-bit samples; expected 16-bit")
    samples = np.frombuffer(frames[: len(frames) - len(frames) % (2 * channels)], "<i2")
    mono = samples.reshape(-1, channels).mean(axis=1) if channels > 1 else samples
    if rate != SAMPLE_RATE and len(mono):
        n = int(len(mono) * SAMPLE_RATE / rate)
        mono = np.interp(np.arange(n) * rate / SAMPLE_RATE, np.arange(len(mono)), mono)
    return np.asarray(mono).astype("<i2").tobytes()


# Below these the file cannot be heard as speech (an unplugged or muted input gives
# about 0 to 30 of int16 noise); above the clip share the speech is distorted past hearing.
SILENT_PEAK = 200
CLIPPED_SHARE = 0.01
LOWEST_RATE = SAMPLE_RATE


def check_audio(path: Path) -> bytes:
    """A recording read for `narrator listen --file`, refused with one line when it cannot
    hold a command: not a WAV, too low a sample rate (upsampling adds no sound that the
    recognizer needs), no audio, silence, or speech clipped at full scale."""
    try:
        with wave.open(str(path), "rb") as w:
            rate = w.getframerate()
    except FileNotFoundError:
        raise AudioFileError(str(path), "", "no such file") from None
    except (wave.Error, EOFError) as exc:
        raise AudioFileError(str(path), "header", f"not a PCM WAV file ({exc})") from None
    if rate < LOWEST_RATE:
        raise AudioFileError(str(path), "header",
                             f"sample rate {rate} Hz; needs at least {LOWEST_RATE} Hz")
    audio = read_audio(path)
    samples = np.frombuffer(audio, "<i2")
    if not len(samples):
        raise AudioFileError(str(path), "data", "no audio in the file")
    peak = int(np.abs(samples.astype(np.int32)).max())
    if peak < SILENT_PEAK:
        raise AudioFileError(str(path), "data",
                             f"silent (peak {peak} of 32767): nothing to hear")
    full = int(np.count_nonzero(np.abs(samples.astype(np.int32)) >= 32767))
    if full / len(samples) > CLIPPED_SHARE:
        raise AudioFileError(str(path), "data",
                             f"clipped: {100 * full / len(samples):.1f}% of the samples "
                             "are at full scale; record at a lower gain")
    return audio


def chunked(audio: bytes, seconds: float = CHUNK_SECONDS) -> Iterator[bytes]:
    size = int(seconds * SAMPLE_RATE) * 2
    for i in range(0, len(audio), size):
        yield audio[i : i + size]


def recognize(recognizer: Recognizer, chunks: Iterable[bytes]) -> Iterator[Command]:
    """Stream chunks through a recognizer, yielding commands as they are heard."""
    for chunk in chunks:
        yield from recognizer.accept(chunk)
    yield from recognizer.flush()


# A microphone's stream begins in the room's quiet, long before the first command; a file
# may begin with the command itself, and then pocketsphinx heard nothing: its voice
# activity detector and noise estimate had no quiet to learn from ("next speaker" from the
# first sample: nothing; after 1 s of silence: heard). A file is led in by this much quiet,
# as the microphone would have heard before it, and the commands' times are the file's.
LEAD_SECONDS = 1.0
LEAD_LEVEL = 8.0  # int16 standard deviation: a quiet room (pure digital zero confuses recognizers)


def lead_in(seconds: float = LEAD_SECONDS) -> bytes:
    """The quiet a file is led in by (seeded: the same every time)."""
    noise = np.random.default_rng(0).normal(0.0, LEAD_LEVEL, int(seconds * SAMPLE_RATE))
    return np.clip(np.round(noise), -32768, 32767).astype("<i2").tobytes()


def recognize_file(recognizer: Recognizer, audio: bytes) -> Iterator[Command]:
    """`narrator listen --file`: a recording streamed as the microphone would hand it over,
    after a lead-in of quiet; each command's `at` counts from the file's first sample."""
    lead = lead_in()
    shift = seconds_of(lead)
    for command in recognize(recognizer, chunked(lead + audio)):
        yield replace(command, at=max(0.0, command.at - shift))
