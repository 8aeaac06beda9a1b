"""Random legal play of the classic, boxed and club rule sets always ends with an outcome.

Each game deals a seeded deck for a seat count the rule set allows and then picks among
the engine's own legal actions (mostly letting the open window run out, as a table
does), so every hook of these rule sets (accusations and seconds, judges, heals,
guests, turncoats...) gets played in combinations no scenario spells out.
"""

from __future__ import annotations

import json
import random

import pytest

from narrator.engine.actions import Action, Remove
from narrator.engine.deal import deal
from narrator.engine.game import Game
from narrator.engine.legal import legal_actions
from narrator.engine.state import State
from narrator.rules.loader import load_bundled

RULE_SETS = ("classic", "boxed", "club")
GAMES = 30
# Classic has no fouls (002), so no host's fourth foul shortens a game; scattered random
# taps seldom agree on a victim: a random game may run to some 60,000 actions.
MAX_ACTIONS = 100_000
WINNERS = ("red", "black", "maniac", "draw")


def pick(game: Game, rnd: random.Random) -> Action:
    """Mostly let the window run out; otherwise a kind of action, then one of that kind,
    the host's actions (fouls, pauses, closing a Princeton day) only now and then, so
    they do not crowd out the players' taps, accusations and votes. Removals would end
    most games at once."""
    actions = legal_actions(game.engine.rules, game.state, host=rnd.random() < 0.1)
    if rnd.random() < 0.6:
        return actions[0]
    by_kind: dict[str, list[Action]] = {}
    for action in actions:
        if not isinstance(action, Remove):
            by_kind.setdefault(action.kind, []).append(action)
    return rnd.choice(by_kind[rnd.choice(sorted(by_kind))])


def play(name: str, seed: int) -> tuple[Game, int]:
    rules = load_bundled(name)
    rnd = random.Random(seed)
    seats = rnd.choice(sorted(rules.deck))
    game = Game(rules, seats, seed, deal(rules, seats, seed), history=1)
    for n in range(MAX_ACTIONS):
        if game.over:
            return game, n
        game.apply(pick(game, rnd))
    return game, MAX_ACTIONS


@pytest.mark.parametrize("name", RULE_SETS)
def test_random_legal_games_end_with_an_outcome(name: str) -> None:
    for seed in range(GAMES):
        game, actions = play(name, seed)
        st = game.state
        assert game.over, f"{name} seed {seed}: no outcome after {actions} actions"
        assert st.outcome is not None and st.outcome.winner in WINNERS
        assert len(st.living()) + len(st.eliminations) == st.seats
        again = State.from_json(json.loads(json.dumps(st.to_json())))
        assert again == st
