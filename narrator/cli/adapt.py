"""`narrator adapt --recordings DIR [--method map|mllr] [--out PATH]`: adapt pocketsphinx's
English acoustic model to a club's room and voices (narrator.voice.adaptation).

DIR holds WAVs of commands said at the table and transcript.txt, one recording a line:
`name.wav the words said`. The result goes where the box looks for it
(recognizer.adaptation; default <state_dir>/adaptation/en) and is used from the next
start. A bad folder, line or recording is one line (exit 2).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from narrator.errors import ConfigError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--recordings", type=Path, metavar="DIR", required=True,
                        help="WAVs and transcript.txt ('name.wav the words said' a line)")
    parser.add_argument("--method", choices=("map", "mllr"), default="map",
                        help="map: the model's means moved toward the recordings (a folder; "
                        "default); mllr: one transform of them (a small file)")
    parser.add_argument("--out", type=Path, metavar="PATH",
                        help="where to write it (default: the box's recognizer.adaptation)")
    parser.add_argument("--config", metavar="FILE", help="the box's settings file")
    parser.add_argument("--state-dir", metavar="DIR", help="the box's state folder")


def run(args: argparse.Namespace) -> int:
    from narrator.settings import load_settings
    from narrator.voice.adaptation import adapt, dictionary, read_transcript

    out = args.out
    if out is None:
        settings = load_settings(args.config, {"state_dir": args.state_dir})
        out = settings.recognizer.adaptation
        if out is None:
            raise ConfigError("settings", "recognizer.adaptation", "not set; give --out PATH")
    known = dictionary()
    recordings = read_transcript(args.recordings, known)
    adapt(recordings, out, args.method, known)
    print(f"adapted to {len(recordings)} recordings ({args.method}): {out}")
    return 0
