"""Hypothesis profiles, chosen by `HYPOTHESIS_PROFILE` (tests/conftest.py loads it).

- `ci` (the default): derandomized, no example database. A run's verdict depends on the
  code alone, not on luck or on what an earlier run left in the folder.
- `long`: fresh random cases, 50 times as many (a developer hunting for bugs).
- `bench`: fresh random cases, 10,000 whole games per rule set for the game properties.
No profile keeps a database: whatever a random run finds becomes an explicit `@example`
in the test, so every later run tries it.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

for _name, _random, _examples in (("ci", False, 100), ("long", True, 2000), ("bench", True, 10_000)):
    settings.register_profile(_name, derandomize=not _random, max_examples=_examples, database=None,
                              print_blob=True, deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")


def load() -> None:
    settings.load_profile(PROFILE)


def games(ci: int) -> settings:
    """Settings for a property over whole games: `ci` games in the default profile, 50
    times as many in `long`, 10,000 in `bench`."""
    count = {"ci": ci, "long": 50 * ci, "bench": 10_000}.get(PROFILE, ci)
    return settings(max_examples=count)
