"""`narrator listen [--file AUDIO.wav] [--json] [--lang en|ru] [--engine E] [--model DIR]`.

Prints each voice command heard, one line each (with --json, one JSON object per line:
{"at", "command", "seat"?, "seconds"?, "text"}); nothing for speech that is no command.
A file is streamed through the same path as the microphone, in the microphone's chunks,
after a second of quiet (as a microphone hears before the first command: a file may start
with the command itself), and may be of any length; a file that cannot hold a command
(not a WAV, under 16 kHz, silent, clipped) is refused in one line (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from narrator.errors import ConfigError
from narrator.phrases.numbers import LANGUAGES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--file", type=Path, metavar="AUDIO.wav",
                        help="recognise a recording (default: listen to the microphone)")
    parser.add_argument("--json", action="store_true", help="one JSON object per command")
    parser.add_argument("--lang", choices=LANGUAGES, default="en")
    parser.add_argument("--engine", choices=("pocketsphinx", "vosk"),
                        help="default: vosk when --model is given, else pocketsphinx")
    parser.add_argument("--model", type=Path, metavar="DIR", help="a Vosk model folder")
    parser.add_argument("--wake-word", metavar="WORD", help="commands must start with it")
    parser.add_argument("--device", help="microphone name or index")
    parser.add_argument("--seconds", type=float, metavar="S",
                        help="microphone: stop after this much audio")


def run(args: argparse.Namespace) -> int:
    from narrator.voice.recognizer import check_audio, recognize_file
    from narrator.voice.recognizers import make_recognizer

    engine = args.engine or ("vosk" if args.model else "pocketsphinx")
    if args.lang != "en" and engine == "pocketsphinx":
        raise ConfigError("command line", f"--lang {args.lang}",
                          "pocketsphinx has only an English model; give --model DIR "
                          f"(a Vosk {args.lang} model folder) to use vosk")
    if args.model is not None and not args.model.is_dir():
        raise ConfigError("command line", "--model", f"no such folder: {args.model}")
    # The file is checked before the recognizer loads: a bad file is told at once.
    audio = check_audio(args.file) if args.file is not None else None
    recognizer = make_recognizer(engine, args.lang, args.model, args.wake_word)
    if audio is not None:
        commands = recognize_file(recognizer, audio)
    else:
        from narrator.voice.listener import listen

        commands = listen(recognizer, _live(args.device, args.seconds))
    for command in commands:
        if args.json:
            print(json.dumps(command.to_json(), ensure_ascii=False), flush=True)
        else:
            seat = f" {command.seat}" if command.seat is not None else ""
            print(f"{command.at:8.2f}  {command.command}{seat}  ({command.text})", flush=True)
    return 0


def _live(device: str | None, seconds: float | None) -> Iterator[bytes]:
    from narrator.voice.mic import Microphone
    from narrator.voice.recognizer import seconds_of

    index: str | int | None = int(device) if device and device.isdigit() else device
    heard = 0.0
    if seconds is None:
        print("listening; Ctrl-C stops", file=sys.stderr)
    for chunk in Microphone(index).chunks():
        if seconds is not None and heard >= seconds:
            return
        heard += seconds_of(chunk)
        yield chunk
