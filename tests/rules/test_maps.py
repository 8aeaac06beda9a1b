"""The rules maps (docs/rules/<set>.md) and the scenarios: every scenario a map names
exists and plays (test_scenarios runs them all), and every scenario of the set is named
by its map, so a rule without a check or a check without a rule shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAPPED = ("sport", "classic", "club", "boxed")
# A table row's scenario cell: file names ending in .yaml or .py, or "—" with a reason.
_NAMES = re.compile(r"`([\w/.]+\.(?:yaml|py))`")


def rows(name: str) -> list[tuple[str, str]]:
    """(rule, scenario cell) of every row of the map's tables whose last column is the
    scenario."""
    out = []
    in_table = False
    for line in (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            in_table = False
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if all(set(c) <= {"-"} for c in cells):
            continue  # the header's rule
        if cells[-1] == "Scenario":
            in_table = True
            continue
        if in_table:
            out.append((cells[1] if len(cells) > 2 else cells[0], cells[-1]))
    return out


@pytest.mark.parametrize("name", MAPPED)
def test_every_named_scenario_exists(name: str) -> None:
    folder = ROOT / "tests" / "scenarios" / name
    for rule, cell in rows(name):
        names = _NAMES.findall(cell)
        if not names:
            assert cell.startswith("—"), f"{name}.md: no scenario for {rule[:60]!r}"
            continue
        for found in names:
            path = ROOT / found if "/" in found else folder / found
            assert path.exists(), f"{name}.md names {found}, which is missing"


@pytest.mark.parametrize("name", MAPPED)
def test_no_rule_is_left_to_build(name: str) -> None:
    text = (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
    assert "⏳" not in text, f"{name}.md still has rows being built"


@pytest.mark.parametrize("name", MAPPED)
def test_every_scenario_is_named_by_the_map(name: str) -> None:
    text = (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
    for path in sorted((ROOT / "tests" / "scenarios" / name).glob("*.yaml")):
        assert f"`{path.name}`" in text, f"{name}.md does not name {path.name}"
