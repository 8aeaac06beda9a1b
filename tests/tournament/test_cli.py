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


def test_a_restart_with_only_the_state_dir_is_the_same_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from narrator.tournament.store import Store

    folder = tmp_path / "t"
    players = tmp_path / "players.csv"
    players.write_text("name,club,rating_id\n" + "".join(f"P{n},C,R{n}\n" for n in range(30)))
    first = ["tournament", "--state-dir", str(folder), "--export", str(tmp_path / "out")]
    flags = [
        "--name",
        "Friday cup",
        "--tables",
        "3",
        "--rounds",
        "5",
        "--preset",
        "tournament",
        "--lang",
        "ru",
    ]
    assert main([*first, *flags, "--players", str(players)]) == 0
    assert main(first) == 0  # only --state-dir: resumed as it was
    kept = Store(folder / "tournament.sqlite").tournament()
    assert kept is not None
    assert (kept.name, kept.tables, kept.rounds, kept.preset, kept.lang) == (
        "Friday cup",
        3,
        5,
        "tournament",
        "ru",
    )
    assert kept.settings["draw_after_idle_rounds"] == 3 and kept.date
    assert main([*first, "--name", "Friday cup", "--tables", "3", "--players", str(players)]) == 0  # agreeing
    capsys.readouterr()

    # Flags that contradict the tournament kept there: refused in one line, nothing changed.
    assert main([*first, "--name", "Saturday cup", "--rounds", "8"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--name 'Saturday cup' (it is 'Friday cup')" in err
    assert "--rounds 8 (it is 5)" in err and "leave these flags out" in err
    other = tmp_path / "other.csv"
    other.write_text("Anna,Red\n")
    assert main([*first, "--players", str(other)]) == 2
    assert "other players already" in capsys.readouterr().err
    assert Store(folder / "tournament.sqlite").tournament() == kept


def test_a_store_of_an_older_version_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    folder = tmp_path / "t"
    folder.mkdir()
    db = sqlite3.connect(folder / "tournament.sqlite")
    db.execute("CREATE TABLE sent (round INTEGER, table_no INTEGER, at REAL)")
    db.commit()
    db.close()
    assert main(["tournament", "--state-dir", str(folder), "--export", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "older narrator" in err


def test_the_games_and_the_seating_file_are_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from narrator.tournament.store import Store

    folder = tmp_path / "t"
    first = ["tournament", "--state-dir", str(folder), "--export", str(tmp_path / "out")]
    weights = tmp_path / "seating.yaml"
    weights.write_text("meetings: {power: 3}\n")
    assert main([*first, "--games", "10", "--seating", str(weights)]) == 0
    kept = Store(folder / "tournament.sqlite").tournament()
    assert kept is not None and kept.games == 10 and kept.seating_rules().meetings_power == 3
    assert main([*first, "--games", "10", "--seating", str(weights)]) == 0
    capsys.readouterr()
    other = tmp_path / "other.yaml"
    other.write_text("meetings: {power: 2}\n")
    assert main([*first, "--games", "8", "--seating", str(other)]) == 2
    err = capsys.readouterr().err
    assert "--games 8 (it is 10)" in err and "--seating (another file" in err
    assert main([*first, "--games", "10", "--rounds", "4"]) == 2
    assert "--games or --rounds, not both" in capsys.readouterr().err
    other.write_text("meetings: {power: lots}\n")
    assert main([*first, "--seating", str(other)]) == 2
    assert "other.yaml" in capsys.readouterr().err
