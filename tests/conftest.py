"""Hypothesis profiles: see tests/profiles.py (`HYPOTHESIS_PROFILE=ci|long|bench`)."""

from __future__ import annotations

from tests.profiles import load

load()
