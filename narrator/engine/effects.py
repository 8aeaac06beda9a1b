"""Effects: what the engine asks the box to do. The daemon carries them out in order.

Effects are values: nobody changes one after the engine made it. They are plain slotted
dataclasses rather than frozen ones because a game makes hundreds of them and frozen
dataclasses cost three times as much to build (the engine bench counts that). The ones a
game makes most have their constructor written out (dataclass keeps it): compiled
(scripts/build_engine.py), a class's own __init__ is native code, the generated one is not.

The contract with whoever executes a list of effects:
- `Say` and `Sound` are played one after another, each to its end;
- `OpenWindow` starts a timer once everything before it has been played; when it runs
  out, the executor sends `WindowClosed(window)` back. Only one window is open at a time.
- The other effects are immediate.
"""

from __future__ import annotations

from dataclasses import Field, dataclass, field, fields
from typing import Any, ClassVar

Param = int | str | tuple[int, ...]


class Effect:
    # A plain base, not a dataclass, and each subclass's `kind` set after its class:
    # compiled by mypyc, a ClassVar in a dataclass's body would become a field
    # (mypyc/mypyc#1122). See scripts/build_engine.py.
    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]
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

    def __init__(self, reason: str, winner: str | None) -> None:
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "winner", winner)

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "winner": self.winner}


@dataclass(slots=True)
class Phase(Effect):
    """The game moves to a new phase: "night" or "day", with its number ("day", 3)."""

    phase: str
    number: int

    def __init__(self, phase: str, number: int) -> None:
        self.phase = phase
        self.number = number

    @property
    def label(self) -> str:
        return f"{self.phase}-{self.number}"


Phase.kind = "phase"


@dataclass(slots=True)
class Say(Effect):
    """Speak a cue from the phrase book. Params are public values only (seat numbers, counts)."""

    cue: str
    params: dict[str, Param] = field(default_factory=dict)

    # Written out (dataclass keeps it): compiled, a class's own __init__ is native code,
    # the one dataclass generates is not (a game builds hundreds of effects).
    def __init__(self, cue: str, params: dict[str, Param] | None = None) -> None:
        self.cue = cue
        self.params = {} if params is None else params


Say.kind = "say"


@dataclass(slots=True)
class Sound(Effect):
    """Play one of the short cue sounds in sounds/ (gong, chime, tick, beat)."""

    name: str

    def __init__(self, name: str) -> None:
        self.name = name


Sound.kind = "sound"


@dataclass(slots=True)
class OpenWindow(Effect):
    """A timed window: a night step's input time, a call-out beat, a speech, a ballot.

    Its length never depends on input at night; the window only ends by `WindowClosed`
    (or, in the day, by `CloseWindow` when a speech ends early).
    """

    window: int
    purpose: str
    seconds: float
    seat: int | None = None

    def __init__(self, window: int, purpose: str, seconds: float, seat: int | None = None) -> None:
        self.window = window
        self.purpose = purpose
        self.seconds = seconds
        self.seat = seat


OpenWindow.kind = "open_window"


@dataclass(slots=True)
class CloseWindow(Effect):
    """Cancel the timer of a day window that ended early (the speaker said 'thank you')."""

    window: int

    def __init__(self, window: int) -> None:
        self.window = window


CloseWindow.kind = "close_window"


@dataclass(slots=True)
class ExtendWindow(Effect):
    window: int
    seconds: float


ExtendWindow.kind = "extend_window"


@dataclass(slots=True)
class PauseTimers(Effect):
    pass


PauseTimers.kind = "pause_timers"


@dataclass(slots=True)
class ResumeTimers(Effect):
    pass


ResumeTimers.kind = "resume_timers"


@dataclass(slots=True)
class SeatLights(Effect):
    """The whole state of the seat LEDs at once: lit, blinking, dimmed (out of the game).

    At night every tuple is empty: the lights say nothing about who acts.
    """

    on: tuple[int, ...] = ()
    blink: tuple[int, ...] = ()
    dim: tuple[int, ...] = ()

    def __init__(self, on: tuple[int, ...] = (), blink: tuple[int, ...] = (),
                 dim: tuple[int, ...] = ()) -> None:
        self.on = on
        self.blink = blink
        self.dim = dim


SeatLights.kind = "seat_lights"


@dataclass(slots=True)
class ShowAnswer(Effect):
    """A private check answer on the answer LEDs: "yes" lights green, "no" lights red.

    A role check's answer is the card shown (boxed: "mafia", "civilian"...), with `code`
    its place in the list of roles announced before the game: the lights blink it."""

    answer: str
    seconds: float
    code: int = 0
    # A decoy (nobody expects an answer: narrator/engine/decoy.py). Never reaches a
    # device: the performer shows a decoy exactly like an answer.
    decoy: bool = False

    def __init__(self, answer: str, seconds: float, code: int = 0, decoy: bool = False) -> None:
        self.answer = answer
        self.seconds = seconds
        self.code = code
        self.decoy = decoy


ShowAnswer.kind = "show_answer"


@dataclass(slots=True)
class Eliminated(Effect):
    """A player leaves the table. `how`: vote, shot, fouls, removed, lifted (or a rule
    set's own: poisoned, duel...). `phase` is "day" or "night"."""

    seat: int
    how: str
    phase: str
    number: int

    def __init__(self, seat: int, how: str, phase: str, number: int) -> None:
        self.seat = seat
        self.how = how
        self.phase = phase
        self.number = number


Eliminated.kind = "eliminated"


@dataclass(slots=True)
class Record(Effect):
    """A line for the game protocol. `secret` ones (roles, night choices, checks) go only to
    the mode-0600 protocol files, never to logs at INFO or to speech."""

    event: str
    data: dict[str, Any] = field(default_factory=dict)
    secret: bool = False

    def __init__(self, event: str, data: dict[str, Any] | None = None, secret: bool = False) -> None:
        self.event = event
        self.data = {} if data is None else data
        self.secret = secret


Record.kind = "record"


@dataclass(slots=True)
class GameOver(Effect):
    outcome: Outcome

    def __init__(self, outcome: Outcome) -> None:
        self.outcome = outcome


GameOver.kind = "game_over"
