"""`narrator voices [--lang en|ru] [--json]`: the voices per language, installed or not.

The first installed voice of a language is its default (when neither the config nor
--voice names one); a missing one says what to install.
"""

from __future__ import annotations

import argparse
import json

from narrator.phrases.numbers import LANGUAGES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=LANGUAGES, help="one language (default: both)")
    parser.add_argument("--json", action="store_true", help="as JSON")


def run(args: argparse.Namespace) -> int:
    from narrator.voice.voices import VOICES, best

    rows = []
    for lang in [args.lang] if args.lang else list(LANGUAGES):
        default = best(lang)
        for voice in sorted((v for v in VOICES if lang in v.languages), key=lambda v: -v.rank):
            ok = voice.installed()
            rows.append({"lang": lang, "voice": voice.name, "installed": ok,
                         "version": voice.version() if ok else None,
                         "default": voice.name == default, "install": None if ok else voice.needs})
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    for row in rows:
        mark = "*" if row["default"] else " "
        state = f"installed {row['version']}" if row["installed"] else f"missing: {row['install']}"
        print(f"{row['lang']} {mark} {row['voice']:<10} {state}")
    print("* the default; `--voice NAME` or `voice: {name: NAME}` in the config chooses another")
    return 0
