"""`narrator tournament`'s bad input: one line naming the place and the problem, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.cli import main


def test_a_wrong_listen_address_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--state-dir", str(tmp_path), "--listen", "nowhere"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--listen" in err and "HOST:PORT" in err


def test_a_players_file_with_a_nameless_line_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    players = tmp_path / "players.csv"
    players.write_text("name,club\nAnna,Red\n,Blue\n")
    assert (
        main(
            [
                "tournament",
                "--state-dir",
                str(tmp_path / "t"),
                "--players",
                str(players),
                "--listen",
                "127.0.0.1:0",
                "--export",
                str(tmp_path / "out"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "players.csv" in err and "line 3" in err


def test_an_unknown_rule_set_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--state-dir", str(tmp_path), "--rules", "chess"]) == 2
    assert "--rules" in capsys.readouterr().err


def test_export_of_an_empty_tournament(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--state-dir", str(tmp_path / "t"), "--export", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "standings.csv").read_text().startswith("place,name")
    assert (tmp_path / "out" / "standings.html").is_file()
    assert oct((tmp_path / "t" / "key").stat().st_mode & 0o777) == "0o600"


def test_an_unknown_preset_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--state-dir", str(tmp_path), "--preset", "nonsense"]) == 2
    assert "preset" in capsys.readouterr().err
