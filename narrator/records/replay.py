"""Replaying a recorded game through the engine on a virtual clock.

Every recorded input (nominations, votes, lift ballots, shots, checks, fouls, best move)
is fed at the moment of the game it belongs to; windows always run their full length, so
the timeline is the one the box would have spoken. The replay agrees with the record when
the engine accepts every input, ends where the record ends, and names the same winner.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from narrator.engine.actions import Action, BestMove, Choose, Foul, Nominate, Remove, Tap
from narrator.engine.core import Engine
from narrator.engine.effects import Effect, Record
from narrator.engine.ruleset import RuleSet
from narrator.engine.state import State
from narrator.engine.tasks import (
    CallOut,
    LastWord,
    LiftVote,
    SilentTurn,
    Speech,
    Task,
    TieSpeech,
    VoteOn,
)
from narrator.engine.timeline import Timeline
from narrator.errors import RuleError
from narrator.records.polemica import Foul as RecordedFoul
from narrator.records.polemica import PolemicaGame

# The record's stage types that name a moment of the game the replay can find.
_MOMENTS = ("speech", "reSpeech", "shooted", "voted", "voting", "night")

# The record's stage types that stop a replay at a night step, by the role that acts.
_NIGHT_STAGES = {"shooting": "mafia", "donCheck": "don", "sheriffCheck": "sheriff"}


@dataclass
class ReplayResult:
    state: State
    timeline: Timeline
    disagreement: str | None = None
    notes: list[str] = field(default_factory=list)
    # The rule-set settings the replay played this record by (what its config and its
    # events show; the rest are the rule set's defaults, named here where they matter).
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def winner(self) -> str | None:
        return self.state.outcome.winner if self.state.outcome else None

    def eliminations(self) -> list[dict[str, Any]]:
        return [{"seat": e.seat, "phase": e.phase, "number": e.number, "how": e.how}
                for e in self.state.eliminations]

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "eliminations": self.eliminations(),
                "timeline": self.timeline.to_json(), "settings": dict(self.settings)}


class Disagreement(Exception):
    pass


class Replayer:
    def __init__(self, rules: RuleSet, game: PolemicaGame, timeline: Timeline) -> None:
        self.rules = rules.with_settings(game.settings)
        self.game = game
        self.engine = Engine(self.rules)
        self.timeline = timeline
        self.fouls: list[RecordedFoul] = list(game.fouls)
        remove_at = self.rules.fouls.remove_at
        # A disqualification that fouls do not explain is the host's removal.
        self.removals = [(seat, stage) for seat, stage in game.removals
                         if sum(1 for f in game.fouls if f.seat == seat) < remove_at]
        self.nominations = {d: list(v) for d, v in game.nominations.items()}
        self.votes = {k: dict(v) for k, v in game.votes.items()}
        self.lift = {k: dict(v) for k, v in game.lift_votes.items()}
        self.shots = {k: list(v) for k, v in game.shots.items()}
        self.checks = dict(game.checks)
        self.notes: list[str] = list(game.notes)
        # Named in --json: what the record's config and events chose, and the vote rule.
        self.settings = {**game.settings, "fouls.cancel_vote": self.rules.fouls.cancel_vote}
        if self.rules.setting("third_foul") is not None:
            self.settings["third_foul"] = self.rules.resolved_settings(game.settings)["third_foul"]
        if self.rules.setting("day.revote_tie_fewer") is not None:
            self.settings["day.revote_tie_fewer"] = self.rules.day.revote_tie_fewer
        self.state, opening = self.engine.new_game(seats=len(game.roles), roles=game.roles)
        self.timeline.feed(opening)

    def run(self) -> ReplayResult:
        try:
            self._loop()
            self._final_checks()
        except Disagreement as exc:
            return ReplayResult(self.state, self.timeline, str(exc), self.notes, self.settings)
        return ReplayResult(self.state, self.timeline, None, self.notes, self.settings)

    # the loop
    def _apply(self, action: Action, where: str) -> None:
        try:
            effects: list[Effect] = self.engine.apply(self.state, action)
        except RuleError as exc:
            raise Disagreement(f"{where}: the record has {action.kind} {_describe(action)}, "
                               f"but the engine refuses it: {exc}") from None
        self.timeline.feed(effects)
        for effect in effects:
            if isinstance(effect, Record) and effect.event == "vote":
                # The last candidate's votes are given by the engine, not tapped: drop the
                # record's copy of each vote the engine counted the same way.
                recorded = self.votes.get((effect.data["day"], effect.data["round"]), {})
                for voter in effect.data["voters"]:
                    if recorded.get(voter) == effect.data["candidate"]:
                        del recorded[voter]

    def _loop(self) -> None:
        st = self.state
        while st.phase != "over":
            task = st.current
            if task is None:
                raise Disagreement(f"{st.phase_label()}: the engine has nothing to wait for")
            if self._stop_here(task):
                return
            self._fouls_due(task)
            if st.phase == "over" or st.current != task:
                continue
            self._removals_due(task)
            if st.phase == "over" or st.current != task:
                continue
            self._inputs(task)
            if st.phase == "over":
                return
            if st.current == task:
                self._apply(self.timeline.close_window(), self._where(task))

    def _stop_here(self, task: Task) -> bool:
        stage = self.game.stage
        st = self.state
        kind, day = stage.get("type"), stage.get("day", 0)
        if self.game.finished:
            # Past the record's last day the engine would only be guessing.
            return isinstance(day, int) and st.number > day
        at_first_call = isinstance(task, CallOut) and task.seat == 1
        if (isinstance(task, CallOut) and at_first_call and st.phase == "night"
                and st.number >= day and kind in _NIGHT_STAGES):
            step = self.rules.step_index[task.step]
            if _NIGHT_STAGES[kind] in step.roles and (kind != "shooting" or step.ability == "kill"):
                return True
        # Anything past the recorded stage's day is beyond the record.
        return st.number > day or (st.phase == "night" and st.number == day and
                                   kind not in _NIGHT_STAGES)

    def _where(self, task: Task) -> str:
        st = self.state
        what = {"call": "call-out", "speech": "speech", "ballot": "vote", "lift_ballot":
                "lift vote", "last_word": "last word", "tie_speech": "tie speech"}.get(task.name, task.name)
        return f"{st.phase} {st.number}, {what}"

    def _moment(self, task: Task) -> dict[str, Any] | None:
        """The record's stage for this moment of the game (where fouls are stamped)."""
        st = self.state
        if st.phase == "night":
            return {"type": "night", "day": st.number}
        if st.phase != "day":
            return None
        if isinstance(task, Speech | SilentTurn):
            return {"type": "speech", "day": st.number, "player": task.seat}
        if isinstance(task, TieSpeech):
            return {"type": "reSpeech", "day": st.number, "player": task.seat,
                    "voting": st.ballot.round if st.ballot else 1}
        if isinstance(task, LastWord):
            how = st.gone[task.seat]
            if how == "shot":
                return {"type": "shooted", "day": st.number, "player": task.seat}
            return {"type": "voted", "day": st.number, "player": task.seat}
        if isinstance(task, VoteOn | LiftVote):
            return {"type": "voting", "day": st.number}
        return None

    def _fouls_due(self, task: Task) -> None:
        moment = self._moment(task)
        st = self.state
        while self.fouls:
            foul = self.fouls[0]
            stage = foul.stage
            due = moment is not None and all(stage.get(k) == v for k, v in moment.items()
                                             if k != "voting")
            late = stage.get("day", 0) < st.number and st.phase == "day"
            if not (due or late):
                return
            if late and not due:
                self.notes.append(f"foul on seat {foul.seat} at {stage} applied late, on day {st.number}")
            self.fouls.pop(0)
            self._apply(Foul(foul.seat), self._where(task))
            if st.phase == "over" or st.current != task:
                return

    def _removals_due(self, task: Task) -> None:
        moment = self._moment(task)
        st = self.state
        for seat, stage in list(self.removals):
            due = moment is not None and all(stage.get(k) == v for k, v in moment.items()
                                             if k != "voting")
            # A removal stamped with no moment of the game happens at the start of its day.
            loose = stage.get("type") not in _MOMENTS and st.phase == "day" and (
                stage.get("day", 0) <= st.number)
            if due or loose:
                self.removals.remove((seat, stage))
                self._apply(Remove(seat), self._where(task))
                if st.phase == "over" or st.current != task:
                    return

    def _inputs(self, task: Task) -> None:
        st = self.state
        if isinstance(task, CallOut) and task.seat == 1:
            step = self.rules.step_index[task.step]
            night = st.number
            if step.ability == "kill":
                for shooter, victim in self.shots.pop(night, []):
                    self._apply(Choose(shooter, victim), f"night {night}, shot")
            elif step.ability == "check":
                for role in ("don", "sheriff"):
                    if role in step.roles and (night, role) in self.checks:
                        target = self.checks.pop((night, role))
                        holders = st.holders([role])
                        actor = holders[0] if holders else None
                        self._apply(Choose(actor, target), f"night {night}, {role}'s check")
        elif isinstance(task, SilentTurn) or (isinstance(task, Speech) and not task.final):
            todo = self.nominations.get(st.number, [])
            for i, (by, target) in enumerate(todo):
                if by == task.seat:
                    todo.pop(i)
                    self._apply(Nominate(target, by=by), self._where(task))
                    break
        elif isinstance(task, LastWord) and st.first_victim == task.seat:
            named = self.game.best_moves.get(task.seat)
            if named:
                self._apply(BestMove(tuple(named)), self._where(task))
        elif isinstance(task, VoteOn) and st.ballot is not None:
            ballot = self.votes.get((st.number, st.ballot.round), {})
            for voter, candidate in sorted(ballot.items()):
                if candidate == task.seat:
                    del ballot[voter]
                    # As a pad's tap: a record's ballot runs its full length (a host's
                    # Vote would stop its timer for a count the record does not hold).
                    self._apply(Tap(voter), self._where(task))
        elif isinstance(task, LiftVote):
            for voter, yes in sorted(self.lift.pop(st.number, {}).items()):
                if yes:
                    self._apply(Tap(voter), self._where(task))

    def _final_checks(self) -> None:
        st = self.state
        g = self.game
        if g.finished:
            if st.phase != "over":
                raise Disagreement(f"the record ends the game on day {g.stage.get('day')}, "
                                   f"the engine is still playing ({st.phase_label()})")
            if self.winner() != g.result:
                raise Disagreement(f"the record says {g.result} won, the engine says {self.winner()}")
            if g.stage.get("day") not in (None, st.number):
                raise Disagreement(f"the record ends on day {g.stage.get('day')}, "
                                   f"the engine on day {st.number}")
        elif st.phase == "over":
            raise Disagreement(f"the engine ended the game ({self.winner()} won) on "
                               f"{st.phase_label()}, but the record goes on")
        for seat in g.disqualified:
            if st.gone[seat] not in ("fouls", "removed"):
                raise Disagreement(f"the record removes seat {seat}, the engine does not")
        leftovers = []
        limit = st.number
        for day, noms in self.nominations.items():
            if noms and day <= limit:
                leftovers.append(f"day {day} nominations {noms}")
        for (day, rnd), ballot in self.votes.items():
            if ballot and day <= limit and not self._formal_single_vote(day, ballot):
                leftovers.append(f"day {day} round {rnd} votes {ballot}")
        for day, ballot in self.lift.items():
            if any(ballot.values()) and day < limit:
                leftovers.append(f"day {day} lift votes {ballot}")
        for night, shots in self.shots.items():
            if shots and night < limit:
                leftovers.append(f"night {night} shots {shots}")
        if leftovers:
            raise Disagreement("the engine never used the record's " + "; ".join(leftovers))

    def _formal_single_vote(self, day: int, ballot: dict[int, int]) -> bool:
        """A recorded vote on a lone nominee who left without one (the rule from day 2)."""
        elims = self.state.eliminations
        gone_by_vote = [e.seat for e in elims if e.phase == "day" and e.number == day and e.how == "vote"]
        gone_before = {e.seat for e in elims if e.number < day}
        return (len(set(ballot.values())) == 1 and next(iter(ballot.values())) in gone_by_vote
                and not gone_before & set(ballot))

    def winner(self) -> str | None:
        return self.state.outcome.winner if self.state.outcome else None


