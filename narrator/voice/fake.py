"""FakeSpeaker: records what was said and when, and takes the estimated time on a Clock."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from narrator.clock import Clock
from narrator.engine.timeline import SOUND_SECONDS
from narrator.voice.estimate import DEFAULT_RATE, estimate_seconds
from narrator.voice.speaker import SOUND_NAMES, SoundDevice


class FakeSpeaker:
    def __init__(self, clock: Clock, lang: str = "en", rate: int = DEFAULT_RATE,
                 sound_seconds: Mapping[str, float] | None = None) -> None:
        self.clock = clock
        self.lang = lang
        self.rate = rate
        self.sound_seconds = dict(SOUND_SECONDS if sound_seconds is None else sound_seconds)
        self.said: list[tuple[float, str]] = []
        self.sounds: list[tuple[float, str]] = []
        self.ambience_changes: list[tuple[float, bool]] = []
        self.prepared: set[str] = set()
        # A real sound device's player a test plugs in (its failures reach the service).
        self.player: SoundDevice | None = None

    async def say(self, text: str) -> None:
        self.said.append((self.clock.now(), text))
        await self.clock.sleep(self.seconds(text))

    async def sound(self, name: str) -> None:
        if name not in SOUND_NAMES:
            raise ValueError(f"no cue sound {name!r} (known: {', '.join(SOUND_NAMES)})")
        self.sounds.append((self.clock.now(), name))
        await self.clock.sleep(self.sound_seconds.get(name, 0.0))

    def seconds(self, text: str) -> float:
        return estimate_seconds(text, self.lang, self.rate)

    def prepare(self, texts: Iterable[str]) -> int:
        new = set(texts) - self.prepared
        self.prepared |= new
        return len(new)

    @property
    def device(self) -> SoundDevice | None:
        return self.player

    def ambience(self, on: bool) -> None:
        self.ambience_changes.append((self.clock.now(), on))


class FakeOutputStream:
    """Stands in for sounddevice.OutputStream: keeps what was written, and can be told to
    fail or to block in `write` (a device gone without an error) until released."""

    def __init__(self, *, fail: bool = False, block: bool = False, keep: bool = True,
                 **_: object) -> None:
        import threading

        import numpy as np

        self.latency = 0.0
        self.active = False
        self.fail = fail
        self.block = block
        self.blocked = threading.Event()  # set once a write is stuck
        self.release = threading.Event()
        self.chunks: list[np.ndarray] = []
        self.closed = False
        self.keep = keep
        self.written = 0

    def start(self) -> None:
        self.active = True

    def stop(self) -> None:
        self.active = False

    def abort(self) -> None:
        self.active = False

    def close(self) -> None:
        self.closed = True

    def write(self, data: object) -> None:
        import numpy as np

        if self.fail:
            raise OSError("fake device lost")
        if self.block:
            self.blocked.set()
            self.release.wait()
            raise OSError("fake device gone")
        chunk = np.asarray(data).reshape(-1)
        self.written += len(chunk)
        if self.keep:
            self.chunks.append(chunk.copy())

    @property
    def frames(self) -> int:
        return self.written
