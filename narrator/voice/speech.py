"""Where a speaker's clips come from: the chosen voice's WAV cache, espeak-ng behind it.

Used by every real speaker (the box's, `narrator say`, a demo's recording), so the voice
choice, its fallback and the loudness are the same everywhere.
"""

from __future__ import annotations

import logging

from narrator.errors import ConfigError
from narrator.voice import voices
from narrator.voice.cache import WavCache
from narrator.voice.settings import VoiceSettings

log = logging.getLogger(__name__)


def speech_cache(settings: VoiceSettings) -> WavCache:
    """The clips of the voice the settings name (checked at start-up by the command line);
    a voice that cannot be had now is logged once and espeak-ng speaks instead."""
    try:
        choice = voices.resolve(settings.voice, settings.language, "settings", "voice.name")
    except ConfigError as exc:
        log.error("%s; speaking with espeak-ng instead", exc)
        choice = voices.Choice(voices.ESPEAK, settings.language,
                               voices.DEFAULT_ESPEAK_IDS[settings.language])
    folder, lang = settings.cache_path, settings.language
    backup = voices.fallback_renderer(choice, settings.rate)
    fallback = WavCache(folder, backup, lang) if backup is not None else None
    return WavCache(folder, voices.renderer(choice, settings.rate), lang, fallback=fallback,
                    voice=choice.label)
