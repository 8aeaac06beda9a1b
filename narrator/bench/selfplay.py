"""Random self-play of every bundled rule set at every table size it allows.

Each game is dealt and played by the seeded simulated players (narrator.sim) straight
through the engine; seeds are fixed (0, 1, 2, ...) and the table size cycles through
the rule set's sizes (classic: 8-20, a sensible range of a game with no maximum). The
figures are the games played, the ones that raised or did not end (both must be 0:
the property "never raises and always ends"), the longest game in actions and the
games per second (CPU time of this process).

`--quick` plays 50 games per rule set; the full run 10,000.
"""

from __future__ import annotations

import time

from narrator.engine.actions import Action
from narrator.engine.ruleset import RuleSet
from narrator.rules.loader import bundled_names, load_bundled
from narrator.sim.selfplay import play

# The largest table tried for a rule set with no maximum (classic: 002 has none).
OPEN_ENDED_UP_TO = 20


def table_sizes(rules: RuleSet) -> list[int]:
    """Every table size the rule set allows, up to OPEN_ENDED_UP_TO (no bundled rule set
    with a maximum goes beyond it)."""
    sizes = []
    for n in range(rules.min_seats, min(rules.max_seats, OPEN_ENDED_UP_TO) + 1):
        try:
            rules.deck_for(n)
        except ValueError:
            continue
        sizes.append(n)
    return sizes


def play_many(name: str, games: int) -> dict[str, float | int | str]:
    rules = load_bundled(name)
    sizes = table_sizes(rules)
    failures: list[str] = []
    longest = 0
    start = time.process_time()
    for seed in range(games):
        seats = sizes[seed % len(sizes)]
        record: list[Action] = []
        try:
            state = play(rules, seed, seats=seats, record=record)
        except Exception as exc:  # the figure is what failed, not a traceback
            failures.append(f"seed {seed}, {seats} seats: {type(exc).__name__}: {exc}")
            continue
        if state.phase != "over":
            failures.append(f"seed {seed}, {seats} seats: no outcome")
        longest = max(longest, len(record))
    elapsed = time.process_time() - start
    out: dict[str, float | int | str] = {
        f"selfplay_{name}_games": games,
        f"selfplay_{name}_failed": len(failures),
        f"selfplay_{name}_seats": f"{sizes[0]}-{sizes[-1]}",
        f"selfplay_{name}_longest_actions": longest,
        f"selfplay_{name}_games_per_s": round(games / elapsed, 1) if elapsed else 0.0,
    }
    if failures:
        out[f"selfplay_{name}_first_failure"] = failures[0]
    return out


def run(quick: bool) -> dict[str, float | int | str]:
    games = 50 if quick else 10_000
    results: dict[str, float | int | str] = {}
    for name in bundled_names():
        results.update(play_many(name, games))
    return results
