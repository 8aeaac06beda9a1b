"""Renderers whose engine lives in a child process, never in the daemon's memory.

A neural voice holds ~200 MB while loaded and festival ~230 MB; the daemon must stay
under 150 MB with any voice. So the engine runs in a child started on the first render,
kept while renders keep coming, and ended after IDLE_SECONDS without one. A game says
texts that were not prepared ahead now and then (a list of three seats); a cold start
costs 3-12 s of silence, so the child stays up for a quarter of an hour after the last
render: through a game's day, but not for a box left idle all evening.

Two kinds: `WorkerRenderer` (hibari, piper: `python -m narrator.voice.render_worker`, one
JSON line per request and per answer) and `FestivalRenderer` (`festival --pipe`, one
Scheme expression per request and a marker line per answer).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
import unicodedata
from pathlib import Path
from typing import IO, Any

from narrator.errors import DeviceError
from narrator.phrases import numbers
from narrator.voice.wav import check_rendered

IDLE_SECONDS = 900.0
START_SECONDS = 120.0  # loading a model on a Pi Zero is slow
RENDER_SECONDS = 120.0


class ChildRenderer:
    """The common part: one child at a time, serialised requests, idle shut-down."""

    def __init__(self, name: str, key: str, idle: float = IDLE_SECONDS) -> None:
        self.name = name
        self._key = key
        self.idle = idle
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._timer: threading.Timer | None = None
        self.lines = Lines(None)
        self.peak_rss_mb = 0.0  # the largest child seen (VmHWM), for the bench
        self.starts = 0

    @property
    def key(self) -> str:
        return self._key

    # -- what a kind of child says
    def argv(self) -> list[str]:
        raise NotImplementedError

    def on_start(self, proc: subprocess.Popen[bytes]) -> None:
        """Wait until the child is ready (raise DeviceError if it is not)."""

    def ask(self, proc: subprocess.Popen[bytes], text: str, path: Path) -> None:
        raise NotImplementedError

    # -- the machinery
    def render(self, text: str, path: Path) -> None:
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp.wav")
        with self._lock:
            self._disarm()
            proc = self._proc if self._proc is not None and self._proc.poll() is None else None
            if proc is None:
                proc = self._start()
            try:
                self.ask(proc, text, tmp)
            except DeviceError as exc:
                self._stop()
                raise DeviceError(f"{exc}{_ending(proc)}") from None
            finally:
                self._note_rss(proc)
                self._arm()
        check_rendered(tmp, f"{self.name} rendered nothing for {text!r}")
        os.replace(tmp, path)

    def pid(self) -> int | None:
        """The running child's process id (None when there is none)."""
        proc = self._proc
        return proc.pid if proc is not None and proc.poll() is None else None

    def start(self) -> None:
        """Start the child now if it is not running (to learn what it says when ready)."""
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._start()
                self._arm()

    def close(self) -> None:
        with self._lock:
            self._disarm()
            self._stop()

    def _start(self) -> subprocess.Popen[bytes]:
        try:
            proc = subprocess.Popen(self.argv(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, env=dict(os.environ, PYTHONUNBUFFERED="1"))
        except OSError as exc:
            raise DeviceError(f"cannot start the {self.name} voice: {exc}") from None
        self._proc = proc
        self.lines = Lines(proc.stdout)
        self.starts += 1
        try:
            self.on_start(proc)
        except DeviceError as exc:
            self._stop()
            raise DeviceError(f"{exc}{_ending(proc)}") from None
        return proc

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError, ValueError):
            if proc.stdin is not None:
                proc.stdin.close()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def _idle_stop(self) -> None:
        with self._lock:
            self._timer = None
            self._stop()

    def _arm(self) -> None:
        if self._proc is None:
            return
        timer = threading.Timer(self.idle, self._idle_stop)
        timer.daemon = True
        timer.start()
        self._timer = timer

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _note_rss(self, proc: subprocess.Popen[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    self.peak_rss_mb = max(self.peak_rss_mb, int(line.split()[1]) / 1024)


def _ending(proc: subprocess.Popen[bytes]) -> str:
    """How a child that failed ended, for the reason told: a crash is named (a segfault on
    import was how onnxruntime 1.32 failed on arm64)."""
    code = proc.poll()
    if code is None or code == 0:
        return ""
    if code < 0:
        with contextlib.suppress(ValueError):
            return f" (killed by {signal.Signals(-code).name})"
        return f" (killed by signal {-code})"
    return f" (exit status {code})"


class Lines:
    """A child's output, line by line, with a time limit on each (select on the raw pipe:
    a buffered reader could hold a line that select would never report)."""

    def __init__(self, stream: IO[bytes] | None) -> None:
        self.fd = stream.fileno() if stream is not None else -1
        self.buffer = b""

    def read(self, seconds: float, what: str) -> str:
        deadline = time.monotonic() + seconds
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.fd], [], [], max(0.0, left)) if left > 0 else ([], 0, 0)
            if not ready:
                raise DeviceError(f"{what}: no answer in {seconds:.0f} s")
            chunk = os.read(self.fd, 65536)
            if not chunk:
                raise DeviceError(f"{what}: the process ended")
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", "replace")


