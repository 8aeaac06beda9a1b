"""Settings from YAML and the command line: frozen, defaulted, and wrong ones named exactly."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

import pytest

from narrator.boxconfig import (
    COMMAND_LINE,
    add_arguments,
    from_args,
    load_settings,
    packaged_config_path,
)
from narrator.errors import ConfigError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "narrator.yaml"
    path.write_text(text)
    return path


@pytest.fixture(autouse=True)
def _no_host_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The machine's own /etc/narrator or systemd folders must not leak into the tests.
    for var in ("NARRATOR_CONFIG", "STATE_DIRECTORY", "CACHE_DIRECTORY"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr("narrator.boxconfig.SYSTEM_CONFIG", tmp_path / "absent.yaml")


def test_the_packaged_defaults(tmp_path: Path) -> None:
    s = load_settings()
    assert s.source == str(packaged_config_path())
    assert (s.game.rules, s.game.lang, s.seats) == ("sport", "en", 10)
    assert s.recognizer.engine == "pocketsphinx" and s.keypad.kind == "evdev"
    assert s.state_dir == tmp_path / "state" / "narrator"
    assert s.cache_dir == tmp_path / "cache" / "narrator"
    assert s.voice.language == "en" and s.voice.cache_dir == s.cache_dir / "voice"
    assert s.pins == "pins-10" and s.log_level == "info"
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.log_level = "debug"  # type: ignore[misc]


def test_systemd_folders_win_over_home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/narrator")
    monkeypatch.setenv("CACHE_DIRECTORY", "/var/cache/narrator")
    s = load_settings()
    assert s.state_dir == Path("/var/lib/narrator") and s.cache_dir == Path("/var/cache/narrator")


def test_a_full_file(tmp_path: Path) -> None:
    models = tmp_path / "vosk-ru"
    models.mkdir()
    path = write(tmp_path, f"""
game: {{rules: sport, lang: ru, seats: 10, settings: {{day.first_day_vote: none}}}}
voice: {{name: zle/ru, rate: 150, volume: 0.8, device: hw:1}}
recognizer: {{engine: vosk, model_dir: {models}, wake_word: narrator, device: 2}}
keypad: /dev/input/by-id/usb-keypad-event-kbd
pins: pins-16
state_dir: {tmp_path}/st
cache_dir: {tmp_path}/ca
log_level: debug
""")
    s = load_settings(path)
    assert s.source == str(path)
    assert s.game.lang == "ru" and dict(s.game.settings) == {"day.first_day_vote": "none"}
    assert (s.voice.voice, s.voice.rate, s.voice.volume, s.voice.device) == ("zle/ru", 150, 0.8, "hw:1")
    assert s.voice.language == "ru"
    assert (s.recognizer.engine, s.recognizer.model_dir, s.recognizer.wake_word,
            s.recognizer.device) == ("vosk", models, "narrator", 2)
    assert (s.keypad.kind, s.keypad.device) == ("evdev", "/dev/input/by-id/usb-keypad-event-kbd")
    assert s.pins == "pins-16" and s.state_dir == tmp_path / "st" and s.log_level == "debug"


def test_vosk_without_a_folder_looks_in_the_state_folder(tmp_path: Path) -> None:
    s = load_settings(write(tmp_path, f"recognizer: {{engine: vosk}}\nstate_dir: {tmp_path}\n"
                                      "game: {lang: ru}\n"))
    assert s.recognizer.model_dir == tmp_path / "models" / "ru"


@pytest.mark.parametrize(("text", "where", "problem"), [
    ("colour: red\n", "colour", "unknown key"),
    ("game: {langauge: en}\n", "game.langauge", "unknown key"),
    ("game: {lang: de}\n", "game.lang", "expected one of en, ru"),
    ("game: {rules: chess}\n", "game.rules", "no bundled rule set"),
    ("game: {seats: 7}\n", "game.seats", "sport: 7 players: at least 10 players: 000: “Ten people"),
    ("game: {rules: classic, seats: 7}\n", "game.seats", "at least 8 players: 002: “12+ ideal"),
    ("game: {seats: ten}\n", "game.seats", "whole number"),
    ("game: {settings: {day.first_day_vote: 3}}\n", "game.settings.day.first_day_vote",
     "must be one of normal, none, lift_only"),
    ("game: {settings: {day.speeches: 3}}\n", "game.settings.day.speeches",
     "not a setting of this rule set"),
    ("game: {settings: {day.speech: 2}}\n", "game.settings.day.speech", "must be from 10 to 300"),
    ("game: {preset: cup}\n", "game.preset", "not a preset of this rule set (known: tournament)"),
    ("game: {preset: 3}\n", "game.preset", "expected a preset's name"),
    ("voice: {rate: 1000}\n", "voice.rate", "out of range"),
    ("voice: {pitch: 3}\n", "voice.pitch", "unknown key"),
    ("voice: {language: ru}\n", "voice.language", "game.lang"),
    ("recognizer: {engine: whisper}\n", "recognizer.engine", "pocketsphinx, vosk"),
    ("recognizer: {model_dir: /nonexistent/model}\n", "recognizer.model_dir", "no such folder"),
    ("recognizer: [1]\n", "recognizer", "expected a mapping"),
    ("keypad: joystick\n", "keypad", "evdev, matrix, terminal, none"),
    ("pins: pins-99\n", "pins", "no packaged pin map"),
    ("log_level: loud\n", "log_level", "debug, info, warning, error"),
    ("- a list\n", "(top)", "expected a mapping"),
    ("game: {lang: [\n", "line 2", "not valid YAML"),
])
def test_a_wrong_file_names_file_key_and_problem(tmp_path: Path, text: str, where: str,
                                                  problem: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load_settings(path)
    assert err.value.path == str(path)
    assert err.value.where == where
    assert problem in err.value.problem
    assert str(err.value).count("\n") == 0


def test_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_settings(tmp_path / "nope.yaml")


def test_command_line_overrides_and_blames_itself(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    path = write(tmp_path, "game: {lang: en}\nlog_level: warning\n")
    s = from_args(parser.parse_args(["--config", str(path), "--lang", "ru", "--state-dir",
                                     str(tmp_path / "s"), "--keypad", "terminal"]))
    assert s.game.lang == "ru" and s.voice.language == "ru"
    assert s.state_dir == tmp_path / "s" and s.keypad.kind == "terminal"
    assert s.log_level == "warning"  # not given on the command line: the file's value
    with pytest.raises(ConfigError) as err:
        from_args(parser.parse_args(["--config", str(path), "--seats", "12"]))
    assert err.value.path == COMMAND_LINE and err.value.where == "game.seats"


def test_a_preset_from_the_command_line_with_the_file_s_settings_over_it(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    path = write(tmp_path, "game: {settings: {draw_after_idle_rounds: 5}}\n")
    s = from_args(parser.parse_args(["--config", str(path), "--preset", "tournament"]))
    assert s.game.settings["third_foul"] == "tournament"
    assert s.game.settings["fouls.cancel_vote"] == "nearest"
    assert s.game.settings["draw_after_idle_rounds"] == 5
    with pytest.raises(ConfigError) as err:
        from_args(parser.parse_args(["--config", str(path), "--rules", "club", "--preset", "tournament"]))
    assert err.value.path == COMMAND_LINE and err.value.where == "game.preset"


def test_narrator_config_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, "log_level: error\n")
    monkeypatch.setenv("NARRATOR_CONFIG", str(path))
    assert load_settings().log_level == "error"
