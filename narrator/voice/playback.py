"""Playing clips through sounddevice, one after another, from a thread of its own.

The output stream is opened on first use and kept; it is stopped (drained) whenever
nothing is queued, so a clip counts as played only once the device has played it. If the
device fails or is missing, the failure is logged, the clip is given up (its unplayed
length is reported so the caller can hold the script's timing) and the next clip tries to
open the device again: the game goes on, and sound comes back with the device.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from narrator.voice.wav import Clip, Samples

log = logging.getLogger(__name__)

BLOCK = 512  # frames per write: ~23 ms at 22050 Hz


@dataclass(eq=False)
class Playing:
    """One clip on its way to the device."""

    samples: Samples
    requested_at: float
    # monotonic time when the first frame was handed to the device; None if it never was
    started_at: float | None = None
    # the result is the number of seconds that could not be played (0.0: all of it)
    done: Future[float] = field(default_factory=Future)


_CLOSE = object()
_WARM = object()


class Player:
    def __init__(self, device: str | int | None = None, volume: float = 1.0,
                 sample_rate: int = 22050, ambience: Samples | None = None,
                 ambience_volume: float = 0.0) -> None:
        self.device = device
        self.volume = volume
        self.rate = sample_rate
        self._bed = ambience if ambience is not None and ambience_volume > 0 else None
        self._bed_gain = ambience_volume
        self._bed_pos = 0
        self._bed_on = False
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._stream: Any = None
        self._latency_frames = 0
        self.failed = False  # the device failed and has not come back yet
        self.last_error: str | None = None
        self.failures = 0

    # called from any thread
    def play(self, clip: Clip) -> Playing:
        samples = clip.at_rate(self.rate).samples
        if self.volume != 1.0:
            samples = (samples * np.float32(self.volume)).astype(np.float32)
        playing = Playing(samples, time.monotonic())
        if not len(samples):
            playing.done.set_result(0.0)
            return playing
        self._ensure_thread()
        self._queue.put(playing)
        return playing

    def warm_up(self) -> None:
        """Load sounddevice and open the device now, so the first cue starts at once."""
        import sounddevice  # noqa: F401  (its import initialises PortAudio: slow)

        self._ensure_thread()
        self._queue.put(_WARM)

    def set_ambience(self, on: bool) -> None:
        if self._bed is None or on == self._bed_on:
            return
        self._bed_on = on
        self._ensure_thread()
        self._queue.put(None)  # wake the thread up

    def close(self) -> None:
        thread = self._thread
        if thread is not None:
            self._queue.put(_CLOSE)
            thread.join()
            self._thread = None

    def _ensure_thread(self) -> None:
        with self._start_lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="narrator-playback",
                                                daemon=True)
                self._thread.start()

    # the playback thread
    def _run(self) -> None:
        current: Playing | None = None
        pos = 0
        written = 0
        waiting: list[tuple[int, Playing]] = []  # fully written, ends at frame N
        while True:
            if current is None:
                # The ambience keeps the stream running, unless the device is down: then
                # only a clip may try it again.
                bed = self._bed_on and not self.failed
                item = self._next(block=False)
                if item is None and not bed:
                    # Nothing to play: let the device play out what it holds, then wait.
                    self._drain(waiting)
                    item = self._next(block=True)
                if item is _CLOSE:
                    break
                if item is _WARM:
                    self._open()
                if isinstance(item, Playing):
                    current, pos = item, 0
                if current is None and not (self._bed_on and not self.failed):
                    continue
            stream = self._open()
            if stream is None:
                if current is not None:
                    current.done.set_result((len(current.samples) - pos) / self.rate)
                    current = None
                self._release(waiting)
                continue
            chunk, speech = self._chunk(current, pos)
            if current is not None and pos == 0:
                current.started_at = time.monotonic()
            try:
                stream.write(chunk.reshape(-1, 1))
            except Exception as exc:  # sounddevice.PortAudioError, or the device vanished
                self._fail(exc)
                if current is not None:
                    current.done.set_result((len(current.samples) - pos) / self.rate)
                    current = None
                self._release(waiting)
                continue
            written += len(chunk)
            if current is not None:
                pos += speech
                if pos >= len(current.samples):
                    waiting.append((written + self._latency_frames, current))
                    current = None
            while waiting and waiting[0][0] <= written:
                waiting.pop(0)[1].done.set_result(0.0)
        self._drain(waiting)
        self._close_stream()

    def _next(self, block: bool) -> Any:
        try:
            return self._queue.get(block=block)
        except queue.Empty:
            return None

    def _chunk(self, current: Playing | None, pos: int) -> tuple[Samples, int]:
        speech = current.samples[pos:pos + BLOCK] if current is not None else None
        if not self._bed_on or self._bed is None:
            assert speech is not None
            return speech, len(speech)
        n = BLOCK
        idx = (self._bed_pos + np.arange(n)) % len(self._bed)
        self._bed_pos = int((self._bed_pos + n) % len(self._bed))
        chunk = self._bed[idx] * np.float32(self._bed_gain * self.volume)
        if speech is not None:
            chunk[:len(speech)] += speech
        return np.clip(chunk, -1, 1).astype(np.float32), 0 if speech is None else len(speech)

    def _open(self) -> Any:
        if self._stream is not None:
            if not self._stream.active:
                try:
                    self._stream.start()
                except Exception as exc:
                    self._fail(exc)
                    return None
            return self._stream
        try:
            import sounddevice as sd

            stream = sd.OutputStream(device=self.device, samplerate=self.rate, channels=1,
                                     dtype="float32", latency="low")
            stream.start()
        except Exception as exc:  # PortAudioError, ValueError for an unknown device name
            self._fail(exc)
            return None
        self._stream = stream
        self._latency_frames = round(float(stream.latency) * self.rate)
        if self.failed:
            log.warning("audio device %s is back", self._name())
        self.failed = False
        return stream

    def _drain(self, waiting: list[tuple[int, Playing]]) -> None:
        if self._stream is not None and self._stream.active:
            try:
                self._stream.stop()  # returns once the device has played everything
            except Exception as exc:
                self._fail(exc)
        self._release(waiting)

    @staticmethod
    def _release(waiting: list[tuple[int, Playing]]) -> None:
        for _, playing in waiting:
            playing.done.set_result(0.0)
        waiting.clear()

    def _fail(self, exc: BaseException) -> None:
        self.failures += 1
        self.last_error = f"{type(exc).__name__}: {exc}"
        if not self.failed:
            log.error("audio device %s failed (%s); the game goes on without sound until it "
                      "comes back", self._name(), self.last_error)
        self.failed = True
        self._close_stream()

    def _close_stream(self) -> None:
        stream, self._stream = self._stream, None
        if stream is not None:
            try:
                stream.abort()
                stream.close()
            except Exception as exc:
                log.debug("closing the failed stream: %s", exc)

    def _name(self) -> str:
        return "default" if self.device is None else repr(self.device)
