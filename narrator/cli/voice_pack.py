"""`narrator voice-pack record DIR --lang ru` and `narrator voice-pack check DIR`.

record: prompts each item (cue, cue part, number, word) on screen in turn and records it
with the microphone (Enter starts, Enter stops; s skips, q quits), trims the silence,
normalises the loudness and saves it with the manifest after every item, so a session can
stop and go on later (items already recorded are skipped unless --again).
check: one line per problem file (exit 2 if any), then what is still missing.
The format: docs/voice-packs.md.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from narrator.phrases.numbers import LANGUAGES

if TYPE_CHECKING:
    from narrator.phrases.book import PhraseBook
    from narrator.voice.packs import Pack
    from narrator.voice.wav import Clip


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=("record", "check"))
    parser.add_argument("folder", type=Path, metavar="DIR")
    parser.add_argument("--lang", choices=LANGUAGES,
                        help="the pack's language (record: required for a new pack)")
    parser.add_argument("--name", default="", help="record: the pack's name (the club, the host)")
    parser.add_argument("--rate", type=int, default=22050, help="record: sample rate of a new pack")
    parser.add_argument("--device", help="record: input device name or index")
    parser.add_argument("--again", action="store_true", help="record: also items already recorded")
    parser.add_argument("--only", metavar="PREFIX", default="",
                        help="record: only items whose id starts so (e.g. number.)")


def run(args: argparse.Namespace) -> int:
    from narrator.errors import ConfigError
    from narrator.phrases.book import PhraseBook
    from narrator.voice.packs import MANIFEST, Pack, check

    folder: Path = args.folder
    if args.action == "check":
        pack = Pack.load(folder)
        if args.lang is not None and args.lang != pack.lang:
            raise ConfigError("--lang", args.lang, f"the pack {folder} speaks {pack.lang}")
        problems, missing = check(pack, PhraseBook.load(pack.lang))
        for line in problems:
            print(line, file=sys.stderr)
        print(f"{folder}: {len(pack.texts)} clips, {len(missing)} missing "
              "(the TTS voice says what needs them)")
        for item in missing:
            print(f"  missing {item.id}: {item.text}")
        return 2 if problems else 0
    if (folder / MANIFEST).exists():
        pack = Pack.load(folder)
        if args.lang is not None and args.lang != pack.lang:
            raise ConfigError("--lang", args.lang, f"the pack {folder} speaks {pack.lang}")
    else:
        if args.lang is None:
            raise ConfigError("--lang", "", f"a new pack ({folder}) needs its language")
        pack = Pack.new(folder, args.lang, args.rate, args.name)
        pack.save()
    device = int(args.device) if args.device and args.device.isdigit() else args.device
    return record(pack, PhraseBook.load(pack.lang), _microphone(device, pack.rate), input,
                  args.again, args.only)


def _microphone(device: str | int | None, rate: int) -> Callable[[], Clip]:
    """A take from the microphone: from now until the host presses Enter."""

    def take() -> Clip:
        from narrator.devices.sound_devices import record_until

        return record_until(lambda: input("  recording... Enter to stop > "), rate, device)

    return take


def record(pack: Pack, book: PhraseBook, take: Callable[[], Clip], ask: Callable[[str], str],
           again: bool = False, only: str = "") -> int:
    """Prompt each item, record it with `take`, keep it (trimmed, normalised) and save the
    manifest after each one."""
    from narrator.voice.packs import PackError, items

    todo = [i for i in items(book) if i.id.startswith(only) and (again or i.id not in pack.texts)]
    print(f"{len(todo)} items to record into {pack.folder}. Enter starts and stops a take; "
          "s then Enter skips; q then Enter quits.")
    for n, item in enumerate(todo, 1):
        print(f"\n[{n}/{len(todo)}] {item.id}\n    {item.text}")
        answer = ask("  Enter to record > ").strip().lower()
        if answer == "q":
            break
        if answer == "s":
            continue
        try:
            stored = pack.add(item, take())
        except PackError as exc:
            print(f"  {exc}: not kept, record it again later")
            continue
        pack.save()
        print(f"  kept {stored.seconds:.1f} s")
    return 0
