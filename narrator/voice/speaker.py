"""The Speaker port: how the daemon makes the box speak.

Two implementations: `narrator.voice.pyttsx3_speaker.Pyttsx3Speaker` (espeak-ng through
pyttsx3, a WAV cache, sounddevice) and `narrator.voice.fake.FakeSpeaker` (records, and
takes the estimated time on a Clock).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

# The cue sounds in sounds/ (made by scripts/make-sounds).
SOUND_NAMES = ("gong", "chime", "tick", "beat")


class SoundDevice(Protocol):
    """The device a speaker plays through (narrator.voice.playback.Player): it can fail (a
    USB speaker unplugged) and come back; `on_change` hears each (from its own thread)."""

    failed: bool
    last_error: str | None
    on_change: Callable[[], None] | None


class Speaker(Protocol):
    @property
    def device(self) -> SoundDevice | None:
        """The sound device followed for faults (None: one that never fails, a fake's)."""
        ...

    async def say(self, text: str) -> None:
        """Speak `text`; return when it has been played to the end (or has failed)."""
        ...

    async def sound(self, name: str) -> None:
        """Play a cue sound (one of SOUND_NAMES) to its end."""
        ...

    def seconds(self, text: str) -> float:
        """How long `text` takes to say."""
        ...

    def prepare(self, texts: Iterable[str]) -> int:
        """Make saying these texts start at once later; returns how many were new."""
        ...

    def ambience(self, on: bool) -> None:
        """Start or stop the quiet night ambience (if the settings give it a volume)."""
        ...
