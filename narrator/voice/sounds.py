"""The cue sounds (gong, chime, tick, beat) from sounds/, loaded once at the speech's loudness."""

from __future__ import annotations

import wave
from pathlib import Path

from narrator.errors import DeviceError
from narrator.voice.loudness import normalised
from narrator.voice.speaker import SOUND_NAMES
from narrator.voice.wav import Clip, read_wav


class SoundBank:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._clips: dict[str, Clip] = {}

    def clip(self, name: str) -> Clip:
        if name not in SOUND_NAMES:
            raise ValueError(f"no cue sound {name!r} (known: {', '.join(SOUND_NAMES)})")
        clip = self._clips.get(name)
        if clip is None:
            path = self.folder / f"{name}.wav"
            try:
                clip = normalised(read_wav(path))
            except (OSError, wave.Error, EOFError) as exc:
                raise DeviceError(f"cannot read cue sound {path}: {exc} "
                                  "(scripts/make-sounds makes them)") from None
            self._clips[name] = clip
        return clip

    def load_all(self) -> None:
        for name in SOUND_NAMES:
            self.clip(name)
