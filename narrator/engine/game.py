"""A game in play: the engine, the current state and the undo history.

`apply` works on a copy and commits only when the action was legal, so even a rule hook
that fails half-way leaves the game as it was. `Undo` goes back to the exact state
before the last action and returns the effects that bring the table back to it.

The engine has no clock, but an undo must give the table back its time as well: the box
hands each action the seconds its open window had left when it came (`left`), and the
game keeps them, with the action, beside the state it goes back to (`taken`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from narrator.engine.actions import Action, Undo
from narrator.engine.core import Engine
from narrator.engine.effects import Effect
from narrator.engine.legal import legal_actions
from narrator.engine.ruleset import RuleSet
from narrator.engine.state import State
from narrator.errors import RuleError


@dataclass(frozen=True, slots=True)
class Taken:
    """An action an undo would take back, and the seconds the open window's timer had left
    when it came (None: no timer ran, or a game replayed without one)."""

    action: Action
    left: float | None = None


class Game:
    def __init__(self, rules: RuleSet, seats: int | None = None, seed: int = 0,
                 roles: Sequence[str] | None = None, history: int = 200,
                 hand_count: bool = False) -> None:
        self.engine = Engine(rules)
        self.state, self.opening = self.engine.new_game(seats, seed, roles, hand_count)
        self.history: list[State] = []
        self.taken: list[Taken] = []  # in step with `history`: what each undo takes back
        self.limit = history

    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    def apply(self, action: Action, left: float | None = None) -> list[Effect]:
        """`left`: the seconds the open window had left when the action came (the box's
        timer), kept for an undo of it."""
        if isinstance(action, Undo):
            if not self.history:
                raise RuleError("nothing to undo", "nothing_to_undo")
            self.state = self.history.pop()
            if self.taken:
                self.taken.pop()
            return self.engine.resume(self.state)
        trial = self.state.clone()
        effects = self.engine.apply(trial, action)
        self.history.append(self.state)
        self.taken.append(Taken(action, left))
        del self.history[: -self.limit]
        del self.taken[: -self.limit]
        self.state = trial
        return effects

    def legal(self) -> list[Action]:
        actions = legal_actions(self.engine.rules, self.state)
        if self.history:
            actions.append(Undo())
        return actions
