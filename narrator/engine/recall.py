"""What a resumed game says again so the table knows whose moment it is.

After a power cut the journal brings the state back and `Engine.resume` reopens the open
window in full, but the words that opened that moment were said before the cut: nobody at
the table knows whose eyes are open or whose choice the box awaits. `recall` gives those
words again: at night the current step's wake cue (and, in a call-out, the number being
called), in the day the speaker's announcement or the nominee being voted on.

Secrecy: at night only the step and the call-out number decide the words, never who holds
the role or whether they live; a step is called every night in the same window whoever is
alive, so its wake cue again reveals nothing the first one didn't. A cut in a check's answer
window shows what that window showed before it, by the same rule: the answer, the same
decoy (drawn from the same seed: nothing at night moves it), or nothing for a window held
dark; a public answer is said again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from narrator.engine.context import Ctx
from narrator.engine.effects import Effect, OpenWindow, PauseTimers, Say, ShowAnswer
from narrator.engine.registry import REGISTRY
from narrator.engine.ruleset import RuleSet
from narrator.engine.state import State
from narrator.engine.tasks import (
    Accusations,
    AccuserSpeech,
    AllOrNone,
    AnswerWindow,
    AskAnswer,
    AwaitSecond,
    CallOut,
    Comments,
    Discussion,
    LastWord,
    LiftVote,
    MeetCount,
    NightZeroHeld,
    Proposals,
    SilentTurn,
    Speech,
    Task,
    TieSpeech,
    VoteOn,
)


def _say(rules: RuleSet, cue: str, **params: Any) -> Say:
    # A rule set may say an engine cue in its own words, as `Ctx.say` does.
    return Say(rules.cue(cue), params)


def _speech(rules: RuleSet, st: State, t: Speech, left: float | None) -> list[Say]:
    # The window reopens in full (or with the time it had left, after an undo): the part
    # before the last seconds' warning, then the warning's; the speaker hears how long
    # that is when it isn't the usual speech.
    opened = left if left is not None else st.open.seconds if st.open is not None \
        else rules.day.speech
    warn = rules.day.warn_before_end
    total = opened + (warn if warn > 0 and not t.final else 0)
    if round(total) == rules.day.speech:
        return [_say(rules, "speaker", seat=t.seat)]
    return [_say(rules, "speaker_short", seat=t.seat, seconds=max(1, round(total)))]


def _seconds(st: State, left: float | None) -> int:
    if left is not None:
        return max(1, round(left))
    return int(st.open.seconds) if st.open is not None else 0


_DAY: dict[type[Task], Callable[[RuleSet, State, Any, float | None], list[Say]]] = {
    Speech: _speech,
    SilentTurn: lambda r, st, t, left: [_say(r, "speech_lost", seat=t.seat)],
    LastWord: lambda r, st, t, left: [_say(r, "last_word", seat=t.seat)],
    TieSpeech: lambda r, st, t, left: [_say(r, "tie_speech", seat=t.seat, seconds=_seconds(st, left))],
    VoteOn: lambda r, st, t, left: [_say(r, "vote_for", seat=t.seat)],
    LiftVote: lambda r, st, t, left: [_say(r, "lift_vote",
                                     seats=tuple(s for s in t.seats if st.alive[s]))],
    AllOrNone: lambda r, st, t, left: [_say(r, "all_or_none", seats=t.seats)],
    AccuserSpeech: lambda r, st, t, left: [
        _say(r, "accuser_speech", seat=t.seat, seconds=_seconds(st, left)) if t.seat
        else _say(r, "accuser_speech_unnamed", seconds=_seconds(st, left))],
    AwaitSecond: lambda r, st, t, left: [_say(r, "ask_second", seat=t.target)],
    Accusations: lambda r, st, t, left: [_say(r, "accusations_open")],
    Discussion: lambda r, st, t, left: [_say(r, "discussion", seconds=_seconds(st, left))],
    Comments: lambda r, st, t, left: [_say(r, "comments", seconds=_seconds(st, left))],
    Proposals: lambda r, st, t, left: [_say(r, "proposals",
                                      minutes=max(1, round(_seconds(st, left) / 60)))],
}


def recall(rules: RuleSet, state: State, left: float | None = None) -> list[Effect]:
    """The cues that open the current window again (none when nothing waits); `left`: the
    seconds it opens with when not its full length (an undo gives a speech its time back)."""
    task = state.current
    if task is None or state.open is None or state.phase == "over":
        return []
    if state.phase == "night":
        return _night(rules, state, task)
    day = _DAY.get(type(task))
    return [*day(rules, state, task, left)] if day is not None else []


def _night(rules: RuleSet, state: State, task: Task) -> list[Effect]:
    if isinstance(task, NightZeroHeld):
        return [_say(rules, "night_zero_redo")]
    step_id = getattr(task, "step", None)
    step = rules.step_index.get(step_id) if isinstance(step_id, str) else None
    if step is None:
        return []  # between steps (a gap): the next step's cue comes when it starts
    out: list[Effect] = []
    wake = step.cue("wake", state.deck, state.number)
    if wake:
        out.append(_say(rules, wake))
    if isinstance(task, CallOut):
        out.append(_say(rules, "callout", seat=task.seat) if task.seat else _say(rules, "nobody"))
    if isinstance(task, _SHOWN_AGAIN):
        out += _shown(rules, state, task)
    return out


# Windows that show something on the answer display (or say a public answer) as they open.
_SHOWN_AGAIN = (AnswerWindow, AskAnswer, MeetCount)


def _shown(rules: RuleSet, state: State, task: Task) -> list[Effect]:
    """What the window showed when it opened, decided again by the one rule that decided
    it the first time, run on a copy: the task's own start, or for a step's answer window
    (sport's checks) its ability's end of step with the night's recorded choices."""
    ctx = Ctx(rules, state.clone(), REGISTRY)
    if isinstance(task, AnswerWindow):
        step = ctx.step(task.step)
        ctx.ability(step).at_step_end(ctx, step, state.night.get(step.id, ()))
    else:
        REGISTRY.tasks[type(task)].start(ctx, task)
    return [e for e in ctx.out if isinstance(e, (ShowAnswer, Say))]


def with_recall(rules: RuleSet, state: State, opening: list[Effect]) -> list[Effect]:
    """`opening` (Engine.resume's, after a restart) with the recalled cues said before the
    window opens, so the window's time starts once the table has heard them. A game that
    was paused stays paused: its window waits for the host (the timers of a restarted box
    start running, and night zero held for a redo went on by itself)."""
    said: list[Effect] = [*recall(rules, state)]
    if state.paused and state.phase != "over":
        said.append(PauseTimers())
    return before_window(opening, said)


def before_window(opening: list[Effect], said: list[Effect]) -> list[Effect]:
    """`said` put just before the window in `opening` opens (at the end if none does)."""
    if not said:
        return opening
    at = next((i for i, e in enumerate(opening) if isinstance(e, OpenWindow)), len(opening))
    return [*opening[:at], *said, *opening[at:]]
