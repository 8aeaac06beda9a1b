"""A game in play: the engine, the current state and the undo history.

`apply` works on a copy and commits only when the action was legal, so even a rule hook
that fails half-way leaves the game as it was. `Undo` goes back to the exact state
before the last action and returns the effects that bring the table back to it.
"""

from __future__ import annotations

from collections.abc import Sequence

from narrator.engine.actions import Action, Undo
from narrator.engine.core import Engine
from narrator.engine.effects import Effect
from narrator.engine.legal import legal_actions
from narrator.engine.ruleset import RuleSet
from narrator.engine.state import State
from narrator.errors import RuleError


class Game:
    def __init__(self, rules: RuleSet, seats: int | None = None, seed: int = 0,
                 roles: Sequence[str] | None = None, history: int = 200,
                 hand_count: bool = False) -> None:
        self.engine = Engine(rules)
        self.state, self.opening = self.engine.new_game(seats, seed, roles, hand_count)
        self.history: list[State] = []
        self.limit = history

    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    def apply(self, action: Action) -> list[Effect]:
        if isinstance(action, Undo):
            if not self.history:
                raise RuleError("nothing to undo", "nothing_to_undo")
            self.state = self.history.pop()
            return self.engine.resume(self.state)
        trial = self.state.clone()
        effects = self.engine.apply(trial, action)
        self.history.append(self.state)
        del self.history[: -self.limit]
        self.state = trial
        return effects

    def legal(self) -> list[Action]:
        actions = legal_actions(self.engine.rules, self.state)
        if self.history:
            actions.append(Undo())
        return actions
