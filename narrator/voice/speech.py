"""Where a speaker's clips come from: the chosen voice's WAV cache, espeak-ng behind it.

Used by every real speaker (the box's, `narrator say`, a demo's recording), so the voice
choice, its fallback and the loudness are the same everywhere.
"""

from __future__ import annotations

import logging
import os
from dataclasses import replace

from narrator.errors import InputFileError
from narrator.voice import voices
from narrator.voice.cache import WavCache
from narrator.voice.packs import Pack, PackError, PackSpeech
from narrator.voice.voice_config import VoiceSettings

log = logging.getLogger(__name__)


def speech_cache(settings: VoiceSettings) -> WavCache | PackSpeech:
    """The clips of the voice the settings name (checked at start-up by the command line);
    a voice that cannot be had now is logged once and espeak-ng speaks instead. A voice
    pack plays its clips and the best installed TTS voice says the rest."""
    try:
        choice = voices.resolve(settings.voice, settings.language, "settings", "voice.name")
    except InputFileError as exc:
        log.error("%s; speaking with espeak-ng instead", exc)
        choice = voices.Choice(voices.ESPEAK, settings.language,
                               voices.DEFAULT_ESPEAK_IDS[settings.language])
    if choice.pack is not None:
        named = os.environ.get(voices.ENV, "")
        tts_voice = named if named and not named.startswith(voices.PACK_PREFIX) else None
        tts = speech_cache(replace(settings, voice=tts_voice or voices.best(settings.language)))
        assert isinstance(tts, WavCache)
        try:
            return PackSpeech(Pack.load(choice.pack), tts)
        except PackError as exc:
            log.error("%s; speaking with the TTS voice instead", exc)
            return tts
    folder, lang = settings.cache_path, settings.language
    backup = voices.fallback_renderer(choice, settings.rate)
    fallback = WavCache(folder, backup, lang) if backup is not None else None
    return WavCache(folder, voices.renderer(choice, settings.rate), lang, fallback=fallback,
                    voice=choice.label)
