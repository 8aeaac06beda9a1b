"""engine_games_per_s: complete random 10-seat sport games per second on one core."""

from __future__ import annotations

import time

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
    return {"engine_games_per_s": round(games / elapsed, 1), "engine_games": games}
