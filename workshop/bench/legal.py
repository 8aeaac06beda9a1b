"""`legal()` is the truth, at scale: 10,000 random games per rule set (`--quick`: 3).

Each game is played by narrator.sim.legality with a fixed seed (0, 1, 2, ...): random
host corrections and table mistakes mixed in, and at every step a sample of what
`legal()` offers and of other actions tried on a copy of the state. The figures are the
games played, the ones where legal() and the engine disagreed or the engine failed (must
be 0), the first such failure (its seed replays it), the actions tried and the games per
second (CPU time of this process). The Hypothesis profile `bench` runs the same property
on random seeds (HYPOTHESIS_PROFILE=bench pytest tests/engine/test_legal.py).
"""

from __future__ import annotations

import time

from narrator.rules.loader import bundled_names, load_bundled
from narrator.sim.legality import LegalityError, play_checked


def check_many(name: str, games: int) -> dict[str, float | int | str]:
    rules = load_bundled(name)
    failures: list[str] = []
    tried = 0
    start = time.process_time()
    for seed in range(games):
        try:
            tried += play_checked(rules, seed).tried
        except LegalityError as exc:
            failures.append(str(exc))
    elapsed = time.process_time() - start
    out: dict[str, float | int | str] = {
        f"legal_{name}_games": games,
        f"legal_{name}_failed": len(failures),
        f"legal_{name}_actions_tried": tried,
        f"legal_{name}_games_per_s": round(games / elapsed, 1) if elapsed else 0.0,
    }
    if failures:
        out[f"legal_{name}_first_failure"] = failures[0]
    return out


def run(quick: bool) -> dict[str, float | int | str]:
    games = 3 if quick else 10_000
    results: dict[str, float | int | str] = {}
    for name in bundled_names():
        results.update(check_many(name, games))
    return results
