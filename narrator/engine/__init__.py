"""The rules engine: pure game logic. Actions in, effects out; no I/O, clock or threads.

It imports only the standard library and narrator.errors (tests/engine/test_imports.py).
- `state.State`: the whole game as named fields and small frozen values (`Ballot`,
  `Elimination`, `Nomination`, `Pick`, `Window`); JSON in and out. What each ability
  remembers between steps and nights is its own value in it (`memory`: `VisitMemory`...).
- `tasks`: the agenda's moments as frozen values (`Speech(3)`, `CallOut("mafia_shot", 3)`).
- `context`: `Ctx`, the helpers every hook uses, and the hooks' shapes: `TaskSpec`,
  `Ability`, `Intervention`, win checks, elimination hooks, and the `Registry` of them.
- `registry.REGISTRY`: every hook by name, merged from the rule modules' own tables
  (night, inquiry, days, voting, discussion, abilities, protection, visits, turncoat,
  verdict, wins, maniac).
- `deal.deal`: the box's own deal, the deck shuffled by a seed.
- `core.Engine` runs actions; `game.Game` adds undo; `legal.legal_actions` lists what the
  engine accepts now.
"""

from narrator.engine.actions import Action, action_from_json
from narrator.engine.core import Engine
from narrator.engine.effects import Effect, Outcome
from narrator.engine.game import Game
from narrator.engine.ruleset import RuleSet
from narrator.engine.state import State

__all__ = ["Action", "Effect", "Engine", "Game", "Outcome", "RuleSet", "State", "action_from_json"]
