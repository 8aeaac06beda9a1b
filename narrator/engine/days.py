"""The day: last words, speeches in seat order with nominations, then the vote.

PROCEDURES maps a rule set's `day.procedure` to the task that starts its day; the
tournament "speeches" procedure lives here, the Princeton "discussion" in its own module.
"""

from __future__ import annotations

from typing import Any, Final

from narrator.engine.actions import (
    Action,
    BestMove,
    EndSpeech,
    Entry,
    Hold,
    Nominate,
    StartVoting,
    Withdraw,
)
from narrator.engine.context import Ctx, TaskSpec, waits_only
from narrator.engine.effects import CloseWindow
from narrator.engine.ruleset import RuleSet
from narrator.engine.state import Nomination, State
from narrator.engine.tasks import (
    DayStart,
    LastWord,
    NightNext,
    NightStart,
    SilentTurn,
    Speech,
    Speeches,
    SpeechTask,
    Task,
    TieSpeech,
    Voting,
    shared,
)
from narrator.errors import RuleError

PROCEDURES: dict[str, Task] = {"speeches": Speeches()}


def _day_start(ctx: Ctx, t: DayStart) -> bool:
    st = ctx.state
    st.nominations = []
    st.voting_started = False
    st.ballot = None
    ctx.push(ctx.hooks.procedures[ctx.rules.day.procedure])
    return False


def _night_next(ctx: Ctx, t: NightNext) -> bool:
    st = ctx.state
    st.speaker = 0
    ctx.push(shared(NightStart))
    return False


def _speeches(ctx: Ctx, t: Speeches) -> bool:
    st = ctx.state
    living = st.living()
    if st.first_speaker == 0:
        first = 1 if st.alive[1] else living[0]
    else:
        # The next living seat after the one who opened yesterday.
        after = [s for s in living if s > st.first_speaker]
        first = after[0] if after else living[0]
    st.first_speaker = first
    i = living.index(first)
    order = living[i:] + living[:i]
    ctx.push(*[_speech_task(s) for s in order], shared(Voting), shared(NightNext))
    return False


def end_speech_now(ctx: Ctx) -> None:
    """The speaker is done before the time ran out (thank you / a long press / removal)."""
    st = ctx.state
    window = st.window
    st.current = None
    st.window = 0
    st.speaker = 0
    st.nominated = False
    ctx.out.append(CloseWindow(window))
    ctx.day_lights()


def speech_act(ctx: Ctx, t: SpeechTask, action: Action) -> None:
    st = ctx.state
    seat = t.seat
    if isinstance(action, EndSpeech) or (isinstance(action, Hold) and action.seat == seat):
        end_speech_now(ctx)
        return
    if isinstance(action, Hold):
        raise RuleError(f"seat {action.seat} is not speaking", "not_speaking", seat=action.seat)
    if isinstance(t, Speech | SilentTurn):
        if isinstance(action, Nominate | Withdraw):
            nominate(ctx, seat, action)
            return
        if isinstance(action, Entry):
            # The host's keypad: the number the speaker nominates (0 withdraws).
            nominate(ctx, seat, Nominate(action.number) if action.number else Withdraw())
            return
        if isinstance(action, StartVoting):
            # The host skips the remaining speeches and opens the vote.
            end_speech_now(ctx)
            st.agenda = [a for a in st.agenda if not isinstance(a, Speech)]
            return
    if isinstance(t, LastWord) and isinstance(action, Entry) and st.first_victim == seat:
        # The best move typed one seat at a time on the keypad.
        named = (*st.best_move, action.number)
        if len(st.best_move) >= 3:
            raise RuleError("the best move is already made", "best_move_made")
        _check_best_move(st, seat, named)
        st.best_move = named
        if len(named) == 3:
            ctx.record("best_move", seat=seat, seats=list(named))
        return
    if isinstance(t, LastWord) and isinstance(action, BestMove) and st.first_victim == seat:
        if st.best_move:
            raise RuleError("the best move is already made", "best_move_made")
        seats = tuple(action.seats)
        _check_best_move(st, seat, seats)
        st.best_move = seats
        ctx.record("best_move", seat=seat, seats=list(seats))
        return
    raise RuleError(f"{action.kind} is not expected during a speech", "not_now")


