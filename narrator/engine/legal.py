"""Legal actions as a query on the state (like python-chess's legal moves).

It lists the concrete actions the engine would accept now, so simulated players and the
property tests can play random legal games. Host corrections that are always possible
(fouls, removal, pause) are listed too; taps that would be silently ignored at night are
not, since they change nothing.
"""

from __future__ import annotations

from narrator.engine.abilities import ABILITIES
from narrator.engine.actions import (
    Action,
    AddTime,
    BestMove,
    Choose,
    EndSpeech,
    Foul,
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
from narrator.engine.ruleset import RuleSet
from narrator.engine.state import State
from narrator.engine.tasks import INTERVENTIONS, TASKS


def legal_actions(rules: RuleSet, st: State, host: bool = True) -> list[Action]:
    if st.phase == "over" or st.current is None:
        return []
    out: list[Action] = [WindowClosed(st.window)]
    task = st.current
    accepts = TASKS[task[0]].accepts
    living = st.living()
    if task[0] in ("call", "input"):
        step = rules.step_index[task[1]]
        actors = [s for s in living if st.roles[s] in step.roles]
        if not ABILITIES[step.ability].chooses:
            out.extend(Tap(a) for a in actors)  # a meeting: holders show themselves
        elif task[0] == "call":
            out.extend(Tap(a) for a in actors)
        else:
            out.extend(Choose(a, t) for a in actors for t in range(1, st.seats + 1))
    if "nominate" in accepts:
        if st.nominated:
            out.append(Withdraw())
        else:
            taken = {t for _b, t in st.nominations}
            immune = set(st.extra.get("immune", []))
            out.extend(Nominate(s) for s in living if s not in taken and s not in immune)
    if "end_speech" in accepts:
        out.append(EndSpeech())
        if host:
            out.append(AddTime(30))
    if "best_move" in accepts and st.first_victim == task[1] and not st.best_move:
        others = [s for s in range(1, st.seats + 1) if s != task[1]]
        out.append(BestMove(tuple(others[:3])))
    if "vote" in accepts:
        voted = set(st.ballot.get("voters", []))
        out.extend(Vote(v) for v in living if v not in voted)
    if "second" in accepts:
        # Anyone but the accused and the accuser (task: "second", accused, accuser).
        out.extend(Second(s) for s in living if s not in task[1:3])
    if "start_voting" in accepts and host:
        out.append(StartVoting())
    for kind, intervention in INTERVENTIONS.items():
        if kind not in accepts:
            out.extend(intervention.legal(rules, st))
    if host:
        out.extend(Foul(s) for s in living)
        out.extend(Remove(s) for s in living)
        out.append(Resume() if st.paused else Pause())
    return out

