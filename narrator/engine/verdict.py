"""A verdict that replaces the day's vote (boxed: the judge, once per game).

«Один раз за партию в фазу дня может, перевернув свою карту роли, отменить дневное
голосование и единолично решить, кого посадить (это может быть только один игрок)»: while
the day's discussion or vote runs, a living holder of one of the rule set's `day.verdict`
roles may rule `Verdict(judge, target)`: the judge's card is shown, the day's vote is
dropped and the target (any other living player) leaves, showing the card. Not a judge
put to sleep last night (the boxed spy's), not twice in a game; a claim by anyone else is
refused. Choosing not to rule needs no action: the card stays hidden.

Not on himself, unless `day.verdict_self`: «После открытия роли Судья играет как обычный
Мирный горожанин… до конца партии» — after the verdict the judge plays on, so the one
jailed is another player.
"""

from __future__ import annotations

from narrator.engine.actions import Action, Verdict
from narrator.engine.context import Ctx, Intervention
from narrator.engine.effects import CloseWindow
from narrator.engine.ruleset import RuleSet
from narrator.engine.state import State
from narrator.engine.tasks import (
    AllOrNone,
    ConvictionCount,
    LiftVote,
    Proposals,
    Revote,
    Tally,
    TieSpeech,
    VoteOn,
    VoteOnLast,
    Voting,
)
from narrator.engine.voting import leave, reveal
from narrator.errors import RuleError

# The moments of a day whose vote a verdict may replace.
_OPEN = (Proposals, VoteOn, AllOrNone, LiftVote)
# Everything still queued for today's vote, dropped once the verdict replaces it.
_VOTE_TASKS = (Voting, VoteOn, VoteOnLast, Tally, Revote, TieSpeech, LiftVote, AllOrNone,
               ConvictionCount)


def _judges(rules: RuleSet, st: State) -> list[int]:
    if not rules.day.verdict or st.judge.verdict_used:
        return []
    return [s for s in st.living() if st.roles[s] in rules.day.verdict and s not in st.visit.asleep]


def _open(st: State) -> bool:
    return st.phase == "day" and isinstance(st.current, _OPEN)


def _act(ctx: Ctx, action: Action) -> None:
    st = ctx.state
    if not isinstance(action, Verdict):
        raise RuleError(f"{action.kind} is not a verdict", "not_now")
    if not ctx.rules.day.verdict:
        raise RuleError("nobody can replace a vote in these rules", "no_verdict")
    if not _open(st):
        raise RuleError("a verdict replaces the day's vote, and it is not the time for one",
                        "not_now")
    ctx.require_alive(action.judge, "judge")
    if st.roles[action.judge] not in ctx.rules.day.verdict:
        raise RuleError(f"seat {action.judge} cannot replace the vote", "not_judge", seat=action.judge)
    if st.judge.verdict_used:
        raise RuleError("the verdict has already been given in this game", "verdict_given")
    if action.judge in st.visit.asleep:
        raise RuleError(f"seat {action.judge} was put to sleep and has no role today", "judge_asleep",
                        seat=action.judge)
    ctx.require_alive(action.target, "target")
    if action.target == action.judge and not ctx.rules.day.verdict_self:
        raise RuleError("the judge jails another player, not himself", "judge_self")
    st.judge.verdict_used = True
    ctx.out.append(CloseWindow(st.window))
    st.current = None
    st.window = 0
    st.agenda = [t for t in st.agenda if not isinstance(t, _VOTE_TASKS)]
    ctx.record("verdict", day=st.number, seat=action.judge, target=action.target)
    ctx.day_lights()
    ctx.say("verdict_jails", seat=action.target)
    reveal(ctx, action.judge)
    leave(ctx, [action.target], "judged", announce=False)
    st.ballot = None


def _legal(rules: RuleSet, st: State) -> list[Action]:
    if not _open(st):
        return []
    return [Verdict(j, t) for j in _judges(rules, st) for t in st.living()
            if t != j or rules.day.verdict_self]


INTERVENTIONS: dict[str, Intervention] = {"verdict": Intervention(act=_act, legal=_legal)}
