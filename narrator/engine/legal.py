"""Legal actions as a query on the state (like python-chess's legal moves).

It lists the concrete actions the engine would accept now, so simulated players and the
property tests can play random legal games. Host corrections that are always possible
(fouls, removal, pause) are listed too; taps that would be silently ignored at night are
not, since they change nothing.
"""

from __future__ import annotations

from narrator.engine.actions import (
    Action,
    AddTime,
    BestMove,
    Choose,
    Count,
    EndSpeech,
    Forfeit,
    Foul,
    LowerHand,
    Nominate,
    Pause,
    Remove,
    Resume,
    Second,
    StartVoting,
    Tap,
    Vote,
    WindowClosed,
    Withdraw,
)
from narrator.engine.context import Registry
from narrator.engine.days import may_nominate_again
from narrator.engine.pausing import halted
from narrator.engine.registry import REGISTRY
from narrator.engine.ruleset import RuleSet
from narrator.engine.state import LIFT, State
from narrator.engine.tasks import AwaitSecond, CallOut, LastWord, NightInput, Proposals, VoteOn
from narrator.engine.voting import sitting_out


def legal_actions(rules: RuleSet, st: State, host: bool = True,
                  hooks: Registry = REGISTRY) -> list[Action]:
    if st.phase == "over" or st.current is None:
        return []
    out: list[Action] = [WindowClosed(st.window)]
    task = st.current
    accepts = hooks.tasks[type(task)].accepts
    if halted(st):  # paused in the day: only the host's corrections (engine.pausing)
        if "end_speech" in accepts and host:
            out.append(AddTime(30))
        out.extend(_corrections(rules, st, host))
        return out
    living = st.living()
    if isinstance(task, CallOut | NightInput):
        step = rules.step_index[task.step]
        actors = [s for s in living if st.roles[s] in step.roles]
        if not hooks.abilities[step.ability].chooses:
            out.extend(Tap(a) for a in actors)  # a meeting: holders show themselves
        elif isinstance(task, CallOut):
            out.extend(Tap(a) for a in actors)
        else:
            out.extend(Choose(a, t) for a in actors for t in range(1, st.seats + 1))
    if "nominate" in accepts:
        if st.nominated:
            out.append(Withdraw())
        if may_nominate_again(rules, st, st.speaker):
            taken = {n.target for n in st.nominations}
            free = [s for s in living if s not in taken and s not in st.visit.immune]
            self_ok = rules.day.self_nomination
            if st.speaker not in st.muted:  # a player in a coma (club) nominates nobody
                out.extend(Nominate(s) for s in free if self_ok or s != st.speaker)
            if isinstance(task, Proposals):
                # Anyone still in (not silenced today) proposes, besides the host.
                out.extend(Nominate(s, b) for s in free for b in living
                           if b not in st.muted and (self_ok or b != s))
    if "end_speech" in accepts:
        out.append(EndSpeech())
        if host:
            out.append(AddTime(30))
    if (isinstance(task, LastWord) and "best_move" in accepts and st.first_victim == task.seat
            and not st.best_move):
        others = [s for s in range(1, st.seats + 1) if s != task.seat]
        out.append(BestMove(tuple(others[:3])))
    if "vote" in accepts:
        voted = set(st.ballot.voters()) if st.ballot else set()
        if st.ballot:
            voted.update(sitting_out(rules, st.ballot))
        out.extend(Vote(v) for v in living if v not in voted and v not in st.muted)
        if host and st.ballot:
            # The host counting hands: one taken off again, and the count closing the ballot.
            mine = [c.voter for c in st.ballot.votes if c.candidate == _candidate(task)]
            out.extend(LowerHand(v) for v in mine)
            out.append(Count())
    if isinstance(task, AwaitSecond) and "second" in accepts:
        # Anyone but the accused and the accuser.
        out.extend(Second(s) for s in living if s not in (task.target, task.accuser))
    if "start_voting" in accepts and host:
        out.append(StartVoting())
    for kind, intervention in hooks.interventions.items():
        if kind not in accepts:
            out.extend(intervention.legal(rules, st))
    out.extend(_corrections(rules, st, host))
    return out


def _candidate(task: object) -> int:
    """Whom the open ballot votes on (LIFT, 0, in a lift or all-or-none vote)."""
    return task.seat if isinstance(task, VoteOn) else LIFT


def _corrections(rules: RuleSet, st: State, host: bool) -> list[Action]:
    """The host's corrections, possible at any moment (a pause too)."""
    if not host:
        return []
    living = st.living()
    out: list[Action] = [Foul(s) for s in living] if rules.fouls.enabled else []
    out.extend(Remove(s) for s in living)
    if rules.forfeit and all(st.roles[1:]):
        out.extend(Forfeit(s) for s in living)
    out.append(Resume() if st.paused else Pause())
    return out