def _describe(action: Action) -> str:
    data = action.to_json()
    data.pop("kind")
    return ", ".join(f"{k} {v}" for k, v in data.items())


# What a record may need that 001 does not say, tried when the document's rule disagrees
# with it: (the setting, the practice's value, which records can need it).
def _third_foul(game: PolemicaGame) -> bool:
    return any(sum(1 for f in game.fouls if f.seat == seat) >= 3 for seat in {f.seat for f in game.fouls})


def _second_revote(game: PolemicaGame) -> bool:
    """A third round of votes on one day: 000/001 send a tie in the re-vote to the lift
    vote, so only the practice of a new re-vote among fewer tied players makes one."""
    return any(rnd >= 3 for _day, rnd in game.votes)


_PRACTICES: tuple[tuple[str, str, Callable[[PolemicaGame], bool]], ...] = (
    ("third_foul", "tournament", _third_foul),
    ("day.revote_tie_fewer", "revote", _second_revote))


def settings_needed(rules: RuleSet, game: PolemicaGame) -> PolemicaGame:
    """The record with the tournament practices it needs added to its settings (and a
    note saying why): where it disagrees with 001's rule and can need a practice (a third
    foul: game 334187's lost speeches still have their nomination), it is played again,
    silently, with the practice, which is kept if the record then agrees."""
    first = Replayer(rules, game, _silent()).run()
    if first.disagreement is None:
        return game
    for key, value, can_need in _PRACTICES:
        if key in game.settings or rules.setting(key) is None or not can_need(game):
            continue
        tried = dataclasses.replace(game, settings={**game.settings, key: value},
                                    notes=[*game.notes, f"{key}: {value} (tournament practice): "
                                           f"by 001's rule the record disagrees ({first.disagreement})"])
        if Replayer(rules, tried, _silent()).run().disagreement is None:
            return tried
    return game


def _silent() -> Timeline:
    return Timeline(lambda cue, params: "", lambda cue: 0.0)


def replay(rules: RuleSet, game: PolemicaGame, timeline: Timeline) -> ReplayResult:
    """Replay the record by 001's rules, what its config and events show, and the
    practices it needs (`settings_needed`), named in the result's settings and notes."""
    return Replayer(rules, settings_needed(rules, game), timeline).run()
