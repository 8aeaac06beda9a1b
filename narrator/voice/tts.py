"""Text to speech: pyttsx3 with its espeak-ng driver renders a text to a WAV file.

Only `save_to_file` + `runAndWait` are used: pyttsx3's `say()` shells out to aplay,
which bypasses our device choice, volume and failure handling.

espeak-ng runs in a child process (`python -m narrator.voice.render_worker espeak`), never
in the daemon: its C library crashed once in ~30 test-suite runs (a segfault inside
runAndWait, cause unknown), and in the daemon that takes the game down until systemd
restarts it. In a child a crash costs one clip, which the cache renders again.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any, Protocol

from narrator.errors import ConfigError, DeviceError
from narrator.voice.child_renderer import IDLE_SECONDS, START_SECONDS, ChildRenderer, answer, send
from narrator.voice.wav import check_rendered

# espeak-ng holds one synthesiser per process, and pyttsx3 shares one engine per driver:
# renders are serialised (in the child; and one child serves every renderer of a process).
_LOCK = threading.Lock()
_ENGINE: list[Any] = []
# runAndWait() returns once espeak-ng has *started*: the driver writes the file from
# espeak's own thread when the message ends, and then reports the utterance finished.
_FINISHED = threading.Event()
WAIT_SECONDS = 60.0
RENDER_SECONDS = WAIT_SECONDS + 10.0


class Renderer(Protocol):
    @property
    def key(self) -> str:
        """What the sound of a text depends on besides the text (engine, voice, rate)."""
        ...

    def render(self, text: str, path: Path) -> None: ...


class Pyttsx3Renderer:
    """espeak-ng through pyttsx3, rendered by the process's one espeak child."""

    def __init__(self, voice: str, rate: int) -> None:
        self.voice = voice
        self.rate = rate

    @property
    def key(self) -> str:
        return f"pyttsx3-espeak|{self.voice}|{self.rate}"

    def render(self, text: str, path: Path) -> None:
        child = espeak_child()
        with child.request_lock:
            # The voice list comes with the child's first line: known before the first ask.
            if not known_voice(self.voice, child.voices()):
                # espeak-ng would quietly speak with some other voice.
                raise ConfigError("settings", "voice", f"espeak-ng has no voice {self.voice!r}")
            child.voice, child.rate = self.voice, self.rate
            child.render(text, path)


def voices() -> list[str]:
    """The espeak-ng voice ids pyttsx3 can use, e.g. "gmw/en-us", "zle/ru"."""
    return espeak_child().voices()


def known_voice(voice: str, ids: list[str]) -> bool:
    # espeak-ng takes an id ("gmw/en-us"), its last part ("en-us"), and a variant ("+f3").
    base = voice.split("+")[0]
    return any(base in (v, v.rsplit("/", 1)[-1]) for v in ids)


class EspeakChild(ChildRenderer):
    """`python -m narrator.voice.render_worker espeak`: first line {"ready": "espeak",
    "voices": [...]}, then one {"text", "path", "voice", "rate"} request per render."""

    def __init__(self, idle: float = IDLE_SECONDS) -> None:
        super().__init__("espeak-ng", "pyttsx3-espeak", idle)
        self.request_lock = threading.Lock()  # voice, rate and render go together
        self.voice = ""
        self.rate = 0
        self._voices: list[str] = []

    def argv(self) -> list[str]:
        return [sys.executable, "-m", "narrator.voice.render_worker", "espeak"]

    def on_start(self, proc: Any) -> None:
        said = answer(self.lines.read(START_SECONDS, "espeak-ng"))
        if "error" in said:
            raise DeviceError(f"cannot start espeak-ng through pyttsx3: {said['error']}")
        found = said.get("voices")
        if isinstance(found, list) and not self._voices:
            self._voices = sorted(str(v) for v in found)

    def ask(self, proc: Any, text: str, path: Path) -> None:
        request = {"text": text, "path": str(path), "voice": self.voice, "rate": self.rate}
        send(proc, json.dumps(request, ensure_ascii=False), "espeak-ng")
        said = answer(self.lines.read(RENDER_SECONDS, "espeak-ng"))
        if "error" in said:
            raise DeviceError(f"espeak-ng cannot say {text!r}: {said['error']}")

    def voices(self) -> list[str]:
        if not self._voices:
            self.start()
        return list(self._voices)


_CHILD: list[EspeakChild] = []
_CHILD_LOCK = threading.Lock()


def espeak_child() -> EspeakChild:
    with _CHILD_LOCK:
        if not _CHILD:
            _CHILD.append(EspeakChild())
            atexit.register(_CHILD[0].close)
        return _CHILD[0]


# -- in the child: the synthesiser itself

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


def engine_voices() -> list[str]:
    return sorted(str(v.id) for v in _engine().getProperty("voices"))


def render_here(voice: str, rate: int, text: str, path: Path) -> None:
    """Render in this process (the espeak child's side of a request)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp.wav")
    with _LOCK:
        engine = _engine()
        engine.setProperty("voice", voice)
        engine.setProperty("rate", rate)
        engine.setProperty("volume", 1.0)
        # runAndWait() cancels whatever espeak-ng still calls playing; the end of the
        # last message may still be on its way, and the cancel would then hit ours.
        _synchronize()
        _FINISHED.clear()
        # The espeak driver prints a line for every saved file.
        with contextlib.redirect_stdout(io.StringIO()):
            engine.save_to_file(text, str(tmp))
            engine.runAndWait()
            finished = _FINISHED.wait(WAIT_SECONDS)
    if not finished:
        raise DeviceError(f"espeak-ng did not finish {text!r} in {WAIT_SECONDS:.0f} s")
    check_rendered(tmp, f"espeak-ng rendered nothing for {text!r} (voice {voice})")
    os.replace(tmp, path)
