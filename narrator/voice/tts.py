"""Text to speech: pyttsx3 with its espeak-ng driver renders a text to a WAV file.

Only `save_to_file` + `runAndWait` are used: pyttsx3's `say()` shells out to aplay,
which bypasses our device choice, volume and failure handling.
"""

from __future__ import annotations

import contextlib
import io
import os
import threading
import wave
from pathlib import Path
from typing import Any, Protocol

from narrator.errors import ConfigError, DeviceError

# espeak-ng holds one synthesiser per process, and pyttsx3 shares one engine per driver:
# renders are serialised.
_LOCK = threading.Lock()
_ENGINE: list[Any] = []


class Renderer(Protocol):
    @property
    def key(self) -> str:
        """What the sound of a text depends on besides the text (engine, voice, rate)."""
        ...

    def render(self, text: str, path: Path) -> None: ...


def _engine() -> Any:
    if not _ENGINE:
        import pyttsx3

        try:
            _ENGINE.append(pyttsx3.init("espeak"))
        except (RuntimeError, OSError, ImportError) as exc:
            raise DeviceError(f"cannot start espeak-ng through pyttsx3: {exc}") from exc
    return _ENGINE[0]


def voices() -> list[str]:
    """The espeak-ng voice ids pyttsx3 can use, e.g. "gmw/en-us", "zle/ru"."""
    with _LOCK:
        return sorted(str(v.id) for v in _engine().getProperty("voices"))


class Pyttsx3Renderer:
    def __init__(self, voice: str, rate: int) -> None:
        self.voice = voice
        self.rate = rate

    @property
    def key(self) -> str:
        return f"pyttsx3-espeak|{self.voice}|{self.rate}"

    def render(self, text: str, path: Path) -> None:
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp.wav")
        with _LOCK:
            engine = _engine()
            try:
                engine.setProperty("voice", self.voice)
            except ValueError:
                problem = f"espeak-ng has no voice {self.voice!r}"
                raise ConfigError("settings", "voice", problem) from None
            engine.setProperty("rate", self.rate)
            engine.setProperty("volume", 1.0)
            # The espeak driver prints a line for every saved file.
            with contextlib.redirect_stdout(io.StringIO()):
                engine.save_to_file(text, str(tmp))
                engine.runAndWait()
        try:
            with wave.open(str(tmp), "rb") as w:
                ok = w.getnframes() > 0
        except (OSError, wave.Error, EOFError):
            ok = False
        if not ok:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise DeviceError(f"espeak-ng rendered nothing for {text!r} (voice {self.voice})")
        os.replace(tmp, path)
