"""`narrator bench --only tournament --quick` reports every figure (a check that the bench
works, not of its speed)."""

from __future__ import annotations

import json

import pytest

from narrator.cli import main


def test_the_tournament_bench_reports(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--json", "--quick", "--only", "tournament"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["tournament_tables"] == 4 and out["tournament_intake_per_s"] > 0
    assert all(out[f"tournament_standings_{k}_ms"] > 0 for k in ("refresh", "rebuild", "new_game"))
    assert out["tournament_seat_repeat_max"] == 1 and out["tournament_meetings_max"] == 2
