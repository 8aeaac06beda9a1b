"""Simulated players who know their roles and play plausibly.

Given the state, `Table.respond` returns what the players do at this moment (taps at the
called number, nominations, votes, a best move), then the caller lets the window run
out. Every choice is drawn from a generator seeded by the game's seed and the moment (the
window's number, or the night and step for a night plan), never from a stream that
depends on what came before: players asked again at the same moment (after the box was
restarted from its journal) choose the same, so a resumed game ends as it would have.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from narrator.engine.actions import Action, BestMove, Foul, Nominate, Second, Tap, Verdict, Vote
from narrator.engine.registry import REGISTRY
from narrator.engine.rng import Rng
from narrator.engine.ruleset import RuleSet
from narrator.engine.state import State
from narrator.engine.tasks import (
    Accusations,
    AllOrNone,
    AwaitSecond,
    CallOut,
    LastWord,
    LiftVote,
    NightInput,
    Proposals,
    SilentTurn,
    Speech,
    Task,
    VoteOn,
)
from narrator.engine.voting import sitting_out

# Votes by seat, shared (an action is a frozen value): a game casts a few dozen. A list
# by seat: cheaper to read than a functools.cache.
_VOTES: Final[list[Vote]] = []


def _vote(seat: int) -> Vote:
    while len(_VOTES) <= seat:
        _VOTES.append(Vote(len(_VOTES)))
    return _VOTES[seat]


class Table:
    def __init__(self, rules: RuleSet, seed: int, foul_rate: float = 0.02,
                 nominate_rate: float = 0.6, cards: list[str] | None = None) -> None:
        """`cards`: the roles the players hold (seat 1 first), when the box has not been
        told them and learns them at night zero; otherwise the state's roles are used."""
        self.rules = rules
        self.cards = ["", *cards] if cards else None
        self.seed = seed
        self.rng = Rng(seed)
        self.foul_rate = foul_rate
        self.nominate_rate = nominate_rate
        # Tonight's plan by step id: ((night, step), target, actors).
        self.plans: dict[str, tuple[tuple[int, str], int, list[int]]] = {}
        self._teams = {name: role.team for name, role in rules.roles.items()}
        self._seat_teams = [self._teams[r] if r else "red" for r in self.cards] if self.cards else []
        # Each night step's place in the rule set's order, which seeds its plan.
        self._step_place = {step: i for i, step in enumerate(rules.step_index)}

    def _chance(self, p: float) -> bool:
        return self.rng.below(1_000_000) < p * 1_000_000

    def team(self, st: State, seat: int) -> str:
        # Players go by the cards they were dealt (a turncoat's team mates still know).
        if self._seat_teams:
            return self._seat_teams[seat]
        role = st.roles[seat]
        return self._teams.get(role, "red") if role else "red"

    def card(self, st: State, seat: int) -> str:
        """The role a player plays: the box's once it knows them (a turned turncoat is a
        mafioso), else the card dealt."""
        return st.roles[seat] or (self.cards[seat] if self.cards else "")

    def holders(self, st: State, roles: tuple[str, ...]) -> list[int]:
        return [s for s in range(1, st.seats + 1) if self.card(st, s) in roles]

    def respond(self, st: State) -> list[Action]:
        task = st.current
        if task is None:
            return []
        if isinstance(task, CallOut):
            return self.night_call(st, task.step, task.seat)
        if isinstance(task, NightInput) and st.number == 0:
            step = self.rules.step_index[task.step]
            if not REGISTRY.abilities[step.ability].chooses:
                return [Tap(s) for s in self.holders(st, step.roles)]
            return []
        # By the task's exact type (no task type subclasses another one here): a moment
        # nobody acts at (a speech's last seconds, an answer window) costs one lookup,
        # and no seeding: nothing is drawn, and every moment that draws seeds first.
        moment = _MOMENTS.get(type(task))
        fouls = st.phase == "day" and self.rules.fouls.enabled
        if moment is None and not fouls:
            return []
        self.rng.reseed_at(self.seed, st.windows)
        out: list[Action] = []
        if fouls and self._chance(self.foul_rate):
            out.append(Foul(self.rng.choice(st.living())))
        if moment is not None:
            moment(self, st, task, out)
        return out

    def _speech(self, st: State, task: Speech | SilentTurn, out: list[Action]) -> None:
        if isinstance(task, Speech) and task.final:
            return
        seat = task.seat
        if seat not in st.muted and self._chance(self.nominate_rate):
            taken = {n.target for n in st.nominations}
            immune = st.visit.immune
            others = [s for s in st.living() if s not in taken and s not in immune
                      and (s != seat or self.rules.day.self_nomination)]
            if others:
                target = self.rng.choice(others)
                if self.team(st, target) == self.team(st, seat) and self._chance(0.8):
                    target = self.rng.choice(others)  # rather not a team mate
                out.append(Nominate(target, by=seat))

    def _accusations(self, st: State, task: Accusations, out: list[Action]) -> None:
        # Princeton rules: now and then someone accuses a player not yet acquitted.
        accused = {n.target for n in st.nominations}
        immune = st.visit.immune
        living = st.living()
        targets = [s for s in living if s not in accused and s not in immune]
        if targets and len(living) > 2 and self._chance(0.7):
            target = self.rng.choice(targets)
            by = self.rng.choice([s for s in living if s != target])
            out.append(Nominate(target, by=by))

    def _propose(self, st: State, task: Proposals, out: list[Action]) -> None:
        out.extend(self._proposals(st))

    def _all_or_none(self, st: State, task: AllOrNone, out: list[Action]) -> None:
        out.extend(Vote(v) for v in st.living() if v not in st.muted and self._chance(0.5))

    def _second(self, st: State, task: AwaitSecond, out: list[Action]) -> None:
        target, accuser = task.target, task.accuser
        seconders = [s for s in st.living() if s not in (target, accuser)]
        if seconders and self._chance(0.6):
            out.append(Second(self.rng.choice(seconders)))

    def _ballot(self, st: State, task: VoteOn, out: list[Action]) -> None:
        candidate = task.seat
        # Lists, not sets: a dozen seats at most, and building sets costs more than
        # looking through them.
        voted = st.ballot.voters() if st.ballot else []
        if st.ballot:
            voted += sitting_out(self.rules, st.ballot)  # tied: no vote in a re-vote
        # A ballot on a single accused (Princeton rules) is a yes/no: more hands go up.
        single = st.ballot is not None and len(st.ballot.candidates) == 1
        sure, unsure = (0.8, 0.3) if single else (0.55, 0.15)
        teams = self._seat_teams or [self.team(st, s) for s in range(st.seats + 1)]
        rng = self.rng
        voted += st.muted
        skipped = 0
        for voter in st.living():
            # Every seat draws, voted or not, so the same moment gives the same votes
            # however many were already cast before a restart. A draw nobody reads only
            # moves the generator on (`Rng.skip`: one addition, not the mixing), done
            # for all of them at once before the next draw that is read.
            if voter in voted:
                skipped += 1
                continue
            if skipped:
                rng.skip(skipped)
                skipped = 0
            p = sure if teams[voter] != teams[candidate] else unsure
            if rng.below(1_000_000) < p * 1_000_000:
                out.append(_vote(voter))
        if skipped:
            rng.skip(skipped)

    def _lift(self, st: State, task: LiftVote, out: list[Action]) -> None:
        out.extend(Vote(v) for v in st.living() if self._chance(0.5))

    def _last_word(self, st: State, task: LastWord, out: list[Action]) -> None:
        if st.first_victim != task.seat or st.best_move:
            return
        others = [s for s in range(1, st.seats + 1) if s != task.seat]
        picks: list[int] = []
        while len(picks) < 3:
            s = self.rng.choice(others)
            if s not in picks:
                picks.append(s)
        out.append(BestMove(tuple(picks)))

    def _proposals(self, st: State) -> list[Action]:
        """The boxed day: a few players propose candidates (rather not a team mate); now
        and then a judge replaces the vote instead."""
        out: list[Action] = []
        living = st.living()
        speakers = [s for s in living if s not in st.muted]
        judges = [s for s in speakers if not st.judge.verdict_used and s not in st.visit.asleep
                  and self.card(st, s) in self.rules.day.verdict]
        if judges and self._chance(0.15):
            judge = judges[0]
            others = [s for s in living if self.team(st, s) != self.team(st, judge)] or living
            return [Verdict(judge, self.rng.choice(others))]
        taken = {n.target for n in st.nominations}
        for _ in range(3):
            free = [s for s in living if s not in taken and s not in st.visit.immune]
            if not speakers or not free or not self._chance(self.nominate_rate):
                break
            by = self.rng.choice(speakers)
            target = self.rng.choice(free)
            if self.team(st, target) == self.team(st, by) and self._chance(0.8):
                target = self.rng.choice(free)  # rather not a team mate
            taken.add(target)
            out.append(Nominate(target, by=by))
        return out

    def night_call(self, st: State, step_id: str, called: int) -> list[Action]:
        """The taps at this number of a step's call-out (none at most numbers)."""
        target, actors = self.call_plan(st, step_id)
        if target != called:
            return []
        return [Tap(a) for a in actors]

    def call_plan(self, st: State, step_id: str) -> tuple[int, list[int]]:
        """Tonight's plan for a step's call-out: the number its living holders tap at (-1:
        none, 0: the "nobody" call) and who they are. Made once per step and night."""
        key = (st.number, step_id)
        plan = self.plans.get(step_id)
        if plan is None or plan[0] != key:
            step = self.rules.step_index[step_id]
            actors = [s for s in self.holders(st, step.roles) if st.alive[s]]
            target = self._plan(st, step_id, actors) if actors else -1
            plan = self.plans[step_id] = (key, target, actors)
        return plan[1], plan[2]

    def _plan(self, st: State, step_id: str, actors: list[int]) -> int:
        step = self.rules.step_index[step_id]
        self.rng.reseed_at(self.seed, st.number, self._step_place[step_id])
        uncounted = step.args.get("uncounted", ())
        own = {self.team(st, a) for a in actors if (st.roles[a] or "") not in uncounted}
        if step.ability == "check" or step.ability == "kill":
            targets = [s for s in st.living() if self.team(st, s) not in own]
        else:
            targets = st.living()
        return self.rng.choice(targets) if targets else 0


# What the players do at each kind of moment (the task's exact type); other moments
# (a speech's last seconds aside, the night's answer windows and gaps) have no action.
_MOMENTS: Final[dict[type[Task], Callable[[Table, State, Any, list[Action]], None]]] = {
    Speech: Table._speech,
    SilentTurn: Table._speech,
    Accusations: Table._accusations,
    Proposals: Table._propose,
    AllOrNone: Table._all_or_none,
    AwaitSecond: Table._second,
    VoteOn: Table._ballot,
    LiftVote: Table._lift,
    LastWord: Table._last_word,
}