def _check_best_move(st: State, seat: int, seats: tuple[int, ...]) -> None:
    if not 1 <= len(seats) <= 3 or len(set(seats)) != len(seats):
        raise RuleError("a best move names one to three different seats", "best_move_seats")
    for s in seats:
        if not 1 <= s <= st.seats or s == seat:
            raise RuleError(f"{s} is not a seat the best move can name", "best_move_seat", seat=s)


def nominate(ctx: Ctx, speaker: int, action: Nominate | Withdraw) -> None:
    st = ctx.state
    if isinstance(action, Withdraw):
        if not st.nominated:
            raise RuleError("no nomination to withdraw in this speech", "nothing_to_withdraw")
        withdrawn = st.nominations.pop()
        by, target = withdrawn.by, withdrawn.target
        # Where a speech may nominate several, the earlier ones stand and may go too.
        st.nominated = any(n.by == by for n in st.nominations)
        ctx.say("nomination_withdrawn", seat=target)
        ctx.record("withdrawn", day=st.number, by=by, target=target)
        return
    by = action.by if action.by is not None else speaker
    if by != speaker:
        raise RuleError(f"seat {by} cannot nominate during seat {speaker}'s speech", "not_their_speech",
                        seat=by, speaker=speaker)
    if action.target == by and not ctx.rules.day.self_nomination:
        raise RuleError(f"seat {by} cannot nominate themself", "self_nomination", seat=by)
    if not may_nominate_again(ctx.rules, st, by):
        most = ctx.rules.day.nominations_per_speech
        raise RuleError("one nomination per speech" if most == 1
                        else f"at most {most} nominations per speech", "nominations_used")
    if by in st.muted:
        # club's doctor_coma (000)
        raise RuleError(f"seat {by} nominates nobody today", "cannot_nominate", seat=by)
    ctx.require_alive(action.target, "nominee")
    if action.target in st.visit.immune:
        raise RuleError(f"seat {action.target} cannot be nominated today", "not_nominable",
                        seat=action.target)
    if any(n.target == action.target for n in st.nominations):
        raise RuleError(f"seat {action.target} is already nominated", "already_nominated",
                        seat=action.target)
    st.nominations.append(Nomination(by, action.target))
    st.nominated = True
    ctx.say_seat("nomination_accepted", action.target)
    ctx.record("nomination", day=st.number, by=by, target=action.target)


def may_nominate_again(rules: RuleSet, st: State, by: int) -> bool:
    """May this speaker nominate (once more) in this speech? A player speaks once a day,
    so the day's nominations by the speaker are the speech's."""
    most = rules.day.nominations_per_speech
    if not st.nominated or most == 0:
        return True
    return most > 1 and sum(1 for n in st.nominations if n.by == by) < most


# Speech tasks by seat (negative: the last seconds), built once: tasks are frozen values,
# and every speech made two of them (the speech and its last seconds).
_SPEECHES: Final[dict[int, Speech]] = {}


def _speech_task(seat: int, final: bool = False) -> Speech:
    key = -seat if final else seat
    task = _SPEECHES.get(key)
    if task is None:
        task = _SPEECHES[key] = Speech(seat, final)
    return task


def speech_closed(ctx: Ctx, t: SpeechTask) -> None:
    st = ctx.state
    seat = t.seat
    if isinstance(t, Speech) and not t.final and ctx.rules.day.warn_before_end > 0:
        # The last seconds: the seat's light blinks and a soft tick, no words over the speaker.
        ctx.day_lights(blink=(seat,))
        ctx.sound("tick")
        ctx.wait(_speech_task(seat, final=True), "speech", ctx.rules.day.warn_before_end, seat)
        return
    st.speaker = 0
    st.nominated = False
    ctx.say("time_up")
    ctx.day_lights()


