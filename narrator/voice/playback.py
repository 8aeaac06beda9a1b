"""Playing clips through sounddevice, one after another, from a thread of its own.

The output stream is opened on first use and kept; it is stopped (drained) whenever
nothing is queued, so a clip counts as played only once the device has played it. If the
device fails or is missing, the failure is logged, the clip is given up (its unplayed
length is reported so the caller can hold the script's timing) and the next clip tries to
open the device again: the game goes on, and sound comes back with the device.

Only the playback thread reads or changes its state: other threads send it messages
through its queue (a clip, the ambience on or off, warm up, close). The ambience flag used
to be set from the game's thread while the playback thread was between deciding to play
the bed and mixing it (about 0.2% of dawns): the mixer then found neither speech nor bed
and the thread died. A write that blocks longer than `WRITE_TIMEOUT` (a device gone
without an error) is given up like a failed one, so the game never waits on it.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, InvalidStateError
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


@dataclass(frozen=True)
class _Bed:
    on: bool


WRITE_TIMEOUT = 2.0  # seconds a single block write may take before the device counts as lost


class Player:
    def __init__(self, device: str | int | None = None, volume: float = 1.0,
                 sample_rate: int = 22050, ambience: Samples | None = None,
                 ambience_volume: float = 0.0, write_timeout: float = WRITE_TIMEOUT,
                 open_stream: Callable[..., Any] | None = None) -> None:
        self.device = device
        self.write_timeout = write_timeout
        # the port to the device: sounddevice.OutputStream, or a fake one in tests
        self._open_stream = open_stream
        self._gen = 0  # bumped when a stuck playback thread is abandoned
        self.crashes = 0  # times the playback thread died and was started again
        self._current: Playing | None = None
        self._waiting: list[tuple[int, Playing]] = []
        self.volume = volume
        self.rate = sample_rate
        self._bed = ambience if ambience is not None and ambience_volume > 0 else None
        self._bed_gain = ambience_volume
        self._bed_pos = 0
        self._bed_on = False  # owned by the playback thread
        self._bed_wanted = False  # what callers last asked for (their side only)
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._stream: Any = None
        self._latency_frames = 0
        self.failed = False  # the device failed and has not come back yet
        # Hears `failed` change (from the playback thread): the service shows it.
        self.on_change: Callable[[], None] | None = None
        self.last_error: str | None = None
        self.failures = 0

    # called from any thread
    def play(self, clip: Clip) -> Playing:
        samples = clip.at_rate(self.rate).samples
        if self.volume != 1.0:
            samples = (samples * np.float32(self.volume)).astype(np.float32)
        playing = Playing(samples, time.monotonic())
        if not len(samples):
            _settle(playing, 0.0)
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
        if self._bed is None or on == self._bed_wanted:
            return
        self._bed_wanted = on
        self._ensure_thread()
        self._queue.put(_Bed(on))

    def close(self) -> None:
        thread = self._thread
        if thread is not None:
            self._queue.put(_CLOSE)
            # A thread stuck in a device write must not hold the shutdown up for ever.
            thread.join(timeout=self.write_timeout + 1.0)
            self._thread = None

    def deadline(self, playing: Playing) -> float:
        """Seconds after which a clip that has not finished means the device is stuck."""
        return len(playing.samples) / self.rate + self._latency_frames / self.rate \
            + self.write_timeout

    def abandon(self, playing: Playing) -> None:
        """The device blocked past `deadline`: leave the stuck thread behind (it exits if
        its write ever returns) and let the next clip start a fresh thread and stream."""
        with self._start_lock:
            self._gen += 1
            self._thread = None
            self._queue = queue.SimpleQueue()
            self._stream = None  # the stuck thread owns it now; closing it could block too
        self._failed(f"audio write blocked for more than {self.write_timeout:g} s")
        _settle(playing, 0.0)

    def _ensure_thread(self) -> None:
        with self._start_lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._supervised, args=(self._gen,),
                                                name="narrator-playback", daemon=True)
                self._thread.start()

    # the playback thread
    def _supervised(self, gen: int) -> None:
        try:
            self._run(gen)
        except Exception:
            # A bug in the mixer must not leave the game waiting for a clip forever: say so,
            # give up what was in hand (the speaker holds its time), start afresh.
            log.exception("the playback thread crashed; starting it again")
            with self._start_lock:
                if gen != self._gen:
                    return
                self.crashes += 1
                self._thread = None
            current, self._current = self._current, None
            if current is not None:
                _settle(current, len(current.samples) / self.rate)
            self._release(self._waiting)
            self._close_stream()
            # Whatever was queued meanwhile must still be played: hand it to a new thread.
            self._ensure_thread()
            self._queue.put(None)

    def _run(self, gen: int) -> None:
        current: Playing | None = None
        pos = 0
        written = 0
        waiting = self._waiting = []  # fully written, ends at frame N
        while True:
            self._current = current
            if gen != self._gen:
                return  # abandoned while stuck in a write: a new thread has taken over
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
                if isinstance(item, _Bed):
                    self._bed_on = item.on
                if isinstance(item, Playing):
                    current, pos = item, 0
                if current is None and not (self._bed_on and not self.failed):
                    continue
            self._current = current  # for the supervisor, should the mixer crash
            stream = self._open()
            if stream is None:
                if current is not None:
                    _settle(current, (len(current.samples) - pos) / self.rate)
                    current = None
                self._release(waiting)
                continue
            chunk, speech = self._chunk(current, pos)
            if current is not None and pos == 0:
                current.started_at = time.monotonic()
            try:
                stream.write(chunk.reshape(-1, 1))
                if gen != self._gen:
                    return
            except Exception as exc:  # sounddevice.PortAudioError, or the device vanished
                self._fail(exc)
                if current is not None:
                    _settle(current, (len(current.samples) - pos) / self.rate)
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
                _settle(waiting.pop(0)[1], 0.0)
        if gen == self._gen:
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
            opener = self._open_stream
            if opener is None:
                import sounddevice as sd

                opener = sd.OutputStream
            stream = opener(device=self.device, samplerate=self.rate, channels=1,
                                     dtype="float32", latency="low")
            stream.start()
        except Exception as exc:  # PortAudioError, ValueError for an unknown device name
            self._fail(exc)
            return None
        self._stream = stream
        self._latency_frames = round(float(stream.latency) * self.rate)
        was = self.failed
        if was:
            log.warning("audio device %s is back", self._name())
        self.failed = False
        if was:
            self._tell()
        return stream

    def _tell(self) -> None:
        # From the playback thread: the listener hands it to its own loop; its fault must
        # never stop the playback.
        hear = self.on_change
        if hear is not None:
            try:
                hear()
            except Exception:
                log.exception("a watcher of the audio device failed")

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
            _settle(playing, 0.0)
        waiting.clear()

    def _fail(self, exc: BaseException) -> None:
        self._failed(f"{type(exc).__name__}: {exc}")
        self._close_stream()

    def _failed(self, error: str) -> None:
        """Count a failure; the log says so once, until the device works again."""
        self.failures += 1
        self.last_error = error
        was = self.failed
        if not was:
            log.error("audio device %s failed (%s); the game goes on without sound until it "
                      "comes back", self._name(), error)
        self.failed = True
        if not was:
            self._tell()

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


def _settle(playing: Playing, unplayed: float) -> None:
    # A clip may be given up by the caller (abandon) and then by its old thread: first wins.
    if not playing.done.done():
        with contextlib.suppress(InvalidStateError):
            playing.done.set_result(unplayed)
