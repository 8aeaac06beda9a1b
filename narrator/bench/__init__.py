"""`narrator bench`: each area of the box measures itself in its own module here.

A module in BENCHES has `run(quick: bool) -> dict[str, float | int | str]` returning its
figures. `quick` runs a smaller sample (used by the tests to check that each bench works,
never to check a speed target: benchmarks, not timed tests).
"""

from __future__ import annotations

# Each area adds its own line here when its module exists.
BENCHES: dict[str, str] = {
    "engine": "narrator.bench.engine",
    "selfplay": "narrator.bench.selfplay",
    "legal": "narrator.bench.legal",
    "demos": "narrator.bench.demos",
    "box": "narrator.bench.box",
    "firstword": "narrator.bench.firstword",
    "seats": "narrator.bench.seats",
    "voice": "narrator.bench.voice",
    "speech": "narrator.bench.speech",
    "listen": "narrator.bench.listen",
    "web": "narrator.bench.web",
    "cpu": "narrator.bench.cpu",
    "memory": "narrator.bench.memory",
    "tournament": "narrator.bench.tournament",
}
# Run only when named (`--only cpu`): counting instructions under valgrind takes an hour.
ONLY_WHEN_NAMED = frozenset({"cpu"})
