"""Voice settings from a config file section: each problem names the key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from narrator.errors import ConfigError
from narrator.voice.voice_config import VoiceSettings


def test_defaults_and_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    plain = VoiceSettings()
    assert plain.voice_id == "gmw/en-us"
    assert plain.cache_path == tmp_path / "narrator" / "voice"
    assert (plain.sounds_path / "gong.wav").is_file()
    ru = VoiceSettings.from_mapping({"language": "ru", "rate": 150, "volume": 1, "device": 2,
                                     "cache_dir": str(tmp_path / "c"), "ambience_volume": 0.1})
    assert ru.voice_id == "zle/ru" and ru.volume == 1.0 and ru.device == 2
    assert ru.cache_path == tmp_path / "c"


@pytest.mark.parametrize(("data", "message"), [
    ({"langauge": "en"}, "box.yaml: voice.langauge: unknown key"),
    ({"language": "de"}, "box.yaml: voice.language: 'de' is out of range"),
    ({"rate": "fast"}, "box.yaml: voice.rate: expected a whole number"),
    ({"rate": 1000}, "box.yaml: voice.rate: 1000 is out of range"),
    ({"volume": True}, "box.yaml: voice.volume: expected a number"),
    ({"volume": 1.5}, "box.yaml: voice.volume: 1.5 is out of range"),
    ({"device": [1]}, "box.yaml: voice.device: expected a device name or index"),
    ({"cache_dir": 3}, "box.yaml: voice.cache_dir: expected a folder"),
    ({"voice": 3}, "box.yaml: voice.voice: expected text"),
])
def test_bad_settings(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        VoiceSettings.from_mapping(data, "box.yaml")
    assert str(info.value).startswith(message)
