"""`narrator say`: to a WAV with no sound card, or through the device."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from narrator.cli import main
from narrator.voice.cache import WavCache
from narrator.voice.estimate import estimate_seconds
from narrator.voice.tts import Pyttsx3Renderer
from narrator.voice.voice_config import VoiceSettings
from narrator.voice.wav import read_wav
from tests.voice.conftest import AudioHome


def test_cue_to_a_wav(tmp_path: Path) -> None:
    out = tmp_path / "votes.wav"
    argv = ["say", "--cue", "vote_count", "--param", "seat=3", "--param", "votes=5",
            "--lang", "ru", "--out", str(out)]
    assert main(argv) == 0
    clip = read_wav(out)
    assert clip.rate == 22050
    expected = estimate_seconds("Игрок номер три: пять голосов.", "ru")
    assert clip.seconds == pytest.approx(expected, rel=0.25)


@pytest.mark.parametrize(("argv", "message"), [
    (["say"], "give a TEXT or --cue ID"),
    (["say", "hello", "--cue", "paused"], "give a TEXT or --cue ID"),
    (["say", "--cue", "nope"], "no cue 'nope'"),
    (["say", "--cue", "vote_count", "--param", "seat=3"], "takes parameters seat, votes"),
    (["say", "--cue", "tie", "--param", "seats=3,x"], "a list holds seat numbers"),
    (["say", "--cue", "tie", "--param", "seats"], "expected NAME=VALUE"),
    (["say", "hello", "--param", "seat=3"], "parameters go with --cue"),
    (["say", "hello", "--volume", "2"], "voice.volume: 2.0 is out of range"),
    (["say", "hello", "--out", "/no/such/folder/x.wav"], "no such folder"),
])
def test_bad_arguments_exit_2(argv: list[str], message: str,
                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_cue_through_the_device(audio_home: AudioHome) -> None:
    done = audio_home.run("-m", "narrator", "say", "--cue", "night_victims",
                          "--param", "seats=3,7")
    assert done.returncode == 0, done.stderr
    # What the device got is the clip `say` rendered into its cache ($XDG_CACHE_HOME).
    settings = VoiceSettings(cache_dir=audio_home.home / "cache" / "narrator" / "voice")
    cache = WavCache(settings.cache_path, Pyttsx3Renderer(settings.voice_id, settings.rate), "en")
    path = cache.path_for("Tonight players number three and seven leave us.")
    played = np.fromfile(audio_home.out, dtype=np.float32)
    assert np.array_equal(played, read_wav(path).samples)


def test_a_missing_device_is_reported(audio_home: AudioHome) -> None:
    done = audio_home.run("-m", "narrator", "say", "Pause.", "--device", "flaky")
    assert done.returncode == 1
    assert "audio device failed" in done.stderr


@pytest.mark.parametrize(("keypad", "extra", "place"), [
    ("terminal", [], "The answer follows on the keypad's screen."),
    ("evdev", [], "The answer follows on the answer light."),  # a USB keypad has no screen
    ("terminal", ["--answers", "light"], "The answer follows on the answer light."),
    ("evdev", ["--answers", "screen"], "The answer follows on the keypad's screen."),
])
def test_a_cue_names_where_this_box_shows_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  keypad: str, extra: list[str], place: str) -> None:
    """As the running box (Service.answer_place): a laptop on mock pins with the terminal
    keypad shows answers on its screen; `say` used to name the light whatever the box."""
    from narrator.cli import build_parser
    from narrator.cli.say import text_of

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    config = tmp_path / "narrator.yaml"
    config.write_text(f"keypad: {keypad}\nstate_dir: {tmp_path / 'state'}\n")
    args = build_parser().parse_args(["say", "--cue", "angel_wake", "--input", "keypad",
                                      "--config", str(config), *extra])
    assert text_of(args).endswith(place)
