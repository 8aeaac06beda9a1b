"""The real Speaker: espeak-ng through pyttsx3, a WAV cache, and sounddevice playback."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

from narrator.clock import Clock, MonotonicClock
from narrator.voice.ambience import night_noise
from narrator.voice.cache import WavCache
from narrator.voice.playback import Player, Playing
from narrator.voice.settings import VoiceSettings
from narrator.voice.sounds import SoundBank
from narrator.voice.tts import Pyttsx3Renderer, Renderer
from narrator.voice.wav import Clip

log = logging.getLogger(__name__)


class Pyttsx3Speaker:
    def __init__(self, settings: VoiceSettings, clock: Clock | None = None,
                 renderer: Renderer | None = None, player: Player | None = None) -> None:
        self.settings = settings
        self.clock = clock or MonotonicClock()
        self.renderer = renderer or Pyttsx3Renderer(settings.voice_id, settings.rate)
        self.cache = WavCache(settings.cache_path, self.renderer, settings.language)
        self.bank = SoundBank(settings.sounds_path)
        ambience = (night_noise(settings.sample_rate) if settings.ambience_volume > 0 else None)
        self.player = player or Player(settings.device, settings.volume, settings.sample_rate,
                                       ambience, settings.ambience_volume)
        self.last: Playing | None = None  # the last clip handed to the player (for benches)

    async def say(self, text: str) -> None:
        if not text.strip():
            return
        clip = self.cache.loaded(text)
        if clip is None:
            clip = await asyncio.to_thread(self.cache.clip, text)
        await self._play(clip)

    async def sound(self, name: str) -> None:
        await self._play(self.bank.clip(name))

    def seconds(self, text: str) -> float:
        return self.cache.clip(text).seconds if text.strip() else 0.0

    def prepare(self, texts: Iterable[str]) -> int:
        self.bank.load_all()
        self.player.warm_up()
        return self.cache.prepare(texts)

    def ambience(self, on: bool) -> None:
        self.player.set_ambience(on)

    def close(self) -> None:
        self.player.close()

    async def _play(self, clip: Clip) -> None:
        playing = self.player.play(clip)
        self.last = playing
        unplayed = await asyncio.wrap_future(playing.done)
        if unplayed > 0:
            # The device failed: hold the clip's time anyway, so the script keeps its
            # timing (a night must last the same with or without sound).
            await self.clock.sleep(unplayed)
