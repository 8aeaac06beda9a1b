"""Whether voice commands are on, and if not, why: told once at start-up, shown on the
organiser's page and by the status LED, changed when the microphone goes away mid-game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

# Why voice commands are off: each has a spoken cue (phrase books) and a page text
# (narrator/web/words) of the same name.
OFF_REASONS = ("voice_off", "voice_no_model", "voice_mic_lost")


def install_hint(lang: str) -> str:
    """How to give the box a speech model for `lang`: for whoever sets the box up (the
    page and the log say it; the table hears only that voice commands are off)."""
    return f"scripts/install-pi --vosk-model {lang}=DIR"


@dataclass
class VoiceStatus:
    """`off`: None while voice commands are on, else one of OFF_REASONS; `lang`: the
    language the recognizer was asked for (the page names it when it has no model)."""

    off: str | None = None
    lang: str = "en"
    watchers: list[Callable[[VoiceStatus], None]] = field(default_factory=list)

    @property
    def on(self) -> bool:
        return self.off is None

    def turn_off(self, reason: str) -> None:
        if reason not in OFF_REASONS:
            raise ValueError(f"unknown reason {reason!r}")
        if self.off == reason:
            return
        self.off = reason
        for watcher in list(self.watchers):
            watcher(self)

    def set_language(self, lang: str, heard: bool) -> None:
        """A game in `lang` begins: voice commands are on when a model hears that language,
        else off for want of one. A microphone missing or lost stays so."""
        self.lang = lang
        if self.off in ("voice_off", "voice_mic_lost"):
            return
        off = None if heard else "voice_no_model"
        if off == self.off:
            return
        self.off = off
        for watcher in list(self.watchers):
            watcher(self)

    def to_json(self) -> dict[str, object]:
        return {"on": self.on, "off": self.off, "lang": self.lang}
