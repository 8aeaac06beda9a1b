"""`narrator demo --fast` at every table size of every bundled rule set, in every
language: each must finish with an outcome. The figures are the demos played, the ones
that failed (must be 0) and the seconds they took in all.

`--quick` plays each rule set's smallest and largest table only.
"""

from __future__ import annotations

import asyncio
import time

from narrator.rules.loader import bundled_names, load_bundled
from workshop.bench.selfplay import table_sizes

LANGUAGES = ("en", "ru")


def play_one(name: str, seats: int, lang: str, seed: int = 1) -> str:
    """"" when the demo ended with an outcome, else what went wrong."""
    from narrator.demo import DemoOptions, choose_mode, play_demo

    options = choose_mode(DemoOptions(load_bundled(name), seats, seed, lang, fast=True, state_dir=None))
    try:
        result = asyncio.run(play_demo(options))
    except Exception as exc:  # the figure is what failed, not a traceback
        return f"{name} {seats} {lang}: {type(exc).__name__}: {exc}"
    if result.box.game.state.outcome is None:
        return f"{name} {seats} {lang}: no outcome"
    return ""


def run(quick: bool) -> dict[str, float | int | str]:
    played, failures = 0, []
    start = time.monotonic()
    for name in bundled_names():
        sizes = table_sizes(load_bundled(name))
        if quick:
            sizes = sorted({sizes[0], sizes[-1]})
        for seats in sizes:
            for lang in LANGUAGES:
                played += 1
                problem = play_one(name, seats, lang)
                if problem:
                    failures.append(problem)
    out: dict[str, float | int | str] = {"demos_played": played, "demos_failed": len(failures),
                                         "demos_seconds": round(time.monotonic() - start, 1)}
    if failures:
        out["demos_first_failure"] = failures[0]
    return out
