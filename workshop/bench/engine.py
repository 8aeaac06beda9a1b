"""The engine's speed on complete random 10-seat sport games, on one core.

- engine_games_per_s: whole games simulated per second: the seeded simulated players
  decide every tap, nomination and vote, and the engine plays them (CPU time of this
  process, so one core).
- engine_only_games_per_s: the same games' actions replayed through the engine alone,
  to tell the engine's share from the simulated players'.
"""

from __future__ import annotations

import time

from narrator.engine.actions import Action
from narrator.engine.core import Engine
from narrator.engine.deal import deal
from narrator.rules.loader import load_bundled
from narrator.sim.selfplay import play


def run(quick: bool) -> dict[str, float | int | str]:
    rules = load_bundled("sport")
    games = 50 if quick else 2000
    play(rules, 0)  # warm caches and imports
    start = time.process_time()
    for seed in range(games):
        play(rules, seed)
    elapsed = time.process_time() - start
    recorded = [_actions(seed) for seed in range(min(games, 300))]
    engine = Engine(rules)
    start = time.process_time()
    for seed, actions in enumerate(recorded):
        st, _ = engine.new_game(10, seed, deal(rules, 10, seed))
        for action in actions:
            engine.apply(st, action)
    engine_only = time.process_time() - start
    return {"engine_games_per_s": round(games / elapsed, 1), "engine_games": games,
            "engine_only_games_per_s": round(len(recorded) / engine_only, 1)}


def _actions(seed: int) -> list[Action]:
    """Every action a simulated game applied, in order."""
    applied: list[Action] = []
    play(load_bundled("sport"), seed, record=applied)
    return applied
