"""Text to speech: pyttsx3 with its espeak-ng driver renders a text to a WAV file.

Only `save_to_file` + `runAndWait` are used: pyttsx3's `say()` shells out to aplay,
which bypasses our device choice, volume and failure handling.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import os
import threading
from pathlib import Path
from typing import Any, Protocol

from narrator.errors import ConfigError, DeviceError
from narrator.voice.wav import check_rendered

# espeak-ng holds one synthesiser per process, and pyttsx3 shares one engine per driver:
# renders are serialised.
_LOCK = threading.Lock()
_ENGINE: list[Any] = []
_VOICES: list[str] = []
# runAndWait() returns once espeak-ng has *started*: the driver writes the file from
# espeak's own thread when the message ends, and then reports the utterance finished.
_FINISHED = threading.Event()
WAIT_SECONDS = 60.0


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
            engine = pyttsx3.init("espeak")
        except (RuntimeError, OSError, ImportError) as exc:
            raise DeviceError(f"cannot start espeak-ng through pyttsx3: {exc}") from exc
        engine.connect("finished-utterance", lambda **_: _FINISHED.set())
        _ENGINE.append(engine)
        # Let pyttsx3 tidy up while the interpreter still works (its __del__ fails later).
        atexit.register(_ENGINE.clear)
    return _ENGINE[0]


def _synchronize() -> None:
    from pyttsx3.drivers import _espeak

    _espeak.Synchronize()


def voices() -> list[str]:
    """The espeak-ng voice ids pyttsx3 can use, e.g. "gmw/en-us", "zle/ru"."""
    with _LOCK:
        return _voices()


def _voices() -> list[str]:
    if not _VOICES:
        _VOICES.extend(sorted(str(v.id) for v in _engine().getProperty("voices")))
    return list(_VOICES)


def _known(voice: str) -> bool:
    # espeak-ng takes an id ("gmw/en-us"), its last part ("en-us"), and a variant ("+f3").
    base = voice.split("+")[0]
    return any(base in (v, v.rsplit("/", 1)[-1]) for v in _voices())


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
            if not _known(self.voice):
                # espeak-ng would quietly speak with some other voice.
                problem = f"espeak-ng has no voice {self.voice!r}"
                raise ConfigError("settings", "voice", problem)
            engine.setProperty("voice", self.voice)
            engine.setProperty("rate", self.rate)
            engine.setProperty("volume", 1.0)
            # The espeak driver prints a line for every saved file.
            # runAndWait() cancels whatever espeak-ng still calls playing; the end of the
            # last message may still be on its way, and the cancel would then hit ours.
            _synchronize()
            _FINISHED.clear()
            with contextlib.redirect_stdout(io.StringIO()):
                engine.save_to_file(text, str(tmp))
                engine.runAndWait()
                finished = _FINISHED.wait(WAIT_SECONDS)
        if not finished:
            raise DeviceError(f"espeak-ng did not finish {text!r} in {WAIT_SECONDS:.0f} s")
        check_rendered(tmp, f"espeak-ng rendered nothing for {text!r} (voice {self.voice})")
        os.replace(tmp, path)
