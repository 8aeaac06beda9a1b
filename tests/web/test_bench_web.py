"""The page's latency bench runs and reports (a figure, never a speed target)."""

from __future__ import annotations

import json

import pytest

from narrator.cli import main


def test_the_web_bench_reports_the_update_latency(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--json", "--quick", "--only", "web"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["web_update_samples"] == 10
    assert 0 < figures["web_update_ms_median"] <= figures["web_update_ms_p95"]
