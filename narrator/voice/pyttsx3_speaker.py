"""The real Speaker: the chosen voice (espeak-ng through pyttsx3, or a neural or festival
voice in a child process, see voices.py), a WAV cache, and sounddevice playback."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

from narrator.clock import Clock, MonotonicClock
from narrator.engine.timeline import SOUND_SECONDS
from narrator.errors import DeviceError
from narrator.voice.ambience import night_noise
from narrator.voice.cache import WavCache
from narrator.voice.estimate import estimate_seconds
from narrator.voice.packs import PackSpeech
from narrator.voice.playback import Player, Playing
from narrator.voice.sounds import SoundBank
from narrator.voice.speech import speech_cache
from narrator.voice.tts import Renderer
from narrator.voice.voice_config import VoiceSettings
from narrator.voice.wav import Clip

log = logging.getLogger(__name__)

# Far above a render (espeak-ng: under a second; a neural voice on a Pi: a few seconds),
# far below the watchdog's 90 s.
RENDER_WAIT_SECONDS = 15.0


class Pyttsx3Speaker:
    def __init__(self, settings: VoiceSettings, clock: Clock | None = None,
                 renderer: Renderer | None = None, player: Player | None = None,
                 hold_time: bool = True) -> None:
        self.settings = settings
        # When the device fails, wait out each clip's length anyway (a game's timing must
        # not change); a one-off `narrator say` need not.
        self.hold_time = hold_time
        self.clock = clock or MonotonicClock()
        self.cache: WavCache | PackSpeech
        if renderer is not None:
            self.cache = WavCache(settings.cache_path, renderer, settings.language)
        else:
            self.cache = speech_cache(settings)
        self.renderer = self.cache.renderer
        self.bank = SoundBank(settings.sounds_path)
        ambience = (night_noise(settings.sample_rate) if settings.ambience_volume > 0 else None)
        self.player = player or Player(settings.device, settings.volume, settings.sample_rate,
                                       ambience, settings.ambience_volume)
        self.last: Playing | None = None  # the last clip handed to the player (for benches)
        # A cue not in the cache waits this long (real time) for the speech engine; a
        # child that hangs would otherwise hold the table silent for its own time limit
        # (70 s for espeak-ng, per retry) and get the box restarted by the watchdog.
        self.render_wait = RENDER_WAIT_SECONDS

    async def say(self, text: str) -> None:
        if not text.strip():
            return
        clip = self.cache.loaded(text)
        if clip is None:
            try:
                clip = await asyncio.wait_for(asyncio.to_thread(self.cache.clip, text),
                                              self.render_wait)
            except (DeviceError, TimeoutError, OSError) as exc:
                # The render thread, if stuck, finishes or fails on its own later. OSError:
                # the cache's card refuses the clip (full, read-only).
                why = str(exc) or f"no answer in {self.render_wait:g} s"
                log.error("the speech engine gave no clip for %r (%s); its time is held",
                          text, why)
                await self._hold(estimate_seconds(text, self.settings.language, self.settings.rate))
                return
        log.debug("playing %.2f s of speech", clip.seconds)  # the bench's first word
        await self._play(clip)

    async def sound(self, name: str) -> None:
        try:
            clip = self.bank.clip(name)
        except DeviceError as exc:
            log.error("%s", exc)
            await self._hold(SOUND_SECONDS.get(name, 0.0))
            return
        await self._play(clip)

    def seconds(self, text: str) -> float:
        return self.cache.clip(text).seconds if text.strip() else 0.0

    def prepare(self, texts: Iterable[str]) -> int:
        self.bank.load_all()
        self.player.warm_up()
        return self.cache.prepare(texts)

    @property
    def device(self) -> Player:
        return self.player

    def ambience(self, on: bool) -> None:
        self.player.set_ambience(on)

    def close(self) -> None:
        self.player.close()
        self.cache.close()

    async def _play(self, clip: Clip) -> None:
        playing = self.player.play(clip)
        self.last = playing
        try:
            # Real time, not the game clock: this watches the device, not the script.
            unplayed = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(playing.done)),
                                              self.player.deadline(playing))
        except TimeoutError:
            # The device blocked (gone without an error): the clip's time has passed
            # already; the player starts afresh for the next clip.
            self.player.abandon(playing)
            unplayed = 0.0
        await self._hold(unplayed)

    async def _hold(self, seconds: float) -> None:
        # Something failed: wait out what could not be played, so the script keeps its
        # timing (a night must last the same with or without sound).
        if seconds > 0 and self.hold_time:
            await self.clock.sleep(seconds)
