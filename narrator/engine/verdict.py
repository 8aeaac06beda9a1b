"""A verdict that replaces a day vote (boxed: the judge, once per game).

While a vote is open (a ballot or a lift vote), a living holder of one of the rule set's
`day.verdict` roles may rule: `Decide(seat, yes=True)` sends the player being voted on
(or, in a lift vote, all the tied players) out of the game; `yes=False` ends the vote
with nobody leaving. Either way the rest of today's vote is dropped. The judge shows
themself by ruling, so the verdict is public; a claim by anyone else is refused.
"""

from __future__ import annotations

from narrator.engine.actions import Action, Decide
from narrator.engine.context import Ctx, Intervention
from narrator.engine.effects import CloseWindow
from narrator.engine.ruleset import RuleSet
from narrator.engine.state import State
from narrator.engine.tasks import (
    ConvictionCount,
    LiftVote,
    Revote,
    Tally,
    TieSpeech,
    VoteOn,
    VoteOnLast,
)
from narrator.engine.voting import leave
from narrator.errors import RuleError

_VOTES = (VoteOn, LiftVote)
# Everything still queued for today's vote, dropped once the verdict replaces it.
_VOTE_TASKS = (VoteOn, VoteOnLast, Tally, Revote, TieSpeech, LiftVote, ConvictionCount)


def _judges(rules: RuleSet, st: State) -> list[int]:
    if not rules.day.verdict or st.verdict_used:
        return []
    return [s for s in st.living() if st.roles[s] in rules.day.verdict]


def _vote_open(st: State) -> bool:
    return st.phase == "day" and isinstance(st.current, _VOTES)


def _act(ctx: Ctx, action: Action) -> None:
    st = ctx.state
    if not isinstance(action, Decide):
        raise RuleError(f"{action.kind} is not a verdict")
    if not ctx.rules.day.verdict:
        raise RuleError("nobody can replace a vote in these rules")
    if not _vote_open(st):
        raise RuleError("a verdict replaces a vote, and no vote is open now")
    ctx.require_alive(action.seat, "judge")
    if st.roles[action.seat] not in ctx.rules.day.verdict:
        raise RuleError(f"seat {action.seat} cannot replace the vote")
    if st.verdict_used:
        raise RuleError("the verdict has already been given in this game")
    task = st.current
    seats = [task.seat] if isinstance(task, VoteOn) else [
        s for s in task.seats if st.alive[s]] if isinstance(task, LiftVote) else []
    st.verdict_used = True
    ctx.out.append(CloseWindow(st.window))
    st.current = None
    st.window = 0
    while st.agenda and isinstance(st.agenda[0], _VOTE_TASKS):
        st.agenda.pop(0)
    ctx.record("verdict", day=st.number, seat=action.seat, yes=action.yes, seats=seats)
    ctx.day_lights()
    if action.yes:
        ctx.say("verdict_convicts")
        leave(ctx, seats, "vote")
    else:
        ctx.say("verdict_spares")
        st.ballot = None


def _legal(rules: RuleSet, st: State) -> list[Action]:
    if not _vote_open(st):
        return []
    return [Decide(s, yes) for s in _judges(rules, st) for yes in (True, False)]


INTERVENTIONS: dict[str, Intervention] = {"decide": Intervention(act=_act, legal=_legal)}
