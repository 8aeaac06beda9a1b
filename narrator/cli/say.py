"""`narrator say TEXT | --cue ID [--param k=v ...] [--lang en|ru] [--out FILE.wav]`.

Speaks through the audio device, or writes the WAV (no sound card needed for that).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from dataclasses import replace
from pathlib import Path

from narrator.errors import ConfigError
from narrator.phrases.numbers import LANGUAGES
from narrator.voice.voice_config import VoiceSettings
from narrator.voice.voices import ENV

ParamValue = int | str | tuple[int, ...]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("text", nargs="?", help="what to say")
    parser.add_argument("--cue", metavar="ID", help="say a cue from the phrase book instead")
    parser.add_argument("--param", action="append", default=[], metavar="K=V",
                        help="a cue parameter: seat=3, votes=5, seats=3,7,8 (repeatable)")
    parser.add_argument("--lang", choices=LANGUAGES, default="en")
    parser.add_argument("--input", choices=("pads", "keypad", "both"), default="pads",
                        help="a cue's words for a table with pads, the keypad alone, or both")
    parser.add_argument("--answers", choices=("auto", "light", "screen"), default="auto",
                        help="where a check's answer shows, as a cue says it: the answer light, "
                        "the keypad's screen, or auto: as `narrator run` would with the box's "
                        "settings (the screen with keypad: terminal and no GPIO seat panel)")
    parser.add_argument("--config", metavar="FILE", help="the box's settings file, for "
                        "--answers auto (default: as `narrator run`)")
    parser.add_argument("--out", type=Path, metavar="FILE.wav", help="write a WAV, do not play")
    parser.add_argument("--voice", help="a voice: espeak-ng[:ID], hibari, piper, festival or pack:DIR "
                        "(default: the best installed; see `narrator voices`)")
    parser.add_argument("--rate", type=int, help="words per minute")
    parser.add_argument("--volume", type=float, help="0..1")
    parser.add_argument("--device", help="output device name or index")


def parse_param(item: str) -> tuple[str, ParamValue]:
    key, sep, raw = item.partition("=")
    if not sep or not key.isidentifier() or not raw:
        raise ConfigError("--param", item, "expected NAME=VALUE, e.g. seat=3 or seats=3,7")
    if "," in raw:
        try:
            return key, tuple(int(v) for v in raw.split(","))
        except ValueError:
            raise ConfigError("--param", item, "a list holds seat numbers: 3,7,8") from None
    return key, int(raw) if raw.isdigit() else raw


def text_of(args: argparse.Namespace) -> str:
    from narrator.phrases.book import PhraseBook, PhraseError

    if (args.text is None) == (args.cue is None):
        raise ConfigError("say", "", "give a TEXT or --cue ID (one of them)")
    if args.cue is None:
        if args.param:
            raise ConfigError("--param", args.param[0], "parameters go with --cue")
        return str(args.text)
    params = dict(parse_param(p) for p in args.param)
    try:
        book = PhraseBook.load(args.lang).for_input(getattr(args, "input", "pads")).for_answers(
            answers_of(args))
        return book.render(args.cue, params)
    except PhraseError as exc:
        raise ConfigError("--cue", args.cue, str(exc)) from None


def answers_of(args: argparse.Namespace) -> str:
    """The answer place the cue names: the one asked for, else the running box's (a wrong
    settings file: one line, exit 2)."""
    chosen = getattr(args, "answers", "auto")
    if chosen != "auto":
        return str(chosen)
    import os

    from narrator.boxconfig import load_settings
    from narrator.devices.gpio import gpio_available
    from narrator.evening.answers import answer_place
    from narrator.keypad_kinds import keypad_kind

    settings = load_settings(getattr(args, "config", None), {})
    # Mock pins (a laptop) light LEDs nobody sees.
    mock = os.environ.get("GPIOZERO_PIN_FACTORY", "").lower() == "mock"
    return answer_place(keypad_kind(settings.keypad.kind).screen, gpio_available() and not mock)


def run(args: argparse.Namespace) -> int:
    text = text_of(args)
    if not getattr(args, "verbose", 0):
        import logging

        # A voice that fails is said in one line at the end (_spoke), not by each attempt.
        logging.getLogger("narrator.voice.cache").setLevel(logging.CRITICAL)
    overrides = {k: getattr(args, k) for k in ("voice", "rate", "volume")
                 if getattr(args, k) is not None}
    device = args.device
    if device is not None and device.isdigit():
        device = int(device)
    if args.voice is not None:
        from narrator.voice.voices import resolve

        # A wrong or missing voice: one line naming it, exit 2 (before anything is rendered).
        overrides["voice"] = resolve(args.voice, args.lang).label
    settings = VoiceSettings(language=args.lang, device=device, **overrides)
    if settings.voice is None and not os.environ.get(ENV):
        from narrator.voice.proof import best_working

        # The default is the best voice that renders here, not merely the best installed.
        settings = replace(settings, voice=best_working(args.lang, settings.cache_path)[0])
    if args.out is not None:
        return _write(text, settings, args.out)
    return asyncio.run(_speak(text, settings))


def _write(text: str, settings: VoiceSettings, out: Path) -> int:
    from narrator.voice.speech import speech_cache
    from narrator.voice.wav import write_wav

    if not out.parent.is_dir():
        raise ConfigError(str(out), "", "no such folder")
    cache = speech_cache(settings)
    try:
        clip = cache.clip(text)
        if not _spoke(cache, settings):
            return 1  # no WAV in a voice nobody chose
        write_wav(out.resolve(), clip)
    finally:
        cache.close()
    return 0


def _spoke(cache: object, settings: VoiceSettings) -> bool:
    """Whether the chosen voice said it (not espeak-ng behind it); if not, one line why."""
    why = getattr(cache, "failure", None) or getattr(getattr(cache, "tts", None), "failure", None)
    if why is None:
        return True
    print(f"narrator: the {settings.voice or 'chosen'} voice did not speak: {why}", file=sys.stderr)
    return False


async def _speak(text: str, settings: VoiceSettings) -> int:
    from narrator.voice.pyttsx3_speaker import Pyttsx3Speaker

    speaker = Pyttsx3Speaker(settings, hold_time=False)
    try:
        # Rendered first: a voice that did not speak is not played in another one.
        await asyncio.to_thread(speaker.cache.clip, text)
        if not _spoke(speaker.cache, settings):
            return 1
        await speaker.say(text)
    finally:
        speaker.close()
    if speaker.player.failures:
        print(f"narrator: the audio device failed: {speaker.player.last_error}", file=sys.stderr)
        return 1
    return 0
