"""Rendered speech on disk, one WAV per (engine, voice, language, rate, text), at one loudness.

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

from narrator.errors import ConfigError, DeviceError
from narrator.voice import loudness
from narrator.voice.estimate import DEFAULT_RATE, estimate_seconds
from narrator.voice.tts import Renderer
from narrator.voice.wav import Clip, read_wav, write_wav

log = logging.getLogger(__name__)


MEMORY_BUDGET = 24 * 1024 * 1024  # bytes of samples kept in memory
GIVE_UP = 3  # failed renders in a row after which a voice is left to its fallback
RENDER_ATTEMPTS = 4
SHORTEST = 0.85  # a render shorter than this share of the estimate was cut short


class WavCache:
    def __init__(self, folder: Path, renderer: Renderer, lang: str,
                 memory: int = MEMORY_BUDGET, fallback: WavCache | None = None,
                 voice: str = "") -> None:
        self.folder = folder
        self.renderer = renderer
        # espeak-ng's cache, for a clip this voice fails to render (logged once).
        self.fallback = fallback
        self.voice = voice or renderer.key
        self._failed: set[str] = set()
        self._failures = 0
        self.failure: str | None = None  # why this voice first failed (its fallback spoke)
        self.lang = lang
        self.memory = memory
        self._clips: OrderedDict[str, Clip] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.rendered = 0  # how many texts this cache had to render (not found on disk)

    def path_for(self, text: str) -> Path:
        key = f"{self.renderer.key}\0{loudness.VERSION}\0{self.lang}\0{text}".encode()
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
        if self.fallback is not None and (text in self._failed or self._failures >= GIVE_UP):
            return self.fallback.clip(text)
        path = self.path_for(text)
        clip = self._read(path)
        if clip is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            try:
                clip = self._render(text, path)
            except (DeviceError, ConfigError) as exc:
                if self.fallback is None:
                    raise
                return self._fall_back(text, exc)
            with self._lock:
                self._failures = 0
        self._keep(text, clip)
        return clip

    def _render(self, text: str, path: Path) -> Clip:
        # espeak-ng on a busy machine sometimes renders nothing, or a clip cut short: try
        # again, and check the length against the estimate (about 4 % off on average).
        # A voice in a child process answers or fails for good: one attempt, then the
        # fallback.
        espeak = getattr(self.renderer, "rate", None) is not None
        shortest = self._shortest(text) if espeak else 1 / 1000
        best: Clip | None = None
        error: DeviceError | None = None
        for attempt in range(1, (RENDER_ATTEMPTS if espeak else 1) + 1):
            try:
                self.renderer.render(text, path)
                clip = read_wav(path)
            except DeviceError as exc:
                error = exc
                log.warning("rendering %r, attempt %d: %s", text, attempt, exc)
                continue
            except (OSError, wave.Error, EOFError) as exc:
                error = DeviceError(f"{self.voice} wrote an unreadable file for {text!r}: {exc}")
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
        # Every voice renders at its own level: stored at the box's one loudness (the
        # longest try, if all were short: better a clipped cue than none).
        write_wav(path, loudness.normalised(best))
        with self._lock:
            self.rendered += 1
        return read_wav(path)  # as 16-bit: the same samples a later start reads

    def _shortest(self, text: str) -> float:
        rate = getattr(self.renderer, "rate", DEFAULT_RATE)
        try:
            return SHORTEST * estimate_seconds(text, self.lang, int(rate))
        except ValueError:  # a language without an estimate: only "nothing" is caught
            return 1 / 1000

    def _fall_back(self, text: str, exc: Exception) -> Clip:
        assert self.fallback is not None
        with self._lock:
            first = not self._failed
            if first:
                self.failure = " ".join(str(exc).split())
            self._failed.add(text)
            self._failures += 1
        if first:
            log.error("the %s voice failed (%s): espeak-ng speaks what it cannot", self.voice, exc)
        return self.fallback.clip(text)

    def close(self) -> None:
        """End the renderer's child process, if it has one (it starts again when needed)."""
        close = getattr(self.renderer, "close", None)
        if close is not None:
            close()

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
