"""`narrator bench [--json] [--only AREA ...] [--quick]`."""

from __future__ import annotations

import argparse
import importlib
import json
import platform
from datetime import UTC, datetime
from typing import Any

from narrator.errors import ConfigError

# The benchmarks live in the source tree's workshop (they never run on the box), so a box
# installed from a wheel has none; its `narrator bench` says so in one line.
NO_WORKSHOP = "the benchmarks come with the source tree (workshop/): run from a clone's .venv"


def _table() -> tuple[dict[str, str], frozenset[str]]:
    try:
        from workshop.bench import BENCHES, ONLY_WHEN_NAMED
    except ImportError:
        return {}, frozenset()
    return BENCHES, ONLY_WHEN_NAMED


def add_arguments(parser: argparse.ArgumentParser) -> None:
    benches, _ = _table()
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.add_argument("--only", action="append", metavar="AREA",
                        help=f"run only these ({', '.join(benches) or 'none here'}; cpu only when named, "
                        "it takes an hour); repeatable")
    parser.add_argument("--quick", action="store_true", help="small samples (a smoke test)")


def run(args: argparse.Namespace) -> int:
    BENCHES, ONLY_WHEN_NAMED = _table()
    if not BENCHES:
        raise ConfigError("narrator bench", "", NO_WORKSHOP)
    chosen = args.only or [name for name in BENCHES if name not in ONLY_WHEN_NAMED]
    for name in chosen:
        if name not in BENCHES:
            raise ConfigError("--only", name, f"no such benchmark (known: {', '.join(BENCHES)})")
    results: dict[str, Any] = {
        "machine": f"{platform.node()} {platform.machine()} {platform.processor() or ''}".strip(),
        "python": platform.python_version(),
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
    }
    for name in chosen:
        module = importlib.import_module(BENCHES[name])
        results.update(module.run(args.quick))
    if args.json:
        print(json.dumps(results, sort_keys=True))
    else:
        for key, value in results.items():
            print(f"{key:32} {value}")
    return 0
