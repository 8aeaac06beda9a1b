"""Hypothesis profiles. The default one is deterministic and keeps no example database,
so a test run's verdict depends on the code alone, not on luck or on what an earlier run
left in the folder. `HYPOTHESIS_PROFILE=long` draws fresh random cases (a marked job or a
developer hunting for bugs); anything it finds becomes an explicit `@example`."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("long", derandomize=False, max_examples=2000, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
