"""The fuzz tests' case counts in the pytest summary (also under xdist: the counts travel
in each report's user_properties)."""

from __future__ import annotations

from typing import cast

import pytest

_COUNTS: dict[str, tuple[int, float]] = {}  # kind: cases, CPU seconds


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call":
        for name, value in report.user_properties:
            if name == "fuzz_cases":
                kind, count, cpu = cast(tuple[str, int, float], value)
                _COUNTS[kind] = count, cpu


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _COUNTS:
        counts = ", ".join(f"{kind} {n:,} ({cpu:.1f} s CPU)" for kind, (n, cpu) in _COUNTS.items())
        terminalreporter.write_line(f"fuzz cases: {counts}")
