"""`narrator adapt --recordings DIR [--method map|mllr] [--out PATH]`: adapt pocketsphinx's
English acoustic model to a club's room and voices (narrator.voice.adaptation).
`narrator adapt --recordings DIR --record NAME`: first record a club member saying the
commands at the table (the prompts on screen; Enter starts and stops a take, s skips, q
quits), into DIR and its transcript; then adapt without --record.

DIR holds WAVs of commands said at the table and transcript.txt, one recording a line:
`name.wav the words said`. The result goes where the box looks for it
(recognizer.adaptation; default <state_dir>/adaptation/en) and is used from the next
start. A bad folder, line or recording is one line (exit 2).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from narrator.errors import ConfigError

if TYPE_CHECKING:
    from narrator.voice.wav import Clip

MIN_TAKE = 0.3  # seconds: shorter is an Enter pressed twice, not a command


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--recordings", type=Path, metavar="DIR", required=True,
                        help="WAVs and transcript.txt ('name.wav the words said' a line)")
    parser.add_argument("--method", choices=("map", "mllr"), default="map",
                        help="map: the model's means moved toward the recordings (a folder; "
                        "default); mllr: one transform of them (a small file)")
    parser.add_argument("--out", type=Path, metavar="PATH",
                        help="where to write it (default: the box's recognizer.adaptation)")
    parser.add_argument("--record", metavar="NAME",
                        help="record NAME saying the commands into DIR (no adapting)")
    parser.add_argument("--per-command", type=int, default=2,
                        help="--record: how many times each command is asked for")
    parser.add_argument("--device", help="--record: input device name or index")
    parser.add_argument("--config", metavar="FILE", help="the box's settings file")
    parser.add_argument("--state-dir", metavar="DIR", help="the box's state folder")


def run(args: argparse.Namespace) -> int:
    from narrator.boxconfig import load_settings
    from narrator.voice.adaptation import adapt, dictionary, read_transcript

    if args.record is not None:
        from narrator.cli.voice_pack import _microphone

        device = int(args.device) if args.device and args.device.isdigit() else args.device
        return record(args.recordings, args.record, _microphone(device, 16000), input,
                      args.per_command)
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


def record(folder: Path, speaker: str, take: Callable[[], Clip], ask: Callable[[str], str],
           per_command: int = 2) -> int:
    """Prompt each command, record it with `take` and keep it (folder/SPEAKER-NN.wav and a
    transcript line) at once."""
    from narrator.voice.adaptation import add_recording, prompts

    if not re.fullmatch(r"[A-Za-z0-9_-]+", speaker):
        raise ConfigError("command line", "--record", f"a name of letters, digits, - or _; "
                          f"got {speaker!r}")
    # The same prompts for the same name, so a session stopped early goes on where it was.
    asked = enumerate(prompts(per_command, seed=sum(map(ord, speaker))), 1)
    todo = [(n, text) for n, text in asked if not (folder / f"{speaker}-{n:02d}.wav").exists()]
    print(f"{len(todo)} commands for {speaker} to say into {folder}, as at the table. Enter "
          "starts and stops a take; s then Enter skips; q then Enter quits.")
    kept = 0
    for i, (n, text) in enumerate(todo, 1):
        print(f"\n[{i}/{len(todo)}]  {text}")
        answer = ask("  Enter to record > ").strip().lower()
        if answer == "q":
            break
        if answer == "s":
            continue
        clip = take()
        if clip.seconds < MIN_TAKE:
            print(f"  {clip.seconds:.1f} s: too short, not kept")
            continue
        add_recording(folder, f"{speaker}-{n:02d}.wav", text, clip.samples, clip.rate)
        kept += 1
    print(f"\nkept {kept}; adapt with: narrator adapt --recordings {folder}")
    return 0
