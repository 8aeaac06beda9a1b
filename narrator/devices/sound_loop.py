"""The SoundLoop port: play a signal on the speaker and record the microphone meanwhile.

`check-hardware` plays a tone through it and measures what came back. Two adapters:
- SoundDeviceLoop: the real one, one full-duplex sounddevice stream (speaker and
  microphone are the box's configured devices);
- FakeRoom: the fake, a room with a given loudness, delay, background noise and faults
  (a dead speaker, a dead or muted microphone, a gain that clips).
Samples are float32 in [-1, 1] at `rate`; what comes back is exactly as long as what went out.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from narrator.errors import DeviceError
from narrator.voice.wav import Samples

RATE = 16_000  # what the microphone path records for voice commands
FULL_SCALE = 32768.0


class SoundLoop(Protocol):
    rate: int

    def play_and_record(self, signal: Samples) -> Samples: ...

    def describe(self) -> str: ...


def to_int16(samples: Samples) -> np.ndarray:
    return np.clip(np.round(samples * FULL_SCALE), -32768, 32767).astype(np.int16)


def from_int16(samples: np.ndarray) -> Samples:
    return (samples.astype(np.float32) / np.float32(FULL_SCALE)).astype(np.float32)


class SoundDeviceLoop:
    """Plays and records at once through sounddevice (PortAudio, ALSA on the Pi).

    int16 both ways, as the microphone path records: a sample at -32768 or 32767 is a
    sample the converter clipped."""

    def __init__(self, output: str | int | None = None, microphone: str | int | None = None,
                 rate: int = RATE) -> None:
        self.output = output
        self.microphone = microphone
        self.rate = rate

    def describe(self) -> str:
        def name(d: str | int | None) -> str:
            return "default" if d is None else repr(d)

        return f"speaker {name(self.output)}, microphone {name(self.microphone)}"

    def play_and_record(self, signal: Samples) -> Samples:
        try:
            import sounddevice as sd

            recorded = sd.playrec(to_int16(signal).reshape(-1, 1), samplerate=self.rate,
                                  channels=1, dtype="int16", blocking=True,
                                  device=(self.microphone, self.output))
        except (OSError, ValueError) as exc:  # PortAudioError is an OSError
            raise DeviceError(f"sound ({self.describe()}): {exc}") from None
        return from_int16(np.asarray(recorded)[:, 0])


class FakeRoom:
    """A room for the tone: the microphone hears the speaker `gain_db` quieter (louder, if
    positive), `delay` seconds late, over noise at `noise_dbfs`, through an int16
    converter that clips. `speaker=False`: nothing comes out; `microphone=False`: the
    input gives digital silence (unplugged or muted)."""

    def __init__(self, *, gain_db: float = -18.0, noise_dbfs: float = -62.0,
                 delay: float = 0.04, speaker: bool = True, microphone: bool = True,
                 seed: int = 16, rate: int = RATE) -> None:
        self.gain_db = gain_db
        self.noise_dbfs = noise_dbfs
        self.delay = delay
        self.speaker = speaker
        self.microphone = microphone
        self.seed = seed
        self.rate = rate
        self.played: list[Samples] = []

    def describe(self) -> str:
        return "a simulated room (no sound device)"

    def play_and_record(self, signal: Samples) -> Samples:
        self.played.append(signal)
        heard = np.zeros(len(signal), dtype=np.float64)
        if not self.microphone:
            return heard.astype(np.float32)
        if self.speaker:
            lag = round(self.delay * self.rate)
            heard[lag:] += signal[:len(signal) - lag] * 10 ** (self.gain_db / 20)
        # Noise at the given level (dBFS of a full-scale sine: rms = 10^(L/20) / sqrt 2).
        rms = 10 ** (self.noise_dbfs / 20) / np.sqrt(2)
        heard += np.random.default_rng(self.seed).normal(0.0, rms, len(signal))
        return from_int16(to_int16(heard.astype(np.float32)))
