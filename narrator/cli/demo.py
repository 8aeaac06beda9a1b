"""`narrator demo`: a whole game with simulated players, mock pins and the real voice.

`--fast` plays it on a virtual clock as fast as the machine allows. Where there is no
sound device the voice goes into a WAV file (`--out`, default in the state folder).
The journal and, at the end, the protocol (JSON, Polemica JSON, HTML) go to the state
folder (`--state-dir`, default ./narrator-demo); a demo killed half-way resumes there.
`--json` makes the last line the protocol as JSON (winner, eliminations, timeline).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from narrator.engine.actions import Action
from narrator.engine.effects import Effect, Eliminated, GameOver
from narrator.errors import ConfigError
from narrator.rules.loader import load

_HOW = {"vote": "voted out", "shot": "shot at night", "fouls": "removed after four fouls",
        "removed": "removed", "lifted": "lifted with the other tied players"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="sport", help="a bundled rule set or a rule-set file")
    parser.add_argument("--seats", type=int, help="players (default: the rule set's smallest deck)")
    parser.add_argument("--lang", default="en", choices=("en", "ru"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fast", action="store_true", help="virtual clock: as fast as possible")
    parser.add_argument("--out", type=Path, metavar="FILE.wav",
                        help="speak into this WAV instead of the sound device")
    parser.add_argument("--state-dir", type=Path, default=Path("narrator-demo"),
                        help="where the journal and protocol go (default: ./narrator-demo)")
    parser.add_argument("--no-state", action="store_true",
                        help="keep no journal and write no protocol")
    parser.add_argument("--json", action="store_true", help="last line: the protocol as JSON")
    parser.add_argument("--voice", help="a voice: espeak-ng[:ID], hibari, piper, festival or pack:DIR "
                        "(default: the best installed; see `narrator voices`)")
    parser.add_argument("--foul-rate", type=float, default=0.02, metavar="P",
                        help="how often the simulated host gives a foul at a moment of the day")
    parser.add_argument("--names", metavar="'ANN,BOB,...'",
                        help="the players' names, seat 1 first (the table has as many seats "
                        "unless --seats says otherwise)")
    parser.add_argument("--input", choices=("pads", "keypad"), default="pads",
                        help="how the simulated players give their inputs: pads and the "
                        "host's keypad, or the keypad alone (a table without pads)")
    parser.add_argument("--preset", metavar="NAME",
                        help="a preset of the rule set's settings, e.g. tournament (sport); "
                        "--set values go over it")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="settings",
                        help="a rule-set setting, e.g. fouls.cancel_vote=nearest (repeatable)")


def run(args: argparse.Namespace) -> int:
    from narrator.demo import DemoOptions, choose_mode, play_demo
    from narrator.evening import GameSetup, parse_names
    from narrator.rules.settings import configure, with_preset

    base = load(args.rules)
    names = parse_names(args.names) if args.names else ()
    seats = args.seats or len(names) or base.min_seats
    # A preset's settings with --set over them; an unknown preset: one line, exit 2.
    settings = with_preset(base, args.preset, parse_settings(args.settings))
    rules = configure(base, settings, seats)  # a table the rules forbid: one line, exit 2
    # Names that can't be the table's: one line naming the seat and the reason, exit 2.
    names = GameSetup(rules=args.rules, seats=seats, lang=args.lang, names=names,
                      settings=settings).check("--names").names
    voice = None
    if args.voice is not None:
        from narrator.voice.settings import VoiceSettings
        from narrator.voice.voices import resolve

        voice = VoiceSettings(language=args.lang, voice=resolve(args.voice, args.lang).label)
    options = choose_mode(DemoOptions(rules, seats, args.seed, args.lang, args.fast, args.out,
                                      voice=voice,
                                      state_dir=None if args.no_state else args.state_dir,
                                      rules_spec=args.rules, settings=settings,
                                      foul_rate=args.foul_rate, names=names,
                                      keypad_only=args.input == "keypad"))
    print(f"narrator demo: {rules.title}, {seats} players, seed {args.seed}"
          f"{', virtual clock' if options.fast else ''}", flush=True)
    result = asyncio.run(play_demo(options, on_effects=_print_progress))
    st = result.box.game.state
    minutes = result.box.clock.now() / 60 if options.fast else None
    if st.outcome:
        length = f" after {minutes:.0f} minutes of play" if minutes is not None else ""
        print(f"winner: {st.outcome.winner} ({st.outcome.reason}){length}")
    if result.wav is not None:
        print(f"the game's audio: {result.wav}")
    if result.files is not None:
        files = [result.files.json, result.files.html, result.files.polemica]
        print("the protocol: " + ", ".join(str(f) for f in files if f is not None))
    if args.json:
        print(json.dumps(result.protocol(), ensure_ascii=False))
    return 0


def parse_settings(items: list[str]) -> dict[str, Any]:
    """`KEY=VALUE` pairs from the command line; values read as YAML scalars (true, 90, none)."""
    import yaml

    out: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key:
            raise ConfigError("--set", item, "expected KEY=VALUE")
        try:
            value = yaml.safe_load(text) if text else ""
        except yaml.YAMLError:
            value = text
        # "none" is a setting's word here, not YAML's null.
        out[key] = text if value is None or isinstance(value, dict | list) else value
    return out


def _print_progress(clock_now: float, _action: Action | None, effects: list[Effect]) -> None:
    for e in effects:
        if isinstance(e, Eliminated):
            print(f"[{clock_now / 60:5.1f} min] {e.phase} {e.number}: seat {e.seat} "
                  f"{_HOW.get(e.how, e.how)}", flush=True)
        elif isinstance(e, GameOver):
            print(f"[{clock_now / 60:5.1f} min] game over", flush=True)
