"""`narrator demo`: a whole game with simulated players.

`--fast` plays it on a virtual clock as fast as the machine allows and prints the
protocol; `--json` makes the last line the protocol as JSON (winner, eliminations,
timeline).
"""

from __future__ import annotations

import argparse
import json

from narrator.engine.effects import Effect, Eliminated
from narrator.engine.state import State
from narrator.errors import ConfigError
from narrator.records.script import estimated_timeline
from narrator.rules.loader import load
from narrator.sim.selfplay import play

_HOW = {"vote": "voted out", "shot": "shot at night", "fouls": "removed after four fouls",
        "removed": "removed", "lifted": "lifted with the other tied players"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="sport", help="a bundled rule set or a rule-set file")
    parser.add_argument("--seats", type=int, help="players (default: the rule set's smallest deck)")
    parser.add_argument("--lang", default="en", choices=("en", "ru"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fast", action="store_true", help="virtual clock: as fast as possible")
    parser.add_argument("--state-dir", help="where the journal and protocol go")
    parser.add_argument("--json", action="store_true", help="last line: the protocol as JSON")


def run(args: argparse.Namespace) -> int:
    rules = load(args.rules)
    seats = args.seats or rules.min_seats
    if seats not in rules.deck:
        raise ConfigError("--seats", str(seats),
                          f"{rules.name} is played by {rules.min_seats}-{rules.max_seats} players")
    timeline = estimated_timeline(args.lang, seed=args.seed)
    lines: list[str] = []

    def watch(state: State, effects: list[Effect]) -> None:
        timeline.feed(effects)
        for e in effects:
            if isinstance(e, Eliminated):
                lines.append(f"{e.phase} {e.number}: seat {e.seat} {_HOW.get(e.how, e.how)}")
                print(f"[{timeline.now / 60:5.1f} min] {lines[-1]}", flush=True)

    print(f"narrator demo: {rules.title}, {seats} players, seed {args.seed}")
    final = play(rules, args.seed, seats, on_effects=watch,
                 close=lambda _state: timeline.close_window())
    reason, winner = final.outcome or ("", None)
    print(f"winner: {winner} ({reason}) after {timeline.now / 60:.0f} minutes of play")
    if args.json:
        protocol = {
            "winner": winner,
            "eliminations": [{"seat": s, "phase": p, "number": n, "how": h}
                             for s, h, p, n in final.eliminations],
            "timeline": timeline.to_json(),
        }
        print(json.dumps(protocol, ensure_ascii=False))
    return 0
