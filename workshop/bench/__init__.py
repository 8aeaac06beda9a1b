"""`narrator bench`: each area of the box measures itself in its own module here.

A module in BENCHES has `run(quick: bool) -> dict[str, float | int | str]` returning its
figures. `quick` runs a smaller sample (used by the tests to check that each bench works,
never to check a speed target: benchmarks, not timed tests).
"""

from __future__ import annotations

# Each area adds its own line here when its module exists.
BENCHES: dict[str, str] = {
    "engine": "workshop.bench.engine",
    "selfplay": "workshop.bench.selfplay",
    "legal": "workshop.bench.legal",
    "demos": "workshop.bench.demos",
    "box": "workshop.bench.box",
    "firstword": "workshop.bench.firstword",
    "seats": "workshop.bench.seats",
    "voice": "workshop.bench.voice",
    "speech": "workshop.bench.speech",
    "listen": "workshop.bench.listen",
    "web": "workshop.bench.web",
    "cpu": "workshop.bench.cpu",
    "memory": "workshop.bench.memory",
    "tournament": "workshop.bench.tournament",
}
# Run only when named (`--only cpu`): counting instructions under valgrind takes an hour.
ONLY_WHEN_NAMED = frozenset({"cpu"})
