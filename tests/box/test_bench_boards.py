"""The benches the board profiles rest on: `narrator bench --only memory` and `--only cpu`
(their figures are in BENCHMARKS.md, "Boards"; here only that they measure)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from workshop.bench import BENCHES, cpu, memory


def test_the_areas_are_known() -> None:
    assert BENCHES["memory"] == "workshop.bench.memory" and BENCHES["cpu"] == "workshop.bench.cpu"


def test_callgrind_counts_instructions_of_every_process(tmp_path: Path) -> None:
    # The work done in a child process counts (a voice renders in one): a parent that only
    # starts the child counts more than the child's work alone.
    work = "print(sum(range(3_000_000)))"
    alone, out = cpu.count([sys.executable, "-S", "-c", work], tmp_path, "alone")
    spawned, _ = cpu.count([sys.executable, "-S", "-c", "import subprocess, sys; "
                            f"subprocess.run([sys.executable, '-S', '-c', {work!r}])"], tmp_path, "spawned")
    assert out == str(sum(range(3_000_000))) and alone > 50_000_000
    assert spawned > alone
    assert not list(tmp_path.glob("*.callgrind"))  # counted, then removed


def test_the_box_alone_is_measured_with_its_peak(tmp_path: Path) -> None:
    got = memory.measure("box", "-", tmp_path)
    assert 20 < got["own"] < 400 and got["child"] == 0.0


def test_the_cpu_count_runs_only_when_named(monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    from narrator.cli import bench

    ran: list[str] = []

    def module(name: str) -> argparse.Namespace:
        ran.append(name)
        return argparse.Namespace(run=lambda quick: {})

    monkeypatch.setattr("importlib.import_module", module)
    bench.run(argparse.Namespace(only=None, quick=True, json=True))
    assert "workshop.bench.cpu" not in ran and "workshop.bench.memory" in ran
    ran.clear()
    bench.run(argparse.Namespace(only=["cpu"], quick=True, json=True))
    assert ran == ["workshop.bench.cpu"]
