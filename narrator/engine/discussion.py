"""The Princeton day: a free discussion, accusations that need a second, and conviction
by a majority of the living.

The discussion is one long window (`day.discussion`). Anyone may accuse a living player
(`Nominate(target, by)`); the accusation waits `day.second` seconds for someone other
than the accuser and the accused to `Second` it, else it drops and the discussion goes
on. A seconded accusation gets the accused's defence (`day.tie_speech`, if any) and a
vote on that one player: a majority of the living convicts (with `majority_of_living`
off, a majority of the other living players), and the day ends. An acquitted player
cannot be accused again that day, and the discussion resumes. The day also ends when
the host closes it (`StartVoting`) or its time runs out.
"""

from __future__ import annotations

from typing import Any

from narrator.engine.actions import Action, Entry, Nominate, Second, StartVoting, Tap
from narrator.engine.context import Ctx, TaskSpec
from narrator.engine.effects import CloseWindow
from narrator.engine.state import Ballot, Nomination
from narrator.engine.tasks import (
    AwaitSecond,
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
    ctx.push(Discussion(), NightNext())
    return False


def _discussion_act(ctx: Ctx, t: Discussion, action: Action) -> None:
    st = ctx.state
    if isinstance(action, StartVoting):
        _close_now(ctx)
        ctx.say("day_closed")
        return
    if isinstance(action, Entry):
        action = Nominate(action.number)  # the host's keypad: the accused's number
    if not isinstance(action, Nominate):
        raise RuleError(f"{action.kind} is not expected during the discussion")
    target = action.target
    ctx.require_alive(target, "accused")
    by = action.by or 0
    if by:
        ctx.require_alive(by, "accuser")
        if by == target:
            raise RuleError("a player cannot accuse themself")
    if target in st.immune:
        raise RuleError(f"seat {target} cannot be accused today")
    if any(n.target == target for n in st.nominations):
        raise RuleError(f"seat {target} was acquitted today and cannot be accused again")
    _close_now(ctx)
    ctx.say("accusation", seat=target)
    ctx.record("accusation", day=st.number, by=by, target=target)
    ctx.push(AwaitSecond(target, by), Discussion())


def _discussion_closed(ctx: Ctx, t: Discussion) -> None:
    ctx.say("day_closed")


def _discussion(ctx: Ctx, t: Discussion) -> bool:
    st = ctx.state
    st.speaker = 0
    ctx.day_lights()
    return ctx.wait(t, "discussion", ctx.rules.day.discussion)


def _second_act(ctx: Ctx, t: AwaitSecond, action: Action) -> None:
    st = ctx.state
    if isinstance(action, Tap):
        action = Second(action.seat)  # a tap on one's own pad seconds the accusation
    if not isinstance(action, Second):
        raise RuleError(f"{action.kind} is not expected while an accusation waits for a second")
    target, accuser = t.target, t.accuser
    ctx.require_alive(action.by, "seconder")
    if not st.alive[target]:
        raise RuleError(f"seat {target} is out of the game")
    if action.by in (target, accuser):
        raise RuleError(f"seat {action.by} cannot second this accusation")
    _close_now(ctx)
    ctx.say("accusation_seconded", seat=target)
    ctx.record("second", day=st.number, by=action.by, target=target)
    st.nominations.append(Nomination(accuser, target))
    # The discussion resumes after the vote unless it convicts; drop that resumption now
    # and let the verdict put it back.
    if st.agenda and isinstance(st.agenda[0], Discussion):
        st.agenda.pop(0)
    defence: list[Task] = [TieSpeech(target)] if ctx.rules.day.tie_speech > 0 else []
    ctx.push(*defence, Conviction(target))


def _second_closed(ctx: Ctx, t: AwaitSecond) -> None:
    ctx.say("accusation_dropped", seat=t.target)
    ctx.day_lights()


def _second(ctx: Ctx, t: AwaitSecond) -> bool:
    st = ctx.state
    if not st.alive[t.target]:
        return False
    ctx.day_lights(blink=(t.target,))
    return ctx.wait(t, "second", ctx.rules.day.second, t.target)


def _conviction(ctx: Ctx, t: Conviction) -> bool:
    st = ctx.state
    target = t.target
    if not st.alive[target]:
        ctx.push(Discussion())
        return False
    st.voting_started = True
    st.ballot = Ballot("elect", 1, (target,))
    ctx.push(VoteOn(target), ConvictionCount(target))
    return False


def _conviction_count(ctx: Ctx, t: ConvictionCount) -> bool:
    st = ctx.state
    target = t.target
    st.voting_started = False
    ballot, st.ballot = st.ballot, None
    if not st.alive[target] or ballot is None:
        # The accused left, or a removal stopped the vote (fouls.py): nobody is convicted
        # by it and the discussion goes on.
        ctx.push(Discussion())
        return False
    votes = sum(1 for v in ballot.votes_for(target) if vote_counts(ctx, v))
    voters = sum(1 for s in st.living() if vote_counts(ctx, s))
    if not ctx.rules.day.majority_of_living:
        voters -= 1 if vote_counts(ctx, target) else 0
    if 2 * votes > voters:
        ctx.say("convicted", seat=target, votes=votes)
        ctx.eliminate(target, "vote", phase="day")
        if ctx.check_win():
            return False
        if "vote" in ctx.rules.day.last_word_after:
            ctx.push(LastWord(target))
        return False
    ctx.say("acquitted", seat=target, votes=votes)
    ctx.push(Discussion())
    return False


PROCEDURES: dict[str, Task] = {"discussion": DiscussionDay()}

TASKS: dict[type[Task], TaskSpec[Any]] = {
    DiscussionDay: TaskSpec(_discussion_day),
    Discussion: TaskSpec(_discussion, act=_discussion_act, closed=_discussion_closed,
                         accepts=frozenset({"nominate", "start_voting", "entry"})),
    AwaitSecond: TaskSpec(_second, act=_second_act, closed=_second_closed,
                          accepts=frozenset({"second", "tap"})),
    Conviction: TaskSpec(_conviction),
    ConvictionCount: TaskSpec(_conviction_count),
}
