"""`scripts/tune-listen`: choose the pocketsphinx recognizer's settings on the tuning part
of the listen benchmark only (narrator.bench.listen_data), never on the held-back part.

For each decoding setting (whole-utterance decoding or streaming; the endpointer's
silence window) every tuning clip is heard once with every threshold at zero, keeping what
each utterance gave (grammar transcript, free transcript, how alike they sound). Then,
command by command, the agreement threshold that gets the most tuning commands right for
the fewest talk clips taken (a false accept costs FALSE_ACCEPT_COST right commands) is
picked; a threshold only touches utterances whose grammar transcript is its command, so
one pass is exact. It prints the figures of every setting and the thresholds to keep.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from narrator.bench.listen import Clip, _hear, clips, render
from narrator.bench.listen_data import TUNING_TALK
from narrator.voice.commands import Command, CommandSet
from narrator.voice.listen_clips import read_wav
from narrator.voice.recognizer_pocketsphinx import PocketsphinxRecognizer

FALSE_ACCEPT_COST = 3.0
GRID = [round(0.05 * i, 2) for i in range(21)]
Utterance = tuple[str, str, float]
# Decoding settings tried: streaming against whole-utterance decoding, the loudness trim
# (dB under the loudest part), the endpointer's silence window.
SETTINGS: list[dict[str, Any]] = [
    {"full_utterance": False, "trim_db": None, "loud_end": False},
    {"full_utterance": True, "trim_db": None, "loud_end": False},
    {"full_utterance": True, "trim_db": 10.0},
    {"full_utterance": True, "trim_db": 15.0},
    {"full_utterance": True, "trim_db": 20.0},
    {"full_utterance": True, "trim_db": 15.0, "loud_end": False},
    {"full_utterance": True, "trim_db": 15.0, "loud_end": False, "end_window": 0.2},
]


@dataclass
class Heard:
    clip: Clip
    utterances: list[Utterance]


def decide(commands: CommandSet, utterances: list[Utterance],
           thresholds: Mapping[str, float]) -> list[Command]:
    """What the recognizer would have given with these thresholds (its own rule)."""
    out: list[Command] = []
    for forced, free, score in utterances:
        command = commands.parse(forced)
        other = commands.parse(free)
        if command is not None and other is not None and \
                command.command == other.command and command.seat != other.seat:
            continue
        if command is None or score < thresholds.get(command.command, 1.01):
            command = other
        if command is not None:
            out.append(command)
    return out


def score(commands: CommandSet, heard: list[Heard],
          thresholds: Mapping[str, float]) -> tuple[int, int, int, int]:
    """(commands right, command clips, talk clips taken, talk clips)."""
    right = said = taken = talk = 0
    for h in heard:
        got = [(c.command, c.seat) for c in decide(commands, h.utterances, thresholds)]
        if h.clip.want is None:
            talk += 1
            taken += bool(got)
        else:
            said += 1
            right += got == [h.clip.want]
    return right, said, taken, talk


def tune(commands: CommandSet, heard: list[Heard]) -> dict[str, float]:
    names = sorted({name for name, _ in commands.sentences.values()})
    thresholds = dict.fromkeys(names, 0.5)
    for name in names:
        values = []
        for t in GRID:
            right, _, taken, _ = score(commands, heard, {**thresholds, name: t})
            values.append((right - FALSE_ACCEPT_COST * taken, t))
        best = max(v for v, _ in values)
        tied = [t for v, t in values if v == best]
        thresholds[name] = tied[len(tied) // 2]  # the middle of the best range: robust
    return thresholds


def hear_all(recognizer: PocketsphinxRecognizer, part: list[Clip]) -> list[Heard]:
    out = []
    for clip in part:
        before = len(recognizer.heard)
        _hear(recognizer, read_wav(clip.path).tobytes())
        out.append(Heard(clip, recognizer.heard[before:]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tune-listen", description=__doc__.split("\n")[0])
    parser.add_argument("--folder", type=Path, default=Path.home() / ".cache" / "narrator-tune",
                        help="where the tuning clips are kept between runs")
    parser.add_argument("--per-command", type=int, default=8)
    parser.add_argument("--settings", default="", help="which SETTINGS to try, e.g. 1,3")
    args = parser.parse_args(argv)
    commands = CommandSet.for_language("en")
    part = clips(commands, False, args.per_command, len(TUNING_TALK))
    render(part, args.folder)
    zero = dict.fromkeys({n for n, _ in commands.sentences.values()}, 0.0)
    chosen = [SETTINGS[int(i)] for i in args.settings.split(",")] if args.settings else SETTINGS
    for setting in chosen:
        recognizer = PocketsphinxRecognizer(commands, thresholds=zero, **setting)
        heard = hear_all(recognizer, part)
        thresholds = tune(commands, heard)
        right, said, taken, talk = score(commands, heard, thresholds)
        print(f"{setting}: right {right}/{said}, talk taken {taken}/{talk}; "
              f"thresholds {thresholds}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
