"""The Princeton day (002): a free discussion, then accusations that need a second, and
conviction by a majority of the living.

The discussion is one long window (`day.discussion`); the host may end it early
(`StartVoting`). Then the moderator asks for accusations: a window of `day.accusations`
seconds in which anyone may accuse a living player (`Nominate(target, by)`). The accuser
explains (`day.accuser_speech`), the box asks for a second, which anyone other than the
accuser and the accused gives within `day.second` seconds (else the accusation drops and
the accusations go on). A seconded accusation gets the accused's defence
(`day.tie_speech`), a time for others' comments (`day.comments`) and a vote on that one
player: a majority of the living convicts (`majority_of_living`; with it off, of the
other living players; with `unanimous`, every living player but the accused). A
conviction ends the day (unless `multiple_convictions`); an acquitted player cannot be
accused again that day, and the accusations go on. The day also ends when an
accusations window passes with none, or the host closes it.
"""

from __future__ import annotations

from typing import Any

from narrator.engine.actions import Action, Entry, Nominate, Second, StartVoting, Tap
from narrator.engine.context import Ctx, TaskSpec
from narrator.engine.days import speech_act, speech_closed
from narrator.engine.effects import CloseWindow
from narrator.engine.state import Ballot, Nomination
from narrator.engine.tasks import (
    Accusations,
    AccuserSpeech,
    AwaitSecond,
    Comments,
    Conviction,
    ConvictionCount,
    Discussion,
    DiscussionDay,
    LastWord,
    NightNext,
    Task,
    TieSpeech,
    VoteOn,
)
from narrator.engine.voting import vote_counts
from narrator.errors import RuleError


def _close_now(ctx: Ctx) -> None:
    """The open window ends before its time (an accusation, a second, the host)."""
    st = ctx.state
    ctx.out.append(CloseWindow(st.window))
    st.current = None
    st.window = 0


def _discussion_day(ctx: Ctx, t: DiscussionDay) -> bool:
    ctx.say("discussion", seconds=int(ctx.rules.day.discussion))
    ctx.push(Discussion(), Accusations(), NightNext())
    return False


def _discussion(ctx: Ctx, t: Discussion) -> bool:
    st = ctx.state
    st.speaker = 0
    ctx.day_lights()
    return ctx.wait(t, "discussion", ctx.rules.day.discussion)


def _discussion_act(ctx: Ctx, t: Discussion, action: Action) -> None:
    if isinstance(action, StartVoting):
        _close_now(ctx)  # the host asks for accusations now
        return
    raise RuleError("accusations come after the discussion", "not_now")


def _accusations(ctx: Ctx, t: Accusations) -> bool:
    st = ctx.state
    st.speaker = 0
    ctx.day_lights()
    ctx.say("accusations_open")
    return ctx.wait(t, "accusations", ctx.rules.day.accusations)


def _accusations_act(ctx: Ctx, t: Accusations, action: Action) -> None:
    st = ctx.state
    if isinstance(action, StartVoting):
        _close_now(ctx)  # the host: no more accusations are going to be made
        ctx.say("day_closed")
        return
    if isinstance(action, Entry):
        action = Nominate(action.number)  # the host's keypad: the accused's number
    if not isinstance(action, Nominate):
        raise RuleError(f"{action.kind} is not expected while accusations are asked for", "not_now")
    target = action.target
    ctx.require_alive(target, "accused")
    by = action.by or 0
    if by:
        ctx.require_alive(by, "accuser")
        if by == target and not ctx.rules.day.self_nomination:
            raise RuleError("a player cannot accuse themself", "self_nomination", seat=by)
    if target in st.visit.immune:
        raise RuleError(f"seat {target} cannot be accused today", "not_nominable", seat=target)
    if any(n.target == target for n in st.nominations):
        raise RuleError(f"seat {target} was acquitted today and cannot be accused again",
                        "acquitted", seat=target)
    _close_now(ctx)
    ctx.say("accusation", seat=target)
    ctx.record("accusation", day=st.number, by=by, target=target)
    # 002: "the accuser shall be allowed to explain": also when the host's keypad or voice
    # named only the accused (seat 0: the box cannot call the accuser by number).
    explain: list[Task] = [AccuserSpeech(by)] if ctx.rules.day.accuser_speech > 0 else []
    ctx.push(*explain, AwaitSecond(target, by), Accusations())


def _accusations_closed(ctx: Ctx, t: Accusations) -> None:
    ctx.say("day_closed")


def _accuser_speech(ctx: Ctx, t: AccuserSpeech) -> bool:
    st = ctx.state
    if t.seat and not st.alive[t.seat]:
        return False
    st.speaker = t.seat
    seconds = ctx.rules.day.accuser_speech
    if t.seat:
        ctx.say("accuser_speech", seat=t.seat, seconds=int(seconds))
        ctx.day_lights(on=(t.seat,))
    else:
        ctx.say("accuser_speech_unnamed", seconds=int(seconds))
        ctx.day_lights()
    return ctx.wait(t, "speech", seconds, t.seat or None)