def _speech(ctx: Ctx, t: Speech) -> bool:
    st = ctx.state
    seat = t.seat
    if not st.alive[seat]:
        return False
    day = ctx.rules.day
    seconds = day.speech
    st.speaker = seat
    st.nominated = False
    if st.silenced[seat]:
        st.silenced[seat] = False
        if len(st.living()) > ctx.rules.fouls.short_when_alive_at_most:
            ctx.say("speech_lost", seat=seat)
            if ctx.rules.fouls.reset_after_lost_speech and st.fouls[seat]:
                # club (004): "If a player with three faults has already skipped their
                # turn, that player's faults will reset to zero."
                st.fouls[seat] = 0
                ctx.record("fouls_reset", seat=seat, phase=st.phase_label())
            if day.silent_turn <= 0:
                return False  # the turn is skipped whole: not even time to nominate
            ctx.day_lights(on=(seat,))
            return ctx.wait(SilentTurn(seat), "speech", day.silent_turn, seat)
        seconds = day.short_speech
        ctx.say("speaker_short", seat=seat, seconds=int(seconds))
    else:
        ctx.say_seat("speaker", seat)
    return _open_speech(ctx, t, seat, seconds)


def _open_speech(ctx: Ctx, t: Speech, seat: int, seconds: float) -> bool:
    warn = ctx.rules.day.warn_before_end
    ctx.day_lights(on=(seat,))
    if warn > 0 and seconds > warn:
        return ctx.wait(t, "speech", seconds - warn, seat)
    return ctx.wait(_speech_task(seat, final=True) if warn > 0 else t, "speech", seconds, seat)


def _last_word(ctx: Ctx, t: LastWord) -> bool:
    st = ctx.state
    seat = t.seat
    st.speaker = seat
    ctx.say_seat("last_word", seat)
    if st.first_victim == seat and not st.best_move:
        ctx.say("best_move", seat=seat)
    ctx.day_lights(on=(seat,))
    return ctx.wait(t, "last_word", _last_word_seconds(ctx, seat), seat)


def _last_word_seconds(ctx: Ctx, seat: int) -> float:
    day = ctx.rules.day
    lifted = any(e.seat == seat and e.how == "lifted" for e in ctx.state.eliminations)
    return day.lifted_last_word if lifted and day.lifted_last_word else day.last_word


def _tie_speech(ctx: Ctx, t: TieSpeech) -> bool:
    st = ctx.state
    seat = t.seat
    if not st.alive[seat]:
        return False
    st.speaker = seat
    seconds = ctx.rules.day.tie_speech
    ctx.say("tie_speech", seat=seat, seconds=int(seconds))
    ctx.day_lights(on=(seat,))
    return ctx.wait(t, "speech", seconds, seat)


_SPEECH_INPUTS = frozenset({"end_speech", "hold", "nominate", "withdraw", "entry", "start_voting"})

TASKS: dict[type[Task], TaskSpec[Any]] = {
    DayStart: TaskSpec(_day_start),
    NightNext: TaskSpec(_night_next),
    Speeches: TaskSpec(_speeches),
    Speech: TaskSpec(_speech, act=speech_act, closed=speech_closed, accepts=_SPEECH_INPUTS),
    SilentTurn: TaskSpec(waits_only, act=speech_act, closed=speech_closed,
                         accepts=_SPEECH_INPUTS),
    LastWord: TaskSpec(_last_word, act=speech_act, closed=speech_closed,
                       accepts=frozenset({"end_speech", "hold", "best_move", "entry"})),
    TieSpeech: TaskSpec(_tie_speech, act=speech_act, closed=speech_closed,
                        accepts=frozenset({"end_speech", "hold"})),
}
