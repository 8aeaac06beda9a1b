"""Voices as a choice: the catalogue, the default, bad names, child-process rendering and
the fallback to espeak-ng."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from narrator.cli import main
from narrator.errors import ConfigError
from narrator.voice import voices
from narrator.voice.cache import WavCache
from narrator.voice.child_renderer import WorkerRenderer, _festival_text
from narrator.voice.loudness import TARGET_LUFS, loudness
from narrator.voice.tts import Pyttsx3Renderer
from narrator.voice.wav import read_wav

ROOT = Path(__file__).resolve().parents[2]


def test_the_default_is_the_best_installed_voice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(voices.ENV, raising=False)
    for lang in ("en", "ru"):
        found = [v for v in voices.VOICES if lang in v.languages and v.installed()]
        top = max(found, key=lambda v: v.rank).name
        assert voices.resolve(None, lang).name == top == voices.best(lang)
    monkeypatch.setattr(voices, "_installed", lambda name: name == voices.ESPEAK)
    assert voices.resolve(None, "en").label == "espeak-ng:gmw/en-us"
    assert voices.resolve(None, "ru").label == "espeak-ng:zle/ru"


@pytest.mark.parametrize(("spec", "lang", "problem"), [
    ("nope", "en", "voice 'nope': unknown voice (known: hibari, piper, festival, espeak-ng"),
    ("festival", "en", "voice 'festival': it does not speak 'en' (only ru)"),
    ("hibari", "ru", "voice 'hibari': it does not speak 'ru' (only en)"),
    ("espeak-ng:gmw/xx", "en", "espeak-ng has no voice 'gmw/xx'"),
    ("hibari:emma", "en", "the hibari voice takes no variant"),
    ("pack:/no/such/pack", "ru", "no voice pack folder /no/such/pack"),
])
def test_a_bad_voice_is_one_line(spec: str, lang: str, problem: str) -> None:
    with pytest.raises(ConfigError, match=r"^--voice: ") as caught:
        voices.resolve(spec, lang)
    assert problem in str(caught.value) and "\n" not in str(caught.value)


def test_a_missing_package_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(voices, "_installed", lambda name: name != "piper")
    with pytest.raises(ConfigError, match=r"voice 'piper': not installed: pip install "
                       r"\"narrator\[neural\]\""):
        voices.resolve("piper", "en")


def test_espeak_ids_old_style_still_work() -> None:
    assert voices.resolve("gmw/en", "en").label == "espeak-ng:gmw/en"
    assert voices.resolve("espeak", "ru").label == "espeak-ng:zle/ru"


def test_the_cache_key_holds_the_voice_and_its_version(tmp_path: Path) -> None:
    paths = {WavCache(tmp_path, r, "en").path_for("three") for r in (
        WorkerRenderer("hibari", 1.0, "0.2.1"), WorkerRenderer("hibari", 1.0, "0.2.2"),
        WorkerRenderer("piper", 1.0, "0.2.1"), WorkerRenderer("hibari", 1.2, "0.2.1"),
        Pyttsx3Renderer("gmw/en-us", 160))}
    assert len(paths) == 5


def test_a_voice_that_fails_falls_back_to_espeak_and_is_logged_once(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # A worker for an engine that does not exist: a real child that answers an error.
    espeak = WavCache(tmp_path, Pyttsx3Renderer("gmw/en-us", 160), "en")
    cache = WavCache(tmp_path, WorkerRenderer("no-such-engine", 1.0, "0"), "en",
                     fallback=espeak, voice="no-such-engine")
    with caplog.at_level(logging.ERROR, logger="narrator.voice.cache"):
        first = cache.clip("Three.")
        second = cache.clip("Seven.")
    assert first.rate == second.rate == 22050 and first.frames and second.frames
    logged = [r.getMessage() for r in caplog.records]
    assert len(logged) == 1, logged
    assert "no-such-engine" in logged[0] and "espeak-ng speaks what it cannot" in logged[0]
    cache.close()


@pytest.mark.parametrize(("voice", "rate"), [("hibari", 24000), ("piper", 22050)])
def test_say_writes_speech_with_a_neural_voice(tmp_path: Path, voice: str, rate: int) -> None:
    out = tmp_path / "x.wav"
    done = subprocess.run([sys.executable, "-m", "narrator", "say", "The city falls asleep.",
                           "--voice", voice, "--out", str(out)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=False,
                          env=_env(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "espeak-ng speaks" not in done.stderr  # no fallback hid a failure
    clip = read_wav(out)
    assert clip.rate == rate and 1.0 < clip.seconds < 4.0
    assert loudness(clip) == pytest.approx(TARGET_LUFS, abs=0.5)
    # Speech, not noise or silence: loud syllables and quiet gaps between them.
    frames = clip.samples[: clip.frames // 400 * 400].reshape(-1, 400)
    energy = np.sqrt((frames ** 2).mean(axis=1))
    assert energy.max() > 0.05 and np.percentile(energy, 10) < energy.max() / 10


def test_festival_speaks_russian(tmp_path: Path) -> None:
    out = tmp_path / "x.wav"
    # The cue with digits, « » and a hyphen: festival's Russian rules stop at each of them.
    done = subprocess.run([sys.executable, "-m", "narrator", "say", "--cue", "confirm_forfeit",
                           "--param", "seat=10", "--lang", "ru", "--voice", "festival",
                           "--out", str(out)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, check=False, env=_env(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "espeak-ng speaks" not in done.stderr
    clip = read_wav(out)
    assert clip.rate == 16000 and clip.seconds > 4.0


def test_festival_gets_words_it_can_read() -> None:
    assert _festival_text("Скажите «да» — ПИН-код: 0471, порт 8080, 10.0.0.7.") == (
        "Скажите да ПИН-код: ноль четыре семь один, порт восемь тысяч восемьдесят, "
        "десять точка ноль точка ноль точка семь.")


def test_a_neural_voice_renders_outside_the_daemon(tmp_path: Path) -> None:
    """The process that asks for speech stays small; the model lives in the child."""
    code = (
        "import json\n"
        "from pathlib import Path\n"
        "from narrator.voice.voice_config import VoiceSettings\n"
        "from narrator.voice.speech import speech_cache\n"
        f"c = speech_cache(VoiceSettings(voice='hibari', cache_dir=Path({str(tmp_path)!r})))\n"
        "c.prepare(['The city falls asleep.', 'Player number seven, your minute.'])\n"
        "child = c.renderer.peak_rss_mb\n"
        "c.close()\n"
        "status = Path('/proc/self/status').read_text().splitlines()\n"
        "own = next(int(s.split()[1]) for s in status if s.startswith('VmHWM:')) / 1024\n"
        "print(json.dumps({'own': own, 'child': child, 'rendered': c.rendered}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, check=False, env=_env(tmp_path))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["rendered"] == 2
    assert result["own"] < 150 < result["child"]


def test_voices_lists_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["voices", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    espeak = [r for r in rows if r["voice"] == "espeak-ng"]
    assert {r["lang"] for r in espeak} == {"en", "ru"} and all(r["installed"] for r in espeak)
    assert sum(r["default"] for r in rows) == 2  # one per language
    assert all(r["install"] for r in rows if not r["installed"])


def test_a_wrong_voice_in_the_config_is_exit_2(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "narrator.yaml"
    config.write_text("voice:\n  name: robot\n", encoding="utf-8")
    assert main(["run", "--config", str(config)]) == 2
    err = capsys.readouterr().err.strip()
    assert str(config) in err and "voice.name: voice 'robot': unknown voice" in err
    assert len(err.splitlines()) == 1


def _env(home: Path) -> dict[str, str]:
    import os

    return dict(os.environ, XDG_CACHE_HOME=str(home / "cache"))
