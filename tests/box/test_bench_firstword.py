"""The start-up bench reports the first spoken word, cold and warm (never a speed target
here: benchmarks, not timed tests)."""

from __future__ import annotations

import json

import pytest

from narrator.cli import main


def test_first_word_bench_reports_cold_and_warm(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--json", "--quick", "--only", "firstword"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["first_word_cold_s"] > 0 and figures["first_word_warm_s"] > 0
