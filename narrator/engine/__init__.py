"""The rules engine: pure game logic. Actions in, effects out; no I/O, clock or threads."""

from narrator.engine.actions import Action, action_from_json
from narrator.engine.core import Engine
from narrator.engine.effects import Effect, Outcome
from narrator.engine.game import Game
from narrator.engine.ruleset import RuleSet
from narrator.engine.state import State

__all__ = ["Action", "Effect", "Engine", "Game", "Outcome", "RuleSet", "State", "action_from_json"]
