"""The voice's settings: language, espeak-ng voice, rate, volume, output device, cache."""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from narrator.errors import ConfigError
from narrator.phrases.numbers import LANGUAGES
from narrator.voice.estimate import DEFAULT_RATE

DEFAULT_VOICES = {"en": "gmw/en-us", "ru": "zle/ru"}
OTHER_VOICES = ("hibari", "piper", "festival")  # not espeak-ng (see voices.py)


def _sounds_dir() -> Path:
    """The cue sounds: next to the package in a checkout (scripts/make-sounds writes them),
    or in <prefix>/share/narrator/sounds where pip installed them (pyproject data-files)."""
    checkout = Path(__file__).resolve().parents[2] / "sounds"
    installed = Path(sys.prefix) / "share" / "narrator" / "sounds"
    return checkout if checkout.is_dir() or not installed.is_dir() else installed


SOUNDS_DIR = _sounds_dir()


@dataclass(frozen=True, slots=True)
class VoiceSettings:
    language: str = "en"
    voice: str | None = None  # a voice (see voices.py); None: the best installed one
    rate: int = DEFAULT_RATE  # words per minute
    volume: float = 1.0  # 0..1, the same for every cue, day and night
    device: str | int | None = None  # sounddevice output: a name (or part of one), an index
    cache_dir: Path | None = None  # None: $XDG_CACHE_HOME/narrator/voice
    sounds_dir: Path | None = None  # None: sounds/ of the checkout
    ambience_volume: float = 0.0  # night ambience; 0 turns it off
    sample_rate: int = 22050  # the output stream's; espeak-ng renders at 22050

    def __post_init__(self) -> None:
        problems = {
            "language": self.language in LANGUAGES,
            "rate": 40 <= self.rate <= 400,
            "volume": 0.0 <= self.volume <= 1.0,
            "ambience_volume": 0.0 <= self.ambience_volume <= 1.0,
            "sample_rate": 8000 <= self.sample_rate <= 192000,
        }
        for key, ok in problems.items():
            if not ok:
                value = getattr(self, key)
                raise ConfigError("settings", f"voice.{key}", f"{value!r} is out of range")

    @property
    def voice_id(self) -> str:
        """The espeak-ng voice id: the one named, or the language's (also the fallback's)."""
        name, _, detail = (self.voice or "").partition(":")
        if name in ("espeak", "espeak-ng"):
            return detail or DEFAULT_VOICES[self.language]
        if not self.voice or name in OTHER_VOICES or name == "pack":
            return DEFAULT_VOICES[self.language]
        return self.voice

    @property
    def cache_path(self) -> Path:
        if self.cache_dir is not None:
            return self.cache_dir
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        return Path(base) / "narrator" / "voice"

    @property
    def sounds_path(self) -> Path:
        return self.sounds_dir if self.sounds_dir is not None else SOUNDS_DIR

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: str = "settings",
                     prefix: str = "voice") -> VoiceSettings:
        """Settings from a config file's section; every problem names `source` and the key."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            where = f"{prefix}.{key}"
            if key not in fields:
                raise ConfigError(source, where, f"unknown key (known: {', '.join(fields)})")
            if key in ("rate", "sample_rate"):
                if isinstance(value, bool) or not isinstance(value, int):
                    raise ConfigError(source, where, f"expected a whole number, got {value!r}")
            elif key in ("volume", "ambience_volume"):
                if isinstance(value, bool) or not isinstance(value, int | float):
                    raise ConfigError(source, where, f"expected a number, got {value!r}")
                value = float(value)
            elif key == "device":
                if isinstance(value, bool) or not isinstance(value, int | str | None):
                    raise ConfigError(source, where,
                                      f"expected a device name or index, got {value!r}")
            elif key in ("cache_dir", "sounds_dir"):
                if not isinstance(value, str | None):
                    raise ConfigError(source, where, f"expected a folder, got {value!r}")
                value = None if value is None else Path(value).expanduser()
            elif not isinstance(value, str | None):
                raise ConfigError(source, where, f"expected text, got {value!r}")
            values[key] = value
        try:
            return cls(**values)
        except ConfigError as exc:
            where = exc.where.replace("voice.", f"{prefix}.", 1)
            raise ConfigError(source, where, exc.problem) from None
