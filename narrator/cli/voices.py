"""`narrator voices [--lang en|ru] [--json] [--cache-dir DIR]`: the voices per language,
installed or not, each installed one proven by rendering a short cue (remembered per
version: see narrator.voice.proof).

The default of a language (when neither the config nor --voice names one) is its best
voice that renders here and fits this board (narrator.boards); a broken one says why, a
missing one what to install.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from narrator.phrases.numbers import LANGUAGES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=LANGUAGES, help="one language (default: both)")
    parser.add_argument("--json", action="store_true", help="as JSON")
    parser.add_argument("--cache-dir", type=Path, metavar="DIR",
                        help="the speech cache, where proven voices are remembered "
                        "(default: as `narrator run`)")


def run(args: argparse.Namespace) -> int:
    from narrator.boards import read_board
    from narrator.voice.proof import best_working, prove
    from narrator.voice.voice_config import VoiceSettings
    from narrator.voice.voices import VOICES

    folder = args.cache_dir or VoiceSettings().cache_path
    board = read_board()
    allowed = board.voices()
    rows = []
    for lang in [args.lang] if args.lang else list(LANGUAGES):
        default, proofs = best_working(lang, folder, allowed)
        proven = {p.voice: p for p in proofs}
        for voice in sorted((v for v in VOICES if lang in v.languages), key=lambda v: -v.rank):
            ok = voice.installed()
            proof = proven.get(voice.name) or (prove(voice.name, lang, folder) if ok else None)
            rows.append({"lang": lang, "voice": voice.name, "installed": ok,
                         "version": voice.version() if ok else None,
                         "works": proof.ok if proof is not None else None,
                         "broken": proof.reason if proof is not None and not proof.ok else None,
                         "fits": board.fits(voice.name) or None,
                         "default": voice.name == default, "install": None if ok else voice.needs})
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    for row in rows:
        mark = "*" if row["default"] else " "
        if not row["installed"]:
            state = f"missing: {row['install']}"
        elif not row["works"]:
            state = f"BROKEN {row['version']}: {row['broken']}"
        else:
            state = f"works {row['version']}"
            if row["fits"]:
                state += f" (not this board's default: {row['fits']})"
        print(f"{row['lang']} {mark} {row['voice']:<10} {state}")
    print(f"* the default on this {board.profile.key}; `--voice NAME` or `voice: {{name: NAME}}` "
          "in the config chooses another")
    return 0
