"""`scripts/adapt-listen`: an adaptation of pocketsphinx's model made from the listen
benchmark's TUNING part only (its voices, its sentences, all four rooms), as a club's
recordings folder would be given to `narrator adapt`; the benchmark's adapted_ line then
hears the held-back part with it (NARRATOR_ADAPTATION=PATH narrator bench --only listen).

The clips are drawn with another seed than scripts/tune-listen's (SEED), so the tuning
figures are not measured on the very clips the model was adapted to; `--voices` keeps
some tuning voices only (adapt on some, hear the others: how well it carries to voices it
never heard).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from narrator.voice.adaptation import METHODS, TRANSCRIPT, adapt, dictionary, read_transcript
from narrator.voice.commands import CommandSet
from workshop.bench.listen import clips, render
from workshop.bench.listen_data import TUNING_TALK, TUNING_VOICES

SEED = 101
PER_COMMAND = 24


def recordings(folder: Path, per_command: int = PER_COMMAND, voices: tuple[str, ...] = (),
               seed: int = SEED) -> Path:
    """Write the tuning part's clips and transcript.txt into `folder` (a club's folder)."""
    commands = CommandSet.for_language("en")
    part = clips(commands, False, per_command, len(TUNING_TALK), seed=seed)
    if voices:
        part = [c for c in part if c.spec.voice in voices]
    render(part, folder)
    lines = [f"{c.path.name} {' '.join(re.findall(r'[a-z]+', c.spec.text.lower()))}"
             for c in part]
    (folder / TRANSCRIPT).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="adapt-listen", description=__doc__.split("\n")[0])
    parser.add_argument("--folder", type=Path,
                        default=Path.home() / ".cache" / "narrator-adapt",
                        help="where the clips and the adaptation are kept")
    parser.add_argument("--method", choices=METHODS, default="map")
    parser.add_argument("--per-command", type=int, default=PER_COMMAND)
    parser.add_argument("--voices", default="", help="tuning voices to keep, e.g. en-us,flite:slt")
    args = parser.parse_args(argv)
    voices = tuple(v for v in args.voices.split(",") if v)
    unknown = [v for v in voices if v not in TUNING_VOICES]
    if unknown:
        parser.error(f"--voices: not tuning voices: {', '.join(unknown)}")
    folder = recordings(args.folder / "recordings", args.per_command, voices)
    known = dictionary()
    out = args.folder / f"en-{args.method}{'-' + '+'.join(voices) if voices else ''}"
    adapt(read_transcript(folder, known), out, args.method, known)
    print(f"NARRATOR_ADAPTATION={out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