def send(proc: subprocess.Popen[bytes], line: str, what: str) -> None:
    try:
        assert proc.stdin is not None
        proc.stdin.write((line + "\n").encode("utf-8"))
        proc.stdin.flush()
    except (OSError, ValueError) as exc:
        raise DeviceError(f"{what}: {exc}") from None


class WorkerRenderer(ChildRenderer):
    """hibari or piper in `python -m narrator.voice.render_worker ENGINE SPEED`."""

    def __init__(self, engine: str, speed: float, version: str, idle: float = IDLE_SECONDS) -> None:
        super().__init__(engine, f"{engine}|{version}|speed={speed:.2f}", idle)
        self.engine = engine
        self.speed = speed

    def argv(self) -> list[str]:
        return [sys.executable, "-m", "narrator.voice.render_worker", self.engine, f"{self.speed}"]

    def on_start(self, proc: subprocess.Popen[bytes]) -> None:
        said = answer(self.lines.read(START_SECONDS, f"the {self.name} voice"))
        if "error" in said:
            raise DeviceError(f"the {self.name} voice: {said['error']}")

    def ask(self, proc: subprocess.Popen[bytes], text: str, path: Path) -> None:
        what = f"the {self.name} voice"
        send(proc, json.dumps({"text": text, "path": str(path)}, ensure_ascii=False), what)
        said = answer(self.lines.read(RENDER_SECONDS, what))
        if "error" in said:
            raise DeviceError(f"{what} cannot say {text!r}: {said['error']}")


def answer(line: str) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError:
        return {"error": f"unexpected output {line.strip()[:200]!r}"}
    return data if isinstance(data, dict) else {"error": f"unexpected output {line!r}"}


FESTIVAL_RU_VOICE = "voice_msu_ru_nsh_clunits"


class FestivalRenderer(ChildRenderer):
    """festival with its Russian voice, fed Scheme on a pipe (`festival --pipe`)."""

    def __init__(self, version: str, voice: str = FESTIVAL_RU_VOICE, idle: float = IDLE_SECONDS,
                 speed: float = 1.0) -> None:
        super().__init__("festival", f"festival|{version}|{voice}|speed={speed:.2f}", idle)
        self.voice = voice
        self.speed = speed
        self._n = 0

    def argv(self) -> list[str]:
        # A smaller Scheme heap than the default: ~210 MB instead of ~500 MB, enough for the
        # longest cue.
        return ["festival", "--heap", "1000000", "--pipe"]

    def on_start(self, proc: subprocess.Popen[bytes]) -> None:
        stretch = 1.0 / max(0.5, min(2.0, self.speed))
        self._exchange(proc, f"({self.voice}) (Parameter.set 'Duration_Stretch {stretch:.3f})",
                       START_SECONDS)

    def ask(self, proc: subprocess.Popen[bytes], text: str, path: Path) -> None:
        said = _scheme_string(_festival_text(text))
        self._exchange(proc, f'(utt.save.wave (utt.synth (Utterance Text {said})) '
                       f'{_scheme_string(str(path))} \'riff)', RENDER_SECONDS)

    def _exchange(self, proc: subprocess.Popen[bytes], expr: str, seconds: float) -> None:
        self._n += 1
        marker = f"NARRATOR-DONE-{self._n}"
        # Festival buffers its output on a pipe: flush, or the marker never comes.
        send(proc, f'{expr}\n(format t "{marker}\\n") (fflush nil)', "festival")
        while self.lines.read(seconds, "festival").strip() != marker:
            pass  # festival's own chatter


def _festival_text(text: str) -> str:
    """Festival's Russian letter-to-sound rules stop at a character they do not know
    (« », a dash) and render nothing: keep letters, digits and plain punctuation."""
    # Nor does it read digits (the organiser page's address and PIN): Russian words.
    text = re.sub(r"(?<=\d)\.(?=\d)", " точка ", text)
    text = re.sub(r"\d+", _digits_in_words, text)
    out = []
    for ch in text:
        if unicodedata.category(ch) == "Mn":
            continue  # a stress mark (U+0301): espeak-ng reads it, festival's rules stop at it
        if ch.isalnum() or ch.isspace() or ch in ".,!?:;-'":
            out.append(ch)
        else:
            out.append(" ")
    # A punctuation mark on its own ("речь , одна") trips the rules as well.
    return re.sub(r"\s+([.,!?:;])", r"\1", " ".join("".join(out).split()))


def _digits_in_words(match: re.Match[str]) -> str:
    digits = match.group(0)
    if len(digits) > 6 or (len(digits) > 1 and digits.startswith("0")):
        return " ".join(numbers.cardinal(int(d), "ru") for d in digits)
    return numbers.cardinal(int(digits), "ru")


def _scheme_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'
