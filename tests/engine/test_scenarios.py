"""Every scenario file under tests/scenarios/ plays out as it says."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.engine.scenario import run_scenario

SCENARIOS = sorted((Path(__file__).parent.parent / "scenarios").rglob("*.yaml"))


def test_there_are_scenarios_for_every_bundled_rule_set() -> None:
    from narrator.rules.loader import bundled_names

    folders = {p.parent.name for p in SCENARIOS}
    assert set(bundled_names()) <= folders


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_scenario(path: Path) -> None:
    run_scenario(path)
