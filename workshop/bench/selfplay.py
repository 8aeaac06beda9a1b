"""Random self-play of every bundled rule set at every table size it allows.

Each game is dealt and played by the seeded simulated players (narrator.sim) straight
through the engine; seeds are fixed (0, 1, 2, ...) and the table size cycles through
the rule set's sizes (classic: 8-20, a sensible range of a game with no maximum; boxed:
its setup table's rows, with the special roles drawn by the seed as a club might). The
figures are the games played, the ones that raised or did not end (both must be 0:
the property "never raises and always ends"), the longest game in actions and the
games per second (CPU time of this process).

Each non-default value of a rule set's choice and true/false settings (the documents'
variants: classic's two angels, club's blind mafia...), and each preset (sport's
`tournament`), is played too, 1,000 games each (`selfplay_<set>_variants_failed` must be
0 as well).

`--quick` plays 50 games per rule set and 5 per variant; the full run 10,000 and 1,000.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from narrator.engine.actions import Action
from narrator.engine.ruleset import RuleSet
from narrator.rules.loader import bundled_names, load_bundled
from narrator.sim.selfplay import play, with_random_roles

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


def variants(rules: RuleSet) -> list[dict[str, Any]]:
    """One settings change per non-default value of each choice or true/false setting."""
    out: list[dict[str, Any]] = []
    for s in rules.settings:
        values = [c.value for c in s.choices] if s.kind == "choice" else (
            [True, False] if s.kind == "bool" else [])
        out.extend({s.key: v} for v in values if v != s.default)
    out.extend(dict(p.values) for p in rules.presets.values())  # sport's `tournament`
    return out


def play_games(rules: RuleSet, games: int, first_seed: int = 0) -> tuple[list[str], int]:
    """Seeded self-play over the rule set's table sizes: (what failed, longest game)."""
    sizes = table_sizes(rules)
    failures: list[str] = []
    longest = 0
    for seed in range(first_seed, first_seed + games):
        seats = sizes[seed % len(sizes)]
        record: list[Action] = []
        try:
            # A setup table's special roles drawn by the seed (boxed), so every role plays.
            state = play(with_random_roles(rules, seats, seed), seed, seats=seats, record=record)
        except Exception as exc:  # the figure is what failed, not a traceback
            failures.append(f"seed {seed}, {seats} seats: {type(exc).__name__}: {exc}")
            continue
        if state.phase != "over":
            failures.append(f"seed {seed}, {seats} seats: no outcome")
        longest = max(longest, len(record))
    return failures, longest


def play_variants(name: str, games: int) -> list[str]:
    rules = load_bundled(name)
    failures = []
    for change in variants(rules):
        changed = rules.with_settings(change)
        if not table_sizes(changed):
            continue
        failures += [f"{change}: {f}" for f in play_games(changed, games)[0]]
    return failures


def play_many(name: str, games: int, variant_games: int = 0,
              settings: Mapping[str, Any] | None = None) -> dict[str, float | int | str]:
    rules = load_bundled(name).with_settings(settings or {})
    sizes = table_sizes(rules)
    start = time.process_time()
    failures, longest = play_games(rules, games)
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
    if variant_games:
        broken = play_variants(name, variant_games)
        out[f"selfplay_{name}_variants"] = len(variants(rules))
        out[f"selfplay_{name}_variants_failed"] = len(broken)
        if broken:
            out[f"selfplay_{name}_variants_first_failure"] = broken[0]
    return out


def run(quick: bool) -> dict[str, float | int | str]:
    games, variant_games = (50, 5) if quick else (10_000, 1_000)
    results: dict[str, float | int | str] = {}
    for name in bundled_names():
        results.update(play_many(name, games, variant_games))
    return results
