"""The timeline: a game's effects played on a virtual clock, with no daemon and no audio.

It follows the executor contract of effects.py: cues are spoken one after another, each
taking its spoken length; a window starts when everything before it has been spoken and
lasts its full length. So for a given rule set, game and seed the script is fixed: when
two nights differ only in who is alive, their timelines are identical.

Texts and spoken lengths come from outside (the phrase book and either an estimate or
the rendered WAVs), so the engine stays free of I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from narrator.engine.actions import WindowClosed
from narrator.engine.effects import (
    CloseWindow,
    Effect,
    ExtendWindow,
    OpenWindow,
    Param,
    Phase,
    Say,
    Sound,
)
from narrator.engine.rng import Rng

TextOf = Callable[[str, Mapping[str, Param]], str]
SecondsOf = Callable[[str], float]

# Lengths of the cue sounds in sounds/ (kept in step with scripts/make-sounds).
SOUND_SECONDS: dict[str, float] = {"gong": 2.5, "chime": 1.5, "tick": 0.2, "beat": 0.15}


@dataclass(frozen=True, slots=True)
class Spoken:
    at: float
    seconds: float
    phase: str
    cue: str
    text: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class Timeline:
    def __init__(self, text_of: TextOf, seconds_of: SecondsOf,
                 sound_seconds: Mapping[str, float] | None = None,
                 jitter: float = 0.0, jitter_seed: int = 0) -> None:
        self.text_of = text_of
        self.seconds_of = seconds_of
        self.sound_seconds = dict(SOUND_SECONDS if sound_seconds is None else sound_seconds)
        self.now = 0.0
        self.phase = "night-0"
        self.spoken: list[Spoken] = []
        self.window: int = 0
        self.deadline = 0.0
        # Jitter comes from its own generator, seeded apart from the game: it can't say
        # anything about the game's state.
        self.jitter = jitter
        self.rng = Rng(jitter_seed)

    def feed(self, effects: Iterable[Effect], phase: str | None = None) -> None:
        """Play effects on the virtual clock. `phase` labels them until a Phase effect
        says otherwise (by default the label the last Phase effect set)."""
        if phase is not None:
            self.phase = phase
        for effect in effects:
            if isinstance(effect, Phase):
                self.phase = effect.label
            elif isinstance(effect, Say):
                text = self.text_of(effect.cue, effect.params)
                seconds = round(self.seconds_of(text), 3)
                self.spoken.append(Spoken(round(self.now, 3), seconds, self.phase, effect.cue, text))
                self.now += seconds
            elif isinstance(effect, Sound):
                self.now += self.sound_seconds.get(effect.name, 0.0)
            elif isinstance(effect, OpenWindow):
                self.window = effect.window
                extra = 0.0
                if self.jitter and effect.purpose in ("night", "answer"):
                    extra = self.rng.below(1000) / 1000 * self.jitter
                self.deadline = self.now + effect.seconds + extra
            elif isinstance(effect, ExtendWindow) and effect.window == self.window:
                self.deadline += effect.seconds
            elif isinstance(effect, CloseWindow) and effect.window == self.window:
                self.window = 0

    def close_window(self) -> WindowClosed:
        """Let the open window run out: time moves to its end."""
        self.now = max(self.now, self.deadline)
        window, self.window = self.window, 0
        return WindowClosed(window)

    def to_json(self) -> list[dict[str, Any]]:
        return [s.to_json() for s in self.spoken]
