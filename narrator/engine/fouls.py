"""Fouls and removals, given by the host at any moment.

The third foul costs the next speech (shortened instead when few players are left); the
fourth removes the player at once with no last word. Which vote a removal cancels is the
rule set's `fouls.cancel_vote`: "nominee" (001: only a nominated player's removal, that
day's vote), "nearest" (tournament practice: any removal, the vote running or the next
one), "today" (any removal, that day's vote) or "none". Whatever it says, a nominee
removed while the vote runs ends that vote with nobody leaving by it: the removal must
never decide the vote (a lone leader left with one vote). A removal also ends the moment
that was about the removed player: their speech, the ballot on them, an accusation of
them waiting for a second.
"""

from __future__ import annotations

from narrator.engine.context import Ctx
from narrator.engine.days import end_speech_now
from narrator.engine.effects import CloseWindow, Outcome
from narrator.engine.night import say_news
from narrator.engine.tasks import (
    AwaitSecond,
    LiftVote,
    Revote,
    SpeechTask,
    Tally,
    Task,
    TieSpeech,
    VoteOn,
    VoteOnLast,
)
from narrator.engine.words import RecordEvent
from narrator.errors import RuleError

# The moments of a running vote (the tournament day's: ballots, tie speeches, re-votes,
# the lift vote).
_VOTE_TASKS = (VoteOn, VoteOnLast, Tally, Revote, TieSpeech, LiftVote)


def give_foul(ctx: Ctx, seat: int) -> None:
    st = ctx.state
    ctx.require_alive(seat)
    rules = ctx.rules.fouls
    if not rules.enabled:
        raise RuleError("these rules have no fouls", "no_fouls")
    st.fouls[seat] += 1
    count = st.fouls[seat]
    ctx.record(RecordEvent.FOUL, seat=seat, count=count, phase=st.phase_label())
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


def take_back(ctx: Ctx, seat: int) -> None:
    """A foul given by mistake is taken back: one fewer. Taking back the third gives the
    lost speech back (unless it has been lost already); a fourth foul's removal is final
    (only an undo brings the player back)."""
    st = ctx.state
    ctx.require_alive(seat)
    if st.fouls[seat] <= 0:
        raise RuleError(f"seat {seat} has no foul to take back", "no_foul", seat=seat)
    if st.fouls[seat] == ctx.rules.fouls.silence_at:
        st.silenced[seat] = False
    st.fouls[seat] -= 1
    count = st.fouls[seat]
    ctx.record(RecordEvent.FOUL_TAKEN_BACK, seat=seat, count=count, phase=st.phase_label())
    ctx.say("foul_taken_back", seat=seat, count=count)


def remove(ctx: Ctx, seat: int, how: str) -> None:
    """Out at once, no last word; a vote is cancelled as the rule set says."""
    st = ctx.state
    if not st.alive[seat]:
        raise RuleError(f"seat {seat} is out of the game", "seat_out", seat=seat)
    running = vote_running(ctx)
    nominee = st.phase == "day" and any(n.target == seat for n in st.nominations)
    stop = running and nominee
    cancel = ctx.rules.fouls.cancel_vote
    if cancel == "nominee":
        if nominee and not st.voting_started:
            st.cancel_vote_day = st.number
    elif cancel != "none":
        if st.phase == "day" and not st.voting_started:
            st.cancel_vote_day = st.number
        elif running and cancel in ("nearest", "today"):
            stop = True
        elif cancel == "nearest" or st.phase != "day":
            st.cancel_vote_day = st.number + 1
    ctx.say("removed", seat=seat)
    speaking = st.speaker == seat and st.current is not None and st.phase == "day"
    ctx.eliminate(seat, how)
    if ctx.check_win():
        return
    if st.phase == "day":
        say_news(ctx)  # news an elimination made due (boxed: none from a removal)
    if stop:
        _stop_vote(ctx)
    elif speaking and isinstance(st.current, SpeechTask) and st.current.seat == seat:
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


def forfeit(ctx: Ctx, seat: int) -> None:
    """001: "Severe violations during the night (for example, opening eyes at the wrong
    time) may result in: a full reset and redeal of roles, or an immediate victory for the
    opposite team." The redeal is the host abandoning the game; this is the victory: the
    game ends at once, won by the team that is not `seat`'s (at any moment: the game is
    over, so the moment tells nobody anything)."""
    st = ctx.state
    if not ctx.rules.forfeit:
        raise RuleError("these rules give no game to the other team", "no_forfeit")
    if not 1 <= seat <= st.seats:
        raise RuleError(f"seat {seat} is not at this table", "no_such_seat", seat=seat)
    ctx.require_alive(seat)
    if not all(st.roles[1:]):
        # Night zero learning the cards: refused for every seat alike (accepting a seat
        # whose card is already known would tell whose it is).
        raise RuleError("the roles are not known yet", "roles_unknown")
    team = ctx.role(seat).team
    others = sorted({ctx.rules.roles[r].team for r in st.deck} - {team})
    if len(others) != 1:
        raise RuleError("there is no single other team to give the game to", "no_other_team")
    ctx.record(RecordEvent.FORFEIT, seat=seat, phase=st.phase_label())
    ctx.say("forfeit", seat=seat)
    ctx.game_over(Outcome("forfeit", others[0]))


def _is_vote_task(task: Task | None) -> bool:
    return isinstance(task, _VOTE_TASKS)


def vote_running(ctx: Ctx) -> bool:
    """Is today's tournament vote under way (begun, and not over)?"""
    st = ctx.state
    if st.phase != "day" or not st.voting_started or st.ballot is None:
        return False
    return _is_vote_task(st.current) or any(_is_vote_task(t) for t in st.agenda)


def _stop_vote(ctx: Ctx) -> None:
    """The vote under way ends here: nobody leaves by it."""
    st = ctx.state
    if _is_vote_task(st.current):
        ctx.out.append(CloseWindow(st.window))
        st.current = None
        st.window = 0
        st.speaker = 0
    st.agenda = [t for t in st.agenda if not _is_vote_task(t)]
    st.ballot = None
    ctx.say("vote_cancelled")
    ctx.record(RecordEvent.VOTE_CANCELLED, day=st.number)
