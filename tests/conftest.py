"""Hypothesis profiles: see tests/profiles.py (`HYPOTHESIS_PROFILE=ci|long|bench`)."""

from __future__ import annotations

import os

from tests.profiles import load

load()
# The suite's speech is espeak-ng's unless a test names another voice (the default would
# be the best installed one: a neural voice where the test install has it). Subprocesses
# inherit this; tests/voice/test_voices.py checks the default choice without it.
os.environ.setdefault("NARRATOR_VOICE", "espeak-ng")
