"""The WAV cache: rendered once, found again by (engine, voice, language, rate, text)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.errors import ConfigError
from narrator.voice import tts
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


def test_a_crash_of_espeak_costs_one_clip_not_the_box(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # espeak-ng's C library crashed once in ~30 suite runs (a segfault in runAndWait): it
    # runs in a child, so the crash ends the child, and the cache renders the clip again.
    child = tts.EspeakChild()
    monkeypatch.setattr(tts, "_CHILD", [child])
    cache = WavCache(tmp_path, Pyttsx3Renderer("gmw/en-us", 160), "en")
    cache.clip("one")
    first = child.pid()
    real_ask = tts.EspeakChild.ask
    crashes: list[int] = []

    def crash_first(self: tts.EspeakChild, proc: subprocess.Popen[bytes], text: str,
                    path: Path) -> None:
        if not crashes:
            crashes.append(proc.pid)
            os.kill(proc.pid, signal.SIGSEGV)
            proc.wait()
        real_ask(self, proc, text, path)

    monkeypatch.setattr(tts.EspeakChild, "ask", crash_first)
    try:
        clip = cache.clip("Mafia, go to sleep.")
        assert crashes == [first] and child.pid() not in (None, first)
        assert child.starts == 2 and cache.rendered == 2
        assert clip.seconds == pytest.approx(estimate_seconds("Mafia, go to sleep."), rel=0.3)
    finally:
        child.close()


def test_the_daemon_never_loads_espeak(tmp_path: Path) -> None:
    code = ("import sys; from pathlib import Path; from narrator.voice.cache import WavCache; "
            "from narrator.voice.tts import Pyttsx3Renderer; "
            f"c = WavCache(Path({str(tmp_path)!r}), Pyttsx3Renderer('zle/ru', 160), 'ru'); "
            "print(c.clip('три').frames > 0, 'pyttsx3' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    assert out == ["True", "False"]
