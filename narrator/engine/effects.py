"""Effects: what the engine asks the box to do. The daemon carries them out in order.

Effects are values: nobody changes one after the engine made it. They are plain slotted
dataclasses rather than frozen ones because a game makes hundreds of them and frozen
dataclasses cost three times as much to build (the engine bench counts that).

The contract with whoever executes a list of effects:
- `Say` and `Sound` are played one after another, each to its end;
- `OpenWindow` starts a timer once everything before it has been played; when it runs
  out, the executor sends `WindowClosed(window)` back. Only one window is open at a time.
- The other effects are immediate.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

Param = int | str | tuple[int, ...]


@dataclass(slots=True)
class Effect:
    kind: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, Outcome):
        return value.to_json()
    return value


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: `winner` is "red", "black", "maniac", "draw" or None (aborted)."""

    reason: str
    winner: str | None

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "winner": self.winner}


@dataclass(slots=True)
class Phase(Effect):
    """The game moves to a new phase: "night" or "day", with its number ("day", 3)."""

    kind: ClassVar[str] = "phase"

    phase: str
    number: int

    @property
    def label(self) -> str:
        return f"{self.phase}-{self.number}"


@dataclass(slots=True)
class Say(Effect):
    """Speak a cue from the phrase book. Params are public values only (seat numbers, counts)."""

    kind: ClassVar[str] = "say"

    cue: str
    params: dict[str, Param] = field(default_factory=dict)


@dataclass(slots=True)
class Sound(Effect):
    """Play one of the short cue sounds in sounds/ (gong, chime, tick, beat)."""

    kind: ClassVar[str] = "sound"

    name: str


@dataclass(slots=True)
class OpenWindow(Effect):
    """A timed window: a night step's input time, a call-out beat, a speech, a ballot.

    Its length never depends on input at night; the window only ends by `WindowClosed`
    (or, in the day, by `CloseWindow` when a speech ends early).
    """

    kind: ClassVar[str] = "open_window"

    window: int
    purpose: str
    seconds: float
    seat: int | None = None


@dataclass(slots=True)
class CloseWindow(Effect):
    """Cancel the timer of a day window that ended early (the speaker said 'thank you')."""

    kind: ClassVar[str] = "close_window"

    window: int


@dataclass(slots=True)
class ExtendWindow(Effect):
    kind: ClassVar[str] = "extend_window"

    window: int
    seconds: float


@dataclass(slots=True)
class PauseTimers(Effect):
    kind: ClassVar[str] = "pause_timers"


@dataclass(slots=True)
class ResumeTimers(Effect):
    kind: ClassVar[str] = "resume_timers"


@dataclass(slots=True)
class SeatLights(Effect):
    """The whole state of the seat LEDs at once: lit, blinking, dimmed (out of the game).

    At night every tuple is empty: the lights say nothing about who acts.
    """

    kind: ClassVar[str] = "seat_lights"

    on: tuple[int, ...] = ()
    blink: tuple[int, ...] = ()
    dim: tuple[int, ...] = ()


@dataclass(slots=True)
class ShowAnswer(Effect):
    """A private check answer on the answer LEDs: "yes" lights green, "no" lights red.

    A role check's answer is the card shown (boxed: "mafia", "civilian"...), with `code`
    its place in the list of roles announced before the game: the lights blink it."""

    kind: ClassVar[str] = "show_answer"

    answer: str
    seconds: float
    code: int = 0
    # A decoy (nobody expects an answer: narrator/engine/decoy.py). Never reaches a
    # device: the performer shows a decoy exactly like an answer.
    decoy: bool = False


@dataclass(slots=True)
class Eliminated(Effect):
    """A player leaves the table. `how`: vote, shot, fouls, removed, lifted (or a rule
    set's own: poisoned, duel...). `phase` is "day" or "night"."""

    kind: ClassVar[str] = "eliminated"

    seat: int
    how: str
    phase: str
    number: int


@dataclass(slots=True)
class Record(Effect):
    """A line for the game protocol. `secret` ones (roles, night choices, checks) go only to
    the mode-0600 protocol files, never to logs at INFO or to speech."""

    kind: ClassVar[str] = "record"

    event: str
    data: dict[str, Any] = field(default_factory=dict)
    secret: bool = False


@dataclass(slots=True)
class GameOver(Effect):
    kind: ClassVar[str] = "game_over"

    outcome: Outcome

