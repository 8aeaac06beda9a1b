"""What the judge's page shows: the night step open now, the roles, the night's entries
and the checks' answers. Only for a game set up with a judge, only to a signed-in page
(narrator.web.judge serves it); the public view (narrator.web.view) never sees any of it.

Read from the game's state and its protocol (which a resumed game rebuilds from its
journal, so a restart keeps the judge's log). Nothing here changes the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from narrator.box.judging import judged
from narrator.box.referee import Box
from narrator.engine.ruleset import RuleSet
from narrator.engine.state import State
from narrator.engine.tasks import AnswerWindow, AskAnswer, CallOut, NightInput


@dataclass(frozen=True)
class Entry:
    """What the judge may enter now: the step, and whether it takes seats or one target."""

    step: str
    night: int
    roles: tuple[str, ...]
    ability: str
    meeting: bool  # seats that hold the cards (night zero) instead of one target
    open: bool  # the step's window runs: an entry is taken now
    entered: tuple[int, ...] | None  # what the judge entered in this call (None: nothing)
    acts: bool  # somebody alive acts in this step (else nothing is taken)
    known: bool  # the cards are known already: a meeting has nothing to learn
    nobody: bool  # the step may choose nobody (every choice step may: a miss)


@dataclass(frozen=True)
class Answer:
    """A check's answer, shown while its window runs (and kept in the log)."""

    step: str
    roles: tuple[str, ...]
    target: int
    answer: str  # "yes", "no", or the card shown
    match: tuple[str, ...] = ()  # what a yes means (the roles or team checked for)


@dataclass
class JudgeView:
    game_id: str
    rules: str
    phase: str
    number: int
    paused: bool
    over: bool
    seats: list[dict[str, Any]] = field(default_factory=list)  # seat, name, role, alive
    deck: tuple[str, ...] = ()  # the roles in this game
    entry: Entry | None = None
    answer: Answer | None = None
    log: list[dict[str, Any]] = field(default_factory=list)  # the protocol's night records


def judge_view(box: Box) -> JudgeView | None:
    """The judge's view of the box's game; None when no judge sits at this table."""
    if not judged(box):
        return None
    game = box.game
    st = game.state
    rules = game.engine.rules
    session = box.session
    header = session.header
    names = tuple(header.names) if header is not None else ()
    view = JudgeView(header.game_id if header is not None else "", rules.name, st.phase,
                     st.number, bool(st.paused), game.over, deck=tuple(sorted(st.deck)))
    for s in range(1, st.seats + 1):
        view.seats.append({"seat": s, "name": names[s - 1] if s <= len(names) else "",
                           "role": st.roles[s], "alive": bool(st.alive[s]),
                           "team": rules.roles[st.roles[s]].team if st.roles[s] in rules.roles else "",
                           "possible": list(st.possible[s]) if not st.roles[s] else []})
    if session.protocol is not None:
        view.log = _log(session.protocol.d, rules)
    if st.phase == "night" and not game.over:
        view.entry = _entry(box, st)
        view.answer = _answer(box, st, view.log)
    return view


def _entry(box: Box, st: State) -> Entry | None:
    task = st.current
    step_id = getattr(task, "step", None)
    if not isinstance(step_id, str):
        return None
    rules = box.game.engine.rules
    step = rules.step_index.get(step_id)
    if step is None:
        return None
    ability = box.game.engine.hooks.abilities.get(step.ability)
    meeting = ability is not None and not ability.chooses
    entered: tuple[int, ...] | None
    if meeting:
        entered = tuple(sorted(st.tapped)) or None
    else:
        mine = [p.target for p in st.taps if p.actor == 0]
        entered = (mine[-1],) if mine else None
    known = meeting and all(st.roles[1:]) and not st.night_zero.learned
    # Before the cards are all known (night zero), who holds a role is what is learned.
    acts = meeting or not all(st.roles[1:]) or any(st.alive[s] for s in st.holders(step.roles))
    return Entry(step.id, st.number, tuple(step.roles), step.ability, meeting,
                 isinstance(task, CallOut | NightInput), entered, acts, known, not meeting)


def _answer(box: Box, st: State, log: list[dict[str, Any]]) -> Answer | None:
    """The check whose answer window runs now (a decoy's window shows nothing)."""
    task = st.current
    if isinstance(task, AskAnswer):
        if task.answer in ("", "decoy"):
            return None
        step = box.game.engine.rules.step_index[task.step]
        return Answer(task.step, tuple(step.roles), task.target, task.answer,
                      tuple(step.args.get("match", ())))
    if isinstance(task, AnswerWindow):
        step = box.game.engine.rules.step_index[task.step]
        for item in reversed(log):
            if item["kind"] == "check" and item["night"] == st.number and item["step"] == task.step:
                return Answer(task.step, tuple(step.roles), item["target"], item["answer"],
                              tuple(step.args.get("match", ())))
    return None


def _log(protocol: dict[str, Any], rules: RuleSet) -> list[dict[str, Any]]:
    """The nights' choices and checks, oldest first, from the protocol."""
    out: list[dict[str, Any]] = []
    for night in protocol.get("nights", []):
        n = night["number"]
        for c in night.get("choices", []):
            targets = [x["target"] for x in c["choices"]]
            out.append({"kind": "choice", "night": n, "step": c["step"], "roles": c["roles"],
                        "ability": c["ability"], "targets": targets})
        for c in night.get("checks", []):
            step = rules.step_index.get(c["step"])
            match = list(step.args.get("match", ())) if step is not None else []
            out.append({"kind": "check", "night": n, "step": c["step"], "roles": c["roles"],
                        "target": c["target"], "answer": c["answer"], "match": match})
    return out
