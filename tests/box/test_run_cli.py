"""`narrator run` refuses a wrong config or pin map with one line and exit 2, before it
touches any device."""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.cli import main


def test_a_wrong_config_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "narrator.yaml"
    config.write_text("game:\n  rules: sport\n  langauge: en\n")
    assert main(["run", "--config", str(config)]) == 2
    err = capsys.readouterr().err.strip()
    assert str(config) in err and "langauge" in err and "\n" not in err


def test_a_wrong_pin_map_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    pins = tmp_path / "pins.yaml"
    pins.write_text("name: broken\nseats: 10\npads: {pins: [5, 5, 6, 7, 8, 9, 10, 11, 12, 13]}\n")
    assert main(["run", "--pins", str(pins), "--keypad", "none",
                 "--state-dir", str(tmp_path / "state"), "--cache-dir", str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err.strip()
    assert str(pins) in err and "\n" not in err
