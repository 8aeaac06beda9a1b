"""`narrator replay GAME.json [--json] [--seed N] [--lang en|ru] [--jitter S]`.

Exit 0 when the engine agrees with the record, 1 when it disagrees (saying where), 2 for
an unreadable or malformed file.
"""

from __future__ import annotations

import argparse
import json
import sys

from narrator.records.polemica import read_record
from narrator.records.replay import ReplayResult, replay
from narrator.records.script import estimated_timeline
from narrator.rules.loader import load_bundled


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="GAME.json", help="a game in the Polemica format")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object: winner, eliminations, timeline")
    parser.add_argument("--seed", type=int, default=0, help="seed of the jitter generator")
    parser.add_argument("--lang", default="en", choices=("en", "ru"), help="timeline language")
    parser.add_argument("--jitter", type=float, default=0.0, metavar="SECONDS",
                        help="random extra pause per night step, at most this long (default off)")


def run(args: argparse.Namespace) -> int:
    game = read_record(args.record)
    timeline = estimated_timeline(args.lang, args.jitter, args.seed)
    result = replay(load_bundled("sport"), game, timeline)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print(describe(result, args.record))
    if result.disagreement:
        print(f"narrator: {args.record}: disagrees with the record: {result.disagreement}",
              file=sys.stderr)
        return 1
    return 0


def describe(result: ReplayResult, name: str) -> str:
    st = result.state
    words = {"vote": "voted out", "shot": "shot", "fouls": "removed (fouls)",
             "removed": "removed", "lifted": "lifted (all tied leave)"}
    lines = [f"{name}: sport, {st.seats} seats"]
    for e in result.eliminations():
        lines.append(f"  {e['phase']} {e['number']}: seat {e['seat']} {words.get(e['how'], e['how'])}")
    if st.outcome:
        lines.append(f"winner: {st.outcome.winner} ({st.outcome.reason})")
    else:
        lines.append(f"unfinished: the record stops at {st.phase} {st.number}")
    for note in result.notes:
        lines.append(f"note: {note}")
    if not result.disagreement:
        lines.append("the engine agrees with the record")
    return "\n".join(lines)
