"""`narrator bench [--json] [--only AREA ...] [--quick]`."""

from __future__ import annotations

import argparse
import importlib
import json
import platform
from datetime import UTC, datetime
from typing import Any

from narrator.bench import BENCHES, ONLY_WHEN_NAMED
from narrator.errors import ConfigError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.add_argument("--only", action="append", metavar="AREA",
                        help=f"run only these ({', '.join(BENCHES)}; cpu only when named, it takes "
                        "an hour); repeatable")
    parser.add_argument("--quick", action="store_true", help="small samples (a smoke test)")


def run(args: argparse.Namespace) -> int:
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
