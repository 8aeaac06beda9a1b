"""The microphone: 16 kHz mono int16 chunks from sounddevice as they are captured, and the
mute gate that keeps the box from hearing itself.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

from narrator.clock import Clock
from narrator.errors import DeviceError
from narrator.voice.recognizer import CHUNK_SECONDS, SAMPLE_RATE

# Room echo and the speaker's tail outlast the end of playback a little.
UNMUTE_TAIL = 0.3


class MuteGate:
    """Closed while the box speaks (and `tail` seconds after), so no cue becomes a command.
    The daemon closes it around every cue it plays; the listener asks `is_open()` for
    each chunk and lets the recognizer skip what it must not hear."""

    def __init__(self, clock: Clock, tail: float = UNMUTE_TAIL) -> None:
        self.clock = clock
        self.tail = tail
        self._closed = False
        self._reopens_at = float("-inf")

    def close(self) -> None:
        self._closed = True

    def open(self) -> None:
        if self._closed:
            self._closed = False
            self._reopens_at = self.clock.now() + self.tail

    def set(self, muted: bool) -> None:
        self.close() if muted else self.open()

    def is_open(self) -> bool:
        return not self._closed and self.clock.now() >= self._reopens_at


class Microphone:
    """Captures from a sounddevice input (`device`: a name, part of one, or an index)."""

    def __init__(self, device: str | int | None = None, chunk_seconds: float = CHUNK_SECONDS) -> None:
        self.device = device
        self.frames = int(SAMPLE_RATE * chunk_seconds)

    def chunks(self, stop: threading.Event | None = None) -> Iterator[bytes]:
        """Chunks as they are captured, until `stop` is set (or the consumer stops)."""
        try:
            import sounddevice as sd

            stream = sd.RawInputStream(samplerate=SAMPLE_RATE, channels=1, dtype="int16",
                                       blocksize=self.frames, device=self.device)
        except (OSError, ValueError) as exc:  # PortAudioError is an OSError
            raise DeviceError(f"microphone {self.device or 'default'}: {exc}") from None
        with stream:
            while stop is None or not stop.is_set():
                try:
                    data, _overflowed = stream.read(self.frames)
                except (OSError, ValueError) as exc:  # unplugged: PortAudioError (an OSError)
                    raise DeviceError(f"microphone {self.device or 'default'} lost: {exc}") \
                        from None
                yield bytes(data)
