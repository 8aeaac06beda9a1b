"""`narrator ...`: the command line.

Each subcommand lives in its own module under narrator/cli/ with two functions:
`add_arguments(parser)` and `run(args) -> int`. Modules import their heavy libraries
inside `run`, so `narrator --help` and the fast paths stay quick.

Errors: any NarratorError that reaches here is printed as one line and the exit code is
2 for bad input files or arguments, 1 otherwise. No tracebacks for expected failures.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from typing import Protocol, cast

from narrator.errors import InputFileError, NarratorError

# Each area adds its own line here when its module exists.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "bench": ("narrator.cli.bench", "the project's benchmarks"),
    "demo": ("narrator.cli.demo", "a whole game with simulated players and mock pins"),
    "run": ("narrator.cli.run", "the daemon, as systemd starts it"),
    "check-hardware": ("narrator.cli.check_hardware", "check every LED, pad, button, key, speaker and mic"),
    "replay": ("narrator.cli.replay", "replay a recorded game (Polemica JSON) through the engine"),
    "say": ("narrator.cli.say", "speak a text or a cue, or write it to a WAV"),
    "listen": ("narrator.cli.listen", "recognise voice commands from a file or the microphone"),
    "voices": ("narrator.cli.voices", "the voices installed for each language, and the default"),
    "adapt": ("narrator.cli.adapt", "adapt the English voice-command model to a club's recordings"),
    "voice-pack": ("narrator.cli.voice_pack", "record or check a voice pack (a club's own host)"),
    "tournament": ("narrator.cli.tournament", "a tournament of many tables: the collector and its page"),
}


class _Command(Protocol):
    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


def _load(name: str) -> _Command:
    return cast(_Command, importlib.import_module(SUBCOMMANDS[name][0]))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="narrator", description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more logging")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (_module, help_text) in SUBCOMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        _load(name).add_arguments(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    level = logging.WARNING - 10 * min(2, args.verbose)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    try:
        return _load(args.command).run(args)
    except InputFileError as exc:
        print(f"narrator: {exc}", file=sys.stderr)
        return 2
    except NarratorError as exc:
        print(f"narrator: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
