"""Rendered speech on disk, one WAV per (engine, voice, language, rate, text).

Rendering takes tens of milliseconds (seconds on a slow Pi); a cue must start at once, so
every cue of the rule set is rendered ahead (`prepare`) onto disk. In memory only the
clips said most recently are kept, up to a byte budget: a rule set's whole cache in both
languages is hundreds of megabytes as samples, more than a Pi Zero has, while reading one
clip back from disk takes a few milliseconds.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import wave
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path

from narrator.errors import DeviceError
from narrator.voice.estimate import DEFAULT_RATE, estimate_seconds
from narrator.voice.tts import Renderer
from narrator.voice.wav import Clip, read_wav, write_wav

log = logging.getLogger(__name__)


MEMORY_BUDGET = 24 * 1024 * 1024  # bytes of samples kept in memory
RENDER_ATTEMPTS = 4
SHORTEST = 0.7  # a render shorter than this share of the estimate was cut short


class WavCache:
    def __init__(self, folder: Path, renderer: Renderer, lang: str,
                 memory: int = MEMORY_BUDGET) -> None:
        self.folder = folder
        self.renderer = renderer
        self.lang = lang
        self.memory = memory
        self._clips: OrderedDict[str, Clip] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.rendered = 0  # how many texts this cache had to render (not found on disk)

    def path_for(self, text: str) -> Path:
        key = f"{self.renderer.key}\0{self.lang}\0{text}".encode()
        return self.folder / f"{self.lang}-{hashlib.sha256(key).hexdigest()[:40]}.wav"

    def loaded(self, text: str) -> Clip | None:
        """The clip if it is already in memory (no disk, no rendering)."""
        clip = self._clips.get(text)
        if clip is not None:
            self._clips.move_to_end(text)
        return clip

    def clip(self, text: str) -> Clip:
        """The clip for `text`: from memory, from disk, or rendered now."""
        clip = self.loaded(text)
        if clip is not None:
            return clip
        path = self.path_for(text)
        clip = self._read(path)
        if clip is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            clip = self._render(text, path)
        self._keep(text, clip)
        return clip

    def _render(self, text: str, path: Path) -> Clip:
        # espeak-ng on a busy machine sometimes renders nothing, or a clip cut short: try
        # again, and check the length against the estimate (about 4 % off on average).
        shortest = self._shortest(text)
        best: Clip | None = None
        error: DeviceError | None = None
        for attempt in range(1, RENDER_ATTEMPTS + 1):
            try:
                self.renderer.render(text, path)
                clip = read_wav(path)
            except DeviceError as exc:
                error = exc
                log.warning("rendering %r, attempt %d: %s", text, attempt, exc)
                continue
            except (OSError, wave.Error, EOFError) as exc:
                error = DeviceError(f"espeak-ng wrote an unreadable file for {text!r}: {exc}")
                log.warning("rendering %r, attempt %d: %s", text, attempt, error)
                continue
            if best is None or clip.frames > best.frames:
                best = clip
            if clip.seconds >= shortest:
                break
            log.warning("rendering %r, attempt %d: %.2f s, shorter than the %.2f s expected",
                        text, attempt, clip.seconds, shortest)
        if best is None:
            assert error is not None
            raise error
        if best.seconds < shortest:
            write_wav(path, best)  # the longest try: better a clipped cue than none
        with self._lock:
            self.rendered += 1
        return best

    def _shortest(self, text: str) -> float:
        rate = getattr(self.renderer, "rate", DEFAULT_RATE)
        try:
            return SHORTEST * estimate_seconds(text, self.lang, int(rate))
        except ValueError:  # a language without an estimate: only "nothing" is caught
            return 1 / 1000

    def _keep(self, text: str, clip: Clip) -> None:
        with self._lock:
            if text in self._clips:
                return
            self._clips[text] = clip
            self._bytes += clip.samples.nbytes
            while self._bytes > self.memory and len(self._clips) > 1:
                _old, dropped = self._clips.popitem(last=False)
                self._bytes -= dropped.samples.nbytes

    def prepare(self, texts: Iterable[str]) -> int:
        """Render every text not on disk yet; returns how many had to be rendered."""
        before = self.rendered
        for text in dict.fromkeys(texts):
            if not text.strip():
                continue
            path = self.path_for(text)
            try:
                on_disk = path.stat().st_size > 44  # more than a bare WAV header
            except OSError:
                on_disk = False
            if not on_disk:
                self.clip(text)
        return self.rendered - before

    @staticmethod
    def _read(path: Path) -> Clip | None:
        try:
            clip = read_wav(path)
        except FileNotFoundError:
            return None
        except (OSError, wave.Error, EOFError) as exc:
            log.warning("re-rendering a damaged cache file %s: %s", path, exc)
            return None
        return clip if clip.frames else None
