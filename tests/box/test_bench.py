"""The engine and box benchmarks run and report their figures (never a speed target:
benchmarks, not timed tests)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from narrator.cli import main


def test_engine_and_box_benches_report(capsys: pytest.CaptureFixture[str]) -> None:
    # A bigger child earlier in this process (under pytest: a browser, a recognizer) must
    # not pass for the demo's memory, nor this process's own size (a pytest worker after a
    # recognizer test: Linux counts a forked child's copy of it in the child's ru_maxrss).
    subprocess.run([sys.executable, "-c", "b = bytearray(200 << 20); b[::4096] = bytes(len(b[::4096]))"],
                   check=True)
    ballast = bytearray(300 << 20)
    ballast[::4096] = bytes(len(ballast[::4096]))
    assert main(["bench", "--json", "--quick", "--only", "engine", "--only", "box"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["engine_games_per_s"] > 0 and figures["engine_games"] == 50
    assert figures["demo_rss_mb"] > 10 and figures["rss_mb"] > figures["demo_rss_mb"]
    assert {"machine", "date", "python"} <= set(figures)
    assert figures["demo_rss_mb"] < 250 and len(ballast) == 300 << 20


def test_the_legal_bench_reports_no_disagreement(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--json", "--quick", "--only", "legal"]) == 0
    figures = json.loads(capsys.readouterr().out)
    for name in ("sport", "classic", "club", "boxed"):
        assert figures[f"legal_{name}_games"] == 3
        assert figures[f"legal_{name}_failed"] == 0, figures.get(f"legal_{name}_first_failure")
        assert figures[f"legal_{name}_actions_tried"] > 0


def test_unknown_bench_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--only", "nothing"]) == 2
    assert "no such benchmark" in capsys.readouterr().err


def test_a_box_without_the_workshop_says_so_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """A box installs `narrator` alone: the benchmarks stay in the source tree's workshop."""
    monkeypatch.setitem(sys.modules, "workshop.bench", None)  # import fails, as on a box
    assert main(["bench", "--only", "engine"]) == 2
    err = capsys.readouterr().err
    assert "workshop" in err and err.count("\n") == 1, err
