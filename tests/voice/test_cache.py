"""The WAV cache: rendered once, found again by (engine, voice, language, rate, text)."""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.errors import ConfigError
from narrator.voice.cache import WavCache
from narrator.voice.estimate import estimate_seconds
from narrator.voice.tts import Pyttsx3Renderer, voices

TEXTS = ["Mafia, go to sleep.", "Игрок номер три: пять голосов."]


def test_rendered_once_then_read_from_disk(voice_cache: Path) -> None:
    renderer = Pyttsx3Renderer("gmw/en-us", 160)
    first = WavCache(voice_cache / "a", renderer, "en")
    assert first.prepare([TEXTS[0], TEXTS[0], "  "]) == 1
    clip = first.clip(TEXTS[0])
    assert clip.rate == 22050 and clip.seconds == pytest.approx(
        estimate_seconds(TEXTS[0]), rel=0.2)
    again = WavCache(voice_cache / "a", renderer, "en")
    assert again.prepare([TEXTS[0]]) == 0
    assert again.rendered == 0
    assert again.clip(TEXTS[0]).frames == clip.frames


def test_the_key_holds_voice_language_rate_and_text(voice_cache: Path) -> None:
    paths = {
        WavCache(voice_cache, Pyttsx3Renderer(voice, rate), lang).path_for(text)
        for voice, rate, lang, text in [
            ("gmw/en-us", 160, "en", "three"), ("gmw/en", 160, "en", "three"),
            ("gmw/en-us", 180, "en", "three"), ("gmw/en-us", 160, "ru", "three"),
            ("gmw/en-us", 160, "en", "four"),
        ]
    }
    assert len(paths) == 5


def test_a_damaged_file_is_rendered_again(voice_cache: Path) -> None:
    cache = WavCache(voice_cache / "b", Pyttsx3Renderer("zle/ru", 160), "ru")
    cache.prepare([TEXTS[1]])
    cache.path_for(TEXTS[1]).write_bytes(b"RIFF")
    fresh = WavCache(voice_cache / "b", cache.renderer, "ru")
    assert fresh.clip(TEXTS[1]).seconds == pytest.approx(cache.clip(TEXTS[1]).seconds, abs=0.05)
    assert fresh.rendered == 1


def test_an_unknown_voice_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="espeak-ng has no voice 'gmw/xx'"):
        WavCache(tmp_path, Pyttsx3Renderer("gmw/xx", 160), "en").clip("three")


def test_both_languages_have_their_default_voice() -> None:
    assert {"gmw/en-us", "zle/ru"} <= set(voices())
