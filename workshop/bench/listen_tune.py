"""`scripts/tune-listen`: choose the pocketsphinx recognizer's settings on the tuning part
of the listen benchmark only (workshop.bench.listen_data), never on the held-back part.

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
import statistics
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from narrator.voice.commands import Command, CommandSet
from narrator.voice.listen_clips import read_wav
from narrator.voice.listen_clips import speech_end as voice_end
from narrator.voice.pocketsphinx_decoder import decide as recognizer_decide
from narrator.voice.pocketsphinx_settings import PocketsphinxSettings
from narrator.voice.recognizer import chunked, seconds_of
from narrator.voice.recognizer_pocketsphinx import PocketsphinxRecognizer
from workshop.bench.listen import CHUNK, Clip, _room, clips, render
from workshop.bench.listen_data import TUNING_TALK

FALSE_ACCEPT_COST = 3.0
# No threshold under 0.3: the tuning part's 32 talk clips cannot vouch for less (tuned
# down to 0.1, "next game" let held-back talk through).
GRID = [round(0.05 * i, 2) for i in range(6, 21)]
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
    {"full_utterance": True, "trim_db": 15.0, "early_end": None, "free_config": {}},
    {"full_utterance": True, "trim_db": 15.0, "early_end": None},
    {"full_utterance": True, "trim_db": 15.0, "early_end": 0.2},
    {"full_utterance": True, "trim_db": 15.0, "early_end": 0.15},
    {"full_utterance": True, "trim_db": 15.0, "early_end": 0.25},
    {"early_end": 0.2, "early_exact": False, "run_on_db": None},
    {"early_end": 0.2, "early_exact": False},
    {"early_end": 0.2, "early_exact": True},
    {"early_end": 0.3, "early_exact": True},
    {"early_end": 0.2, "early_quiet_db": 6.0},
    {"early_end": 0.2, "early_quiet_db": 10.0},
    {"early_end": 0.15, "early_quiet_db": 6.0},
]


@dataclass
class Heard:
    clip: Clip
    utterances: list[Utterance]
    ends: list[float]  # seconds after the spoken command's end each utterance was decided
    cpu: float = 0.0
    audio: float = 0.0
    got: list[tuple[str, int | None]] = field(default_factory=list)  # what the recognizer gave


def decide(commands: CommandSet, utterances: list[Utterance],
           thresholds: Mapping[str, float]) -> list[Command]:
    """What the recognizer would have given with these thresholds (its own rule)."""
    out = [recognizer_decide(commands, forced, free, score, thresholds, 1.01)
           for forced, free, score in utterances]
    return [c for c in out if c is not None]


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


def latency(commands: CommandSet, heard: list[Heard],
            thresholds: Mapping[str, float]) -> dict[str, float]:
    """Median ms from the end of the spoken command to the utterance that gave it, for the
    commands heard right: over all and by room."""
    by_room: dict[str, list[float]] = {"all": []}
    for h in heard:
        if h.clip.want is None:
            continue
        for utterance, end in zip(h.utterances, h.ends, strict=True):
            got = decide(commands, [utterance], thresholds)
            if [(c.command, c.seat) for c in got] == [h.clip.want]:
                by_room["all"].append(1000 * end)
                by_room.setdefault(_room(h.clip.spec), []).append(1000 * end)
                break
    return {room: round(statistics.median(v)) for room, v in by_room.items() if v}


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
        samples = read_wav(clip.path).tobytes()
        speech_end = voice_end(clip.spec)
        heard = Heard(clip, [], [], audio=seconds_of(samples))
        fed = clock = 0.0  # clock: when the recognizer is done (as the bench's _hear)
        chunks = [*chunked(samples, CHUNK), b""]
        for chunk in chunks:
            fed += seconds_of(chunk)
            before = len(recognizer.heard)
            start = time.process_time()
            given = recognizer.accept(chunk) if chunk else recognizer.flush()
            heard.got += [(c.command, c.seat) for c in given]
            spent = time.process_time() - start
            heard.cpu += spent
            clock = max(clock, fed) + spent
            for utterance in recognizer.heard[before:]:
                heard.utterances.append(utterance)
                heard.ends.append(max(0.0, clock - speech_end))
        out.append(heard)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tune-listen", description=__doc__.split("\n")[0])
    parser.add_argument("--folder", type=Path, default=Path.home() / ".cache" / "narrator-tune",
                        help="where the tuning clips are kept between runs")
    parser.add_argument("--per-command", type=int, default=8)
    parser.add_argument("--settings", default="", help="which SETTINGS to try, e.g. 1,3")
    parser.add_argument("--show", action="store_true", help="print the clips heard wrong")
    parser.add_argument("--as-is", action="store_true",
                        help="hear with the kept thresholds, not zero (needed with early_end, "
                             "whose tentative decisions use them; re-tuning is then approximate)")
    args = parser.parse_args(argv)
    commands = CommandSet.for_language("en")
    part = clips(commands, False, args.per_command, len(TUNING_TALK))
    render(part, args.folder)
    zero = dict.fromkeys({n for n, _ in commands.sentences.values()}, 0.0)
    chosen = [SETTINGS[int(i)] for i in args.settings.split(",")] if args.settings else SETTINGS
    for setting in chosen:
        start = None if args.as_is else zero
        recognizer = PocketsphinxRecognizer(commands, PocketsphinxSettings(**setting),
                                            thresholds=start)
        heard = hear_all(recognizer, part)
        if args.as_is:
            said = sum(h.clip.want is not None for h in heard)
            right = sum(h.got == [h.clip.want] for h in heard if h.clip.want is not None)
            taken = sum(bool(h.got) for h in heard if h.clip.want is None)
            print(f"{setting} as heard with the kept thresholds: right {right}/{said}, talk "
                  f"taken {taken}/{len(heard) - said}", flush=True)
            if args.show:
                for h in heard:
                    if (h.clip.want is None) == bool(h.got) or (
                            h.clip.want is not None and h.got != [h.clip.want]):
                        print(f"  {h.clip.want or 'talk'} {h.clip.spec.text!r} "
                              f"{h.clip.spec.voice} {_room(h.clip.spec)} -> {h.got}")
        thresholds = tune(commands, heard)
        right, said, taken, talk = score(commands, heard, thresholds)
        rtf = sum(h.cpu for h in heard) / sum(h.audio for h in heard)
        print(f"{setting}: right {right}/{said}, talk taken {taken}/{talk}; latency p50 ms "
              f"{latency(commands, heard, thresholds)}; rtf {rtf:.3f}; "
              f"thresholds {thresholds}", flush=True)
        if args.show:
            for h in heard:
                got = [c.text for c in decide(commands, h.utterances, thresholds)]
                want = "talk" if h.clip.want is None else h.clip.want
                if (h.clip.want is None) == bool(got) or (h.clip.want is not None and
                                                          len(got) != 1):
                    print(f"  {want} {h.clip.spec.text!r} {h.clip.spec.voice} "
                          f"{_room(h.clip.spec)} -> {got} {h.utterances}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
