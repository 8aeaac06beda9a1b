"""The boxed day: one free discussion with proposals, then the ordinary vote.

«все игроки начинают обсуждение… и предлагают кандидатуры на выбывание… Обсуждение
длится не больше пяти минут, после чего ведущий озвучивает имена всех кандидатов»: the
discussion is one window of `day.discussion` seconds. Anyone still in proposes a
candidate (`Nominate(target, by)`, no second needed; `by` left out for the host's
keypad); a player silenced for the day proposes nothing. The host may close the
discussion sooner (`StartVoting`). Then the vote of narrator.engine.voting: every
candidate in turn, nobody abstains.
"""

from __future__ import annotations

from typing import Any

from narrator.engine.actions import Action, Entry, Nominate, StartVoting
from narrator.engine.context import Ctx, TaskSpec
from narrator.engine.effects import CloseWindow
from narrator.engine.state import Nomination
from narrator.engine.tasks import NightNext, Proposals, Task, Voting
from narrator.errors import RuleError


def _proposals(ctx: Ctx, t: Proposals) -> bool:
    st = ctx.state
    st.speaker = 0
    seconds = ctx.rules.day.discussion
    ctx.say("proposals", minutes=max(1, round(seconds / 60)))
    ctx.day_lights()
    ctx.push(Voting(), NightNext())
    return ctx.wait(t, "discussion", seconds)


def propose(ctx: Ctx, target: int, by: int) -> None:
    """`by` (0: the host) proposes `target`; refused, changing nothing, when not allowed."""
    st = ctx.state
    ctx.require_alive(target, "candidate")
    if by:
        ctx.require_alive(by, "proposer")
        if by in st.muted:
            raise RuleError(f"seat {by} is silenced today and proposes nobody", "silenced", seat=by)
        if by == target and not ctx.rules.day.self_nomination:
            raise RuleError(f"seat {by} cannot propose themself", "self_nomination", seat=by)
    if target in st.visit.immune:
        raise RuleError(f"seat {target} cannot be proposed today", "not_nominable", seat=target)
    if any(n.target == target for n in st.nominations):
        raise RuleError(f"seat {target} is already proposed", "already_nominated", seat=target)
    st.nominations.append(Nomination(by, target))
    ctx.say("nomination_accepted", seat=target)
    ctx.record("nomination", day=st.number, by=by, target=target)


def _proposals_act(ctx: Ctx, t: Proposals, action: Action) -> None:
    st = ctx.state
    if isinstance(action, StartVoting):
        ctx.out.append(CloseWindow(st.window))
        st.current = None
        st.window = 0
        return
    if isinstance(action, Entry):
        propose(ctx, action.number, 0)  # the host's keypad: the candidate's number
        return
    if isinstance(action, Nominate):
        propose(ctx, action.target, action.by or 0)
        return
    raise RuleError(f"{action.kind} is not expected during the discussion", "not_now")


PROCEDURES: dict[str, Task] = {"proposals": Proposals()}

TASKS: dict[type[Task], TaskSpec[Any]] = {
    Proposals: TaskSpec(_proposals, act=_proposals_act,
                        accepts=frozenset({"nominate", "start_voting", "entry"})),
}
