"""One hash of what the engine does: the check that a speed change changed nothing.

sha256 over the JSON of every effect and the end state of N seeded self-play games of
every bundled rule set (seat counts cycling through the rule set's deck table), plus the
result of N/10 legality-checked games per rule set (narrator.sim.legality). Two trees
that give the same hash play the same games.

Run: .venv/bin/python scripts/engine_fingerprint.py [N]   (N defaults to 400)
"""

from __future__ import annotations

import hashlib
import json
import sys

from narrator.engine.effects import Effect
from narrator.engine.state import State
from narrator.rules.loader import bundled_names, load_bundled
from narrator.sim.legality import play_checked
from narrator.sim.selfplay import play


def fingerprint(games: int) -> str:
    h = hashlib.sha256()

    def on(st: State, effects: list[Effect]) -> None:
        for e in effects:
            h.update(json.dumps(e.to_json(), sort_keys=True, default=str).encode())

    for name in bundled_names():
        rules = load_bundled(name)
        sizes = sorted(rules.deck)
        for seed in range(games):
            st = play(rules, seed, seats=sizes[seed % len(sizes)], on_effects=on)
            h.update(json.dumps(st.to_json(), sort_keys=True).encode())
        for seed in range(games // 10):
            h.update(repr(play_checked(rules, seed)).encode())
    return h.hexdigest()


if __name__ == "__main__":
    print(fingerprint(int(sys.argv[1]) if len(sys.argv) > 1 else 400))
