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

from narrator.engine.actions import Action, Entry, Nominate, Second, StartVoting, Tap
from narrator.engine.context import Ctx
from narrator.engine.days import PROCEDURES
from narrator.engine.effects import CloseWindow
from narrator.engine.state import Task
from narrator.engine.tasks import task
from narrator.engine.voting import vote_counts
from narrator.errors import RuleError


def _close_now(ctx: Ctx) -> None:
    """The open window ends before its time (an accusation, a second, the host)."""
    st = ctx.state
    ctx.out.append(CloseWindow(st.window))
    st.current = None
    st.window = 0


@task("discussion_day")
def _discussion_day(ctx: Ctx, t: Task) -> bool:
    ctx.say("discussion", seconds=int(ctx.rules.day.discussion))
    ctx.push(("discussion",), ("night_next",))
    return False


def _discussion_act(ctx: Ctx, t: Task, action: Action) -> None:
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
    if target in st.extra.get("immune", ()):
        raise RuleError(f"seat {target} cannot be accused today")
    if any(accused == target for _b, accused in st.nominations):
        raise RuleError(f"seat {target} was acquitted today and cannot be accused again")
    _close_now(ctx)
    ctx.say("accusation", seat=target)
    ctx.record("accusation", day=st.number, by=by, target=target)
    ctx.push(("second", target, by), ("discussion",))


def _discussion_closed(ctx: Ctx, t: Task) -> None:
    ctx.say("day_closed")


@task("discussion", act=_discussion_act, closed=_discussion_closed,
      accepts=("nominate", "start_voting", "entry"))
def _discussion(ctx: Ctx, t: Task) -> bool:
    st = ctx.state
    st.speaker = 0
    ctx.day_lights()
    return ctx.wait(t, "discussion", ctx.rules.day.discussion)


def _second_act(ctx: Ctx, t: Task, action: Action) -> None:
    st = ctx.state
    if isinstance(action, Tap):
        action = Second(action.seat)  # a tap on one's own pad seconds the accusation
    if not isinstance(action, Second):
        raise RuleError(f"{action.kind} is not expected while an accusation waits for a second")
    _name, target, accuser = t
    ctx.require_alive(action.by, "seconder")
    if not st.alive[target]:
        raise RuleError(f"seat {target} is out of the game")
    if action.by in (target, accuser):
        raise RuleError(f"seat {action.by} cannot second this accusation")
    _close_now(ctx)
    ctx.say("accusation_seconded", seat=target)
    ctx.record("second", day=st.number, by=action.by, target=target)
    st.nominations.append([accuser, target])
    # The discussion resumes after the vote unless it convicts; drop that resumption now
    # and let the verdict put it back.
    if st.agenda and st.agenda[0] == ("discussion",):
        st.agenda.pop(0)
    defence: list[Task] = [("tie_speech", target)] if ctx.rules.day.tie_speech > 0 else []
    ctx.push(*defence, ("conviction", target))


def _second_closed(ctx: Ctx, t: Task) -> None:
    ctx.say("accusation_dropped", seat=t[1])
    ctx.day_lights()


@task("second", act=_second_act, closed=_second_closed, accepts=("second", "tap"))
def _second(ctx: Ctx, t: Task) -> bool:
    st = ctx.state
    if not st.alive[t[1]]:
        return False
    ctx.day_lights(blink=(t[1],))
    return ctx.wait(t, "second", ctx.rules.day.second, t[1])


@task("conviction")
def _conviction(ctx: Ctx, t: Task) -> bool:
    st = ctx.state
    target = t[1]
    if not st.alive[target]:
        ctx.push(("discussion",))
        return False
    st.voting_started = True
    st.ballot = {"kind": "elect", "round": 1, "candidates": [target], "prev": [], "votes": {},
                 "voters": []}
    ctx.push(("ballot", target), ("conviction_count", target))
    return False


@task("conviction_count")
def _conviction_count(ctx: Ctx, t: Task) -> bool:
    st = ctx.state
    target = t[1]
    st.voting_started = False
    ballot, st.ballot = st.ballot, {}
    if not st.alive[target]:
        ctx.push(("discussion",))
        return False
    votes = sum(1 for v in ballot["votes"].get(str(target), []) if vote_counts(ctx, v))
    voters = sum(1 for s in st.living() if vote_counts(ctx, s))
    if not ctx.rules.day.majority_of_living:
        voters -= 1 if vote_counts(ctx, target) else 0
    if 2 * votes > voters:
        ctx.say("convicted", seat=target, votes=votes)
        ctx.eliminate(target, "vote", phase="day")
        if ctx.check_win():
            return False
        if "vote" in ctx.rules.day.last_word_after:
            ctx.push(("last_word", target))
        return False
    ctx.say("acquitted", seat=target, votes=votes)
    ctx.push(("discussion",))
    return False


PROCEDURES["discussion"] = "discussion_day"
