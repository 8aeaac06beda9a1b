"""Fouls and removals, given by the host at any moment.

The third foul costs the next speech (shortened instead when few players are left); the
fourth removes the player at once with no last word and cancels the nearest vote. A
removal also ends the moment that was about the removed player: their speech, the ballot
on them, an accusation of them waiting for a second.
"""

from __future__ import annotations

from narrator.engine.context import Ctx
from narrator.engine.days import end_speech_now
from narrator.engine.effects import CloseWindow
from narrator.engine.tasks import AwaitSecond, SpeechTask, VoteOn
from narrator.errors import RuleError


def give_foul(ctx: Ctx, seat: int) -> None:
    st = ctx.state
    ctx.require_alive(seat)
    rules = ctx.rules.fouls
    st.fouls[seat] += 1
    count = st.fouls[seat]
    ctx.record("foul", seat=seat, count=count, phase=st.phase_label())
    if count >= rules.remove_at:
        remove(ctx, seat, "fouls")
        return
    ctx.say("foul", seat=seat, count=count)
    if count == rules.silence_at:
        st.silenced[seat] = True
        if len(st.living()) <= rules.short_when_alive_at_most:
            ctx.say("foul_speech_short", seat=seat, seconds=int(ctx.rules.day.short_speech))
        else:
            ctx.say("foul_speech_lost", seat=seat)


def remove(ctx: Ctx, seat: int, how: str) -> None:
    """Out at once, no last word; the nearest vote is cancelled as the rule set says."""
    st = ctx.state
    if not st.alive[seat]:
        raise RuleError(f"seat {seat} is out of the game")
    cancel = ctx.rules.fouls.cancel_vote
    if cancel != "none":
        if st.phase == "day" and (not st.voting_started or cancel == "today"):
            st.cancel_vote_day = st.number
        else:
            st.cancel_vote_day = st.number + 1
    ctx.say("removed", seat=seat)
    speaking = st.speaker == seat and st.current is not None and st.phase == "day"
    ctx.eliminate(seat, how)
    if ctx.check_win():
        return
    if speaking and isinstance(st.current, SpeechTask) and st.current.seat == seat:
        end_speech_now(ctx)
    moment = st.current
    if (isinstance(moment, VoteOn) and moment.seat == seat) or (
            isinstance(moment, AwaitSecond) and moment.target == seat):
        # The removed player was the one being voted on, or the accused waiting for a
        # second: that ballot or accusation is void and the day goes on.
        ctx.out.append(CloseWindow(st.window))
        st.current = None
        st.window = 0
    if st.phase == "day":
        ctx.day_lights()
