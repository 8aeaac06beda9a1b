"""The agenda's tasks: the moments of a game, as small named values.

A task is a frozen value (`CallOut("mafia_shot", 3)`: seat 3's number in the mafia's
call-out). The agenda is a list of them; the one whose window is open is the state's
`current`. What a task does is its `TaskSpec` (narrator.engine.context), found by the
task's type in the registry (narrator.engine.registry).

A task's text form is a list: its name, then its fields in order, a tuple field spread
at the end: `["call", "mafia_shot", 3]`, `["revote", 3, 7]`. State JSON and scenario files
write tasks that way; `task_from_json` reads them back.

A new task: a dataclass here (with its `name`), a line in TASK_TYPES, and its spec in the
module that runs it, listed in that module's `TASKS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Final, TypeVar

from narrator.errors import RuleError


@dataclass(frozen=True, slots=True)
class Task:
    name: ClassVar[str] = ""

    def to_json(self) -> list[Any]:
        out: list[Any] = [self.name]
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                out.extend(value)
            else:
                out.append(value)
        return out


# --- the night (narrator.engine.night, narrator.engine.inquiry) -----------------------------


@dataclass(frozen=True, slots=True)
class NightStart(Task):
    """Night falls: the night's steps are put on the agenda."""

    name: ClassVar[str] = "night_start"


@dataclass(frozen=True, slots=True)
class NightStep(Task):
    """A night step begins: its wake cue, then its call-out or its input window."""

    name: ClassVar[str] = "step"

    step: str


@dataclass(frozen=True, slots=True)
class CallOut(Task):
    """One number of a step's call-out (seat 0: the last call, "nobody")."""

    name: ClassVar[str] = "call"

    step: str
    seat: int


@dataclass(frozen=True, slots=True)
class CallAgain(Task):
    """A step's call-out goes round again (`rounds` above 1): "Again." before its numbers."""

    name: ClassVar[str] = "call_again"

    step: str


@dataclass(frozen=True, slots=True)
class NightInput(Task):
    """A step's one window for keypad entries or a meeting's taps."""

    name: ClassVar[str] = "input"

    step: str


@dataclass(frozen=True, slots=True)
class StepEnd(Task):
    """The step's choices are settled and its ability hears them."""

    name: ClassVar[str] = "step_end"

    step: str


@dataclass(frozen=True, slots=True)
class AnswerWindow(Task):
    """The step's fixed window in which a check answer is shown (or not)."""

    name: ClassVar[str] = "answer"

    step: str


@dataclass(frozen=True, slots=True)
class AskAnswer(Task):
    """One answer window of an `ask` step: `answer` "yes"/"no" (or a card) about
    `target`; "" and 0 for a window held dark (a living asker the rules left without an
    answer); "decoy" and the window's number for one lit with a decoy (nobody expects an
    answer: narrator/engine/decoy.py)."""

    name: ClassVar[str] = "ask_answer"

    step: str
    answer: str
    target: int


@dataclass(frozen=True, slots=True)
class MeetCount(Task):
    """Night zero, after a meeting's window: the answer display shows how many seats the
    box heard (the holders' eyes are still open), for the same time at every call."""

    name: ClassVar[str] = "meet_count"

    step: str
    count: int


@dataclass(frozen=True, slots=True)
class NightZeroHeld(Task):
    """Night zero went wrong too often: the game waits, paused, until the host resumes it;
    then night zero starts again from its first call."""

    name: ClassVar[str] = "night_zero_held"


@dataclass(frozen=True, slots=True)
class Sleep(Task):
    """The step's sleep cue."""

    name: ClassVar[str] = "sleep"

    step: str


@dataclass(frozen=True, slots=True)
class Gap(Task):
    """The pause between one step's sleep cue and the next step's wake cue."""

    name: ClassVar[str] = "gap"


@dataclass(frozen=True, slots=True)
class Daybreak(Task):
    """Dawn: tonight's choices settle, the victims are named, the day begins."""

    name: ClassVar[str] = "dawn"


# --- the day (narrator.engine.days, voting, discussion) -------------------------------------


@dataclass(frozen=True, slots=True)
class DayStart(Task):
    name: ClassVar[str] = "day_start"


@dataclass(frozen=True, slots=True)
class NightNext(Task):
    name: ClassVar[str] = "night_next"


@dataclass(frozen=True, slots=True)
class Speeches(Task):
    """The tournament day: speeches in seat order from the day's first speaker."""

    name: ClassVar[str] = "speeches"


@dataclass(frozen=True, slots=True)
class SpeechTask(Task):
    """What every speaking moment has: the seat whose light is on."""

    seat: int


@dataclass(frozen=True, slots=True)
class Speech(SpeechTask):
    """A day speech; `final`: its last seconds (the light blinks)."""

    name: ClassVar[str] = "speech"

    final: bool = False

    def to_json(self) -> list[Any]:
        return ["speech", self.seat, "end"] if self.final else ["speech", self.seat]


@dataclass(frozen=True, slots=True)
class SilentTurn(SpeechTask):
    """A speech lost to a third foul or a silence: time to nominate only."""

    name: ClassVar[str] = "silent_turn"


@dataclass(frozen=True, slots=True)
class LastWord(SpeechTask):
    name: ClassVar[str] = "last_word"


