"""Rendered speech on disk, one WAV per (engine, voice, language, rate, text).

Rendering takes tens of milliseconds (seconds on a slow Pi); a cue must start at once, so
every cue of the rule set is rendered ahead (`prepare`) and kept in memory too.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import wave
from collections.abc import Iterable
from pathlib import Path

from narrator.voice.tts import Renderer
from narrator.voice.wav import Clip, read_wav

log = logging.getLogger(__name__)


class WavCache:
    def __init__(self, folder: Path, renderer: Renderer, lang: str) -> None:
        self.folder = folder
        self.renderer = renderer
        self.lang = lang
        self._clips: dict[str, Clip] = {}
        self._lock = threading.Lock()
        self.rendered = 0  # how many texts this cache had to render (not found on disk)

    def path_for(self, text: str) -> Path:
        key = f"{self.renderer.key}\0{self.lang}\0{text}".encode()
        return self.folder / f"{self.lang}-{hashlib.sha256(key).hexdigest()[:40]}.wav"

    def loaded(self, text: str) -> Clip | None:
        """The clip if it is already in memory (no disk, no rendering)."""
        return self._clips.get(text)

    def clip(self, text: str) -> Clip:
        """The clip for `text`: from memory, from disk, or rendered now."""
        clip = self._clips.get(text)
        if clip is not None:
            return clip
        path = self.path_for(text)
        clip = self._read(path)
        if clip is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.renderer.render(text, path)
            with self._lock:
                self.rendered += 1
            clip = read_wav(path)
        self._clips[text] = clip
        return clip

    def prepare(self, texts: Iterable[str]) -> int:
        before = self.rendered
        for text in dict.fromkeys(texts):
            if text.strip():
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
