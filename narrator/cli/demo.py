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
from functools import partial
from pathlib import Path
from typing import Any

from narrator.engine.actions import Action
from narrator.engine.cues import outcome_cues
from narrator.engine.effects import Effect, Eliminated, GameOver
from narrator.engine.ruleset import RuleSet
from narrator.engine.state import State
from narrator.errors import ConfigError
from narrator.phrases.book import PhraseBook
from narrator.rules.loader import load


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
    from narrator.rules.configured import resolve as resolve_rules

    base = load(args.rules)
    names = parse_names(args.names) if args.names else ()
    seats = args.seats or len(names) or base.min_seats
    # A preset's settings with --set over them (an unknown preset, or a table the rules
    # forbid: one line, exit 2), resolved once: the set-up's check reads no file again.
    configured = resolve_rules(args.rules, parse_settings(args.settings), seats, args.preset,
                               base=base)
    rules, settings = configured.rules, dict(configured.settings)
    # Names that can't be the table's: one line naming the seat and the reason, exit 2.
    names = GameSetup(rules=args.rules, seats=seats, lang=args.lang, names=names,
                      settings=settings, configured=configured).check("--names").names
    voice = None
    if args.voice is not None:
        from narrator.voice.voice_config import VoiceSettings
        from narrator.voice.voices import resolve

        voice = VoiceSettings(language=args.lang, voice=resolve(args.voice, args.lang).label)
    options = choose_mode(DemoOptions(rules, seats, args.seed, args.lang, args.fast, args.out,
                                      voice=voice,
                                      state_dir=None if args.no_state else args.state_dir,
                                      rules_spec=args.rules, settings=settings,
                                      foul_rate=args.foul_rate, names=names,
                                      keypad_only=args.input == "keypad"))
    # The terminal's lines in the game's language (the phrase book's `console:`).
    book = PhraseBook.load(args.lang).for_rules(rules.name)
    print(book.line("start_fast" if options.fast else "start",
                    rules=book.rule_set_name(rules.name, rules.title), seats=seats,
                    seed=args.seed), flush=True)
    result = asyncio.run(play_demo(options, on_effects=partial(_print_progress, book)))
    st = result.box.game.state
    if st.outcome:
        line = _winner(book, rules, st)
        if options.fast:
            line = book.line("played", line=line, minutes=round(result.box.clock.now() / 60))
        print(line)
    if result.wav is not None:
        print(book.line("audio", path=result.wav))
    if result.files is not None:
        files = [result.files.json, result.files.html, result.files.polemica]
        print(book.line("protocol", paths=", ".join(str(f) for f in files if f is not None)))
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


def _winner(book: PhraseBook, rules: RuleSet, st: State) -> str:
    """Who won and why, in the words the box says it (a rule set's own win words say why)."""
    assert st.outcome is not None
    win, *why = outcome_cues(st.outcome.winner, st.outcome.reason, rules.cues)
    return book.line("winner", winner=book.render(rules.cues.get(win, win)),
                     reason=book.render(why[0]) if why else "").rstrip()


def _print_progress(book: PhraseBook, clock_now: float, _action: Action | None,
                    effects: list[Effect]) -> None:
    minutes = f"{clock_now / 60:5.1f}"
    for e in effects:
        if isinstance(e, Eliminated):
            how = book.console.get(f"how_{e.how}", e.how)
            moment = book.line("night" if e.phase == "night" else "day", number=e.number)
            print(book.line("eliminated", minutes=minutes, moment=moment, seat=e.seat, how=how),
                  flush=True)
        elif isinstance(e, GameOver):
            print(book.line("game_over", minutes=minutes), flush=True)