@dataclass(frozen=True, slots=True)
class TieSpeech(SpeechTask):
    """A tied player's short speech (Princeton: the accused's defence)."""

    name: ClassVar[str] = "tie_speech"


@dataclass(frozen=True, slots=True)
class Voting(Task):
    """The speeches are over: today's nominees go to the vote (or not)."""

    name: ClassVar[str] = "voting"


@dataclass(frozen=True, slots=True)
class VoteOn(Task):
    """The ballot on one candidate: pads are live for `day.ballot` seconds."""

    name: ClassVar[str] = "ballot"

    seat: int


@dataclass(frozen=True, slots=True)
class VoteOnLast(Task):
    """The last candidate: every vote not cast goes there, without a window."""

    name: ClassVar[str] = "ballot_last"

    seat: int


@dataclass(frozen=True, slots=True)
class Tally(Task):
    name: ClassVar[str] = "tally"


@dataclass(frozen=True, slots=True)
class Revote(Task):
    name: ClassVar[str] = "revote"

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LiftVote(Task):
    """The vote on lifting all of `seats` (or the day-1 leader alone) out of the game."""

    name: ClassVar[str] = "lift_ballot"

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AllOrNone(Task):
    """A tie's re-vote by everyone still in: all of `seats` leave, or none (boxed)."""

    name: ClassVar[str] = "all_or_none"

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Proposals(Task):
    """The boxed day: one free discussion in which anyone proposes candidates."""

    name: ClassVar[str] = "proposals"


@dataclass(frozen=True, slots=True)
class DiscussionDay(Task):
    """The Princeton day: the discussion is announced."""

    name: ClassVar[str] = "discussion_day"


@dataclass(frozen=True, slots=True)
class Discussion(Task):
    """The free discussion before the moderator asks for accusations."""

    name: ClassVar[str] = "discussion"


@dataclass(frozen=True, slots=True)
class Accusations(Task):
    """The moderator asks for accusations and waits for one."""

    name: ClassVar[str] = "accusations"


@dataclass(frozen=True, slots=True)
class AccuserSpeech(SpeechTask):
    """The accuser explains the accusation."""

    name: ClassVar[str] = "accuser_speech"


@dataclass(frozen=True, slots=True)
class Comments(Task):
    """Other players comment briefly before the vote on the accused."""

    name: ClassVar[str] = "comments"


@dataclass(frozen=True, slots=True)
class AwaitSecond(Task):
    """An accusation waits for someone other than `accuser` and `target` to second it."""

    name: ClassVar[str] = "second"

    target: int
    accuser: int


@dataclass(frozen=True, slots=True)
class Conviction(Task):
    name: ClassVar[str] = "conviction"

    target: int


@dataclass(frozen=True, slots=True)
class ConvictionCount(Task):
    name: ClassVar[str] = "conviction_count"

    target: int


TASK_TYPES: dict[str, type[Task]] = {
    cls.name: cls
    for cls in (
        NightStart, NightStep, CallOut, CallAgain, NightInput, StepEnd, AnswerWindow, AskAnswer, Sleep,
        MeetCount, NightZeroHeld,
        Gap, Daybreak, DayStart, NightNext, Speeches, Speech, SilentTurn, LastWord, TieSpeech,
        Voting, VoteOn, VoteOnLast, Tally, Revote, LiftVote, AllOrNone, Proposals,
        DiscussionDay, Discussion, Accusations, AccuserSpeech, Comments, AwaitSecond,
        Conviction, ConvictionCount,
    )
}


T = TypeVar("T", bound=Task)

# Tasks are frozen values, so equal ones may be one object: a game puts a few hundred
# on its agenda, all of a few dozen kinds (a step's sleep, a seat's ballot), and
# building a frozen dataclass costs three times a plain one. Bounded by the rule set's
# steps and the seats. By type, then by the one field (None: a task without fields): no
# key tuple to build and hash on every call.
_SHARED: Final[dict[type[Task], dict[Any, Task]]] = {}


def shared(cls: type[T], arg: Any = None) -> T:
    """`cls(arg)` (`cls()` when `arg` is None), the same object every time."""
    by_arg = _SHARED.get(cls)
    if by_arg is None:
        by_arg = _SHARED[cls] = {}
    task = by_arg.get(arg)
    if task is None:
        make: Callable[..., Task] = cls
        task = by_arg[arg] = make() if arg is None else make(arg)
    return task  # type: ignore[return-value]


# Tasks whose one field is a tuple, spread in the text form.
_SPREAD: frozenset[type[Task]] = frozenset({Revote, LiftVote, AllOrNone})


def task_from_json(data: Any) -> Task:
    """A task from its text form; anything else raises RuleError."""
    if not isinstance(data, list | tuple) or not data or data[0] not in TASK_TYPES:
        raise RuleError(f"not a task: {data!r}")
    cls = TASK_TYPES[data[0]]
    args = list(data[1:])
    if cls is Speech:
        if args[1:] not in ([], ["end"]):
            raise RuleError(f"not a task: {data!r}")
        return Speech(args[0], final=bool(args[1:]))
    if cls in _SPREAD:
        args = [tuple(args)]
    try:
        return cls(*args)
    except TypeError as exc:
        raise RuleError(f"not a task: {data!r} ({exc})") from None
