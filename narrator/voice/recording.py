"""RecordingSpeaker: speaks into a WAV file instead of a sound device.

Each text is rendered by the real voice (the chosen one, through the same WAV cache as
the box uses) and placed in the recording at the clock's time, so a demo on a
virtual clock still leaves the whole game's audio. Used where there is no sound device.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np

from narrator.clock import Clock
from narrator.voice.sounds import SoundBank
from narrator.voice.speech import speech_cache
from narrator.voice.voice_config import VoiceSettings
from narrator.voice.wav import Clip, Samples, write_wav


class RecordingSpeaker:
    def __init__(self, settings: VoiceSettings, clock: Clock, out: Path) -> None:
        self.settings = settings
        self.clock = clock
        self.out = out
        self.rate = settings.sample_rate
        self.cache = speech_cache(settings)
        self.bank = SoundBank(settings.sounds_path)
        self._parts: list[tuple[float, Samples]] = []
        self.start = clock.now()

    async def say(self, text: str) -> None:
        if text.strip():
            await self._place(self.cache.clip(text))

    async def sound(self, name: str) -> None:
        await self._place(self.bank.clip(name))

    def seconds(self, text: str) -> float:
        return self.cache.clip(text).seconds if text.strip() else 0.0

    def prepare(self, texts: Iterable[str]) -> int:
        return self.cache.prepare(texts)

    @property
    def device(self) -> None:
        return None  # a file: nothing to fail

    def ambience(self, on: bool) -> None:
        return None

    async def _place(self, clip: Clip) -> None:
        clip = clip.at_rate(self.rate)
        self._parts.append((self.clock.now() - self.start, clip.samples * self.settings.volume))
        await self.clock.sleep(clip.seconds)

    def write(self) -> Path:
        """Write everything said so far, at the times it was said, to `out`."""
        end = max((at + len(s) / self.rate for at, s in self._parts), default=0.0)
        track = np.zeros(int(end * self.rate) + 1, dtype=np.float32)
        for at, samples in self._parts:
            i = int(at * self.rate)
            track[i:i + len(samples)] += samples[: len(track) - i]
        np.clip(track, -1.0, 1.0, out=track)
        write_wav(self.out, Clip(track, self.rate))
        return self.out