def _second(ctx: Ctx, t: AwaitSecond) -> bool:
    st = ctx.state
    st.speaker = 0
    if not st.alive[t.target]:
        return False
    ctx.say("ask_second", seat=t.target)
    ctx.day_lights(blink=(t.target,))
    return ctx.wait(t, "second", ctx.rules.day.second, t.target)


def _second_act(ctx: Ctx, t: AwaitSecond, action: Action) -> None:
    st = ctx.state
    if isinstance(action, Tap):
        action = Second(action.seat)  # a tap on one's own pad seconds the accusation
    elif isinstance(action, Entry):
        action = Second(action.number)  # the host's keypad: the seconder's seat
    if not isinstance(action, Second):
        raise RuleError(f"{action.kind} is not expected while an accusation waits for a second",
                        "not_now")
    target, accuser = t.target, t.accuser
    ctx.require_alive(action.by, "seconder")
    if not st.alive[target]:
        raise RuleError(f"seat {target} is out of the game", "seat_out", seat=target)
    if action.by in (target, accuser):
        raise RuleError(f"seat {action.by} cannot second this accusation", "cannot_second",
                        seat=action.by)
    _close_now(ctx)
    ctx.say("accusation_seconded", seat=target)
    ctx.record("second", day=st.number, by=action.by, target=target)
    st.nominations.append(Nomination(accuser, target))
    # The accusations go on after the vote unless it convicts: drop that resumption now
    # and let the count put it back.
    if st.agenda and isinstance(st.agenda[0], Accusations):
        st.agenda.pop(0)
    day = ctx.rules.day
    defence: list[Task] = [TieSpeech(target)] if day.tie_speech > 0 else []
    comments: list[Task] = [Comments()] if day.comments > 0 else []
    ctx.push(*defence, *comments, Conviction(target))


def _second_closed(ctx: Ctx, t: AwaitSecond) -> None:
    ctx.say("accusation_dropped", seat=t.target)
    ctx.day_lights()


def _comments(ctx: Ctx, t: Comments) -> bool:
    st = ctx.state
    st.speaker = 0
    ctx.day_lights()
    ctx.say("comments", seconds=int(ctx.rules.day.comments))
    return ctx.wait(t, "discussion", ctx.rules.day.comments)


def _comments_act(ctx: Ctx, t: Comments, action: Action) -> None:
    if isinstance(action, StartVoting):
        _close_now(ctx)  # the host takes the vote now
        return
    raise RuleError(f"{action.kind} is not expected while the accusation is discussed",
                    "not_now")


def _conviction(ctx: Ctx, t: Conviction) -> bool:
    st = ctx.state
    target = t.target
    if not st.alive[target]:
        ctx.push(Accusations())
        return False
    st.voting_started = True
    st.ballot = Ballot("elect", 1, (target,))
    ctx.push(VoteOn(target), ConvictionCount(target))
    return False


def convicts(ctx: Ctx, target: int, votes: int) -> bool:
    day = ctx.rules.day
    voters = sum(1 for s in ctx.state.living() if vote_counts(ctx, s))
    others = voters - (1 if vote_counts(ctx, target) else 0)
    if day.unanimous:
        return votes >= others > 0
    return 2 * votes > (voters if day.majority_of_living else others)


def _conviction_count(ctx: Ctx, t: ConvictionCount) -> bool:
    st = ctx.state
    target = t.target
    st.voting_started = False
    ballot, st.ballot = st.ballot, None
    if not st.alive[target] or ballot is None:
        ctx.push(Accusations())
        return False
    votes = sum(1 for v in ballot.votes_for(target) if vote_counts(ctx, v))
    if convicts(ctx, target, votes):
        ctx.say("convicted", seat=target, votes=votes)
        ctx.eliminate(target, "vote", phase="day")
        ctx.record("conviction", day=st.number, target=target, votes=votes, convicted=True)
        if ctx.check_win():
            return False
        then: list[Task] = [Accusations()] if ctx.rules.day.multiple_convictions else []
        if "vote" in ctx.rules.day.last_word_after:
            ctx.push(LastWord(target), *then)
        else:
            ctx.push(*then)
        return False
    ctx.say("acquitted", seat=target, votes=votes)
    ctx.record("conviction", day=st.number, target=target, votes=votes, convicted=False)
    ctx.push(Accusations())
    return False


PROCEDURES: dict[str, Task] = {"discussion": DiscussionDay()}

TASKS: dict[type[Task], TaskSpec[Any]] = {
    DiscussionDay: TaskSpec(_discussion_day),
    Discussion: TaskSpec(_discussion, act=_discussion_act, accepts=frozenset({"start_voting"})),
    Accusations: TaskSpec(_accusations, act=_accusations_act, closed=_accusations_closed,
                          accepts=frozenset({"nominate", "start_voting", "entry"})),
    AccuserSpeech: TaskSpec(_accuser_speech, act=speech_act, closed=speech_closed,
                            accepts=frozenset({"end_speech", "hold"})),
    AwaitSecond: TaskSpec(_second, act=_second_act, closed=_second_closed,
                          accepts=frozenset({"second", "tap", "entry"})),
    Comments: TaskSpec(_comments, act=_comments_act, accepts=frozenset({"start_voting"})),
    Conviction: TaskSpec(_conviction),
    ConvictionCount: TaskSpec(_conviction_count),
}
