"""The players, the rule set and the pin map are checked against each other at start-up:
one line naming the map and both seat counts, exit 2, before anything is opened."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.boxconfig import load_settings, packaged_config_path
from narrator.cli import main
from narrator.errors import ConfigError

REPO = Path(__file__).resolve().parents[2]
EIGHT_SEATS = """\
name: eight
seats: 8
pads: {pins: [4, 17, 27, 22, 10, 9, 11, 5]}
leds: {pins: [14, 15, 18, 23, 24, 25, 8, 7]}
answer: {green: 20, red: 21}
"""


@pytest.fixture(autouse=True)
def packaged_config(monkeypatch: pytest.MonkeyPatch) -> None:
    # Whatever /etc/narrator holds on this machine, these tests start from the defaults.
    monkeypatch.setenv("NARRATOR_CONFIG", str(packaged_config_path()))


def test_twelve_players_on_the_ten_seat_map(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--rules", "boxed", "--seats", "12", "--pins", "pins-10"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ("narrator: command line: game.seats: 12 players, but pin map "
                            "pins-10 wires 10 seats (pins-16 wires 16)\n")


def test_the_issue_command_names_both_numbers_and_the_rule_set() -> None:
    # `narrator run --seats 12 --pins pins-10`, as a process: one line, exit 2, no traceback.
    done = subprocess.run([sys.executable, "-m", "narrator", "run", "--seats", "12",
                           "--pins", "pins-10"], cwd=REPO, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "NARRATOR_CONFIG": str(packaged_config_path())})
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert lines == ["narrator: command line: game.seats: 12 players, but pin map pins-10 wires "
                     "10 seats (pins-16 wires 16); and sport is played by 10 players"]


def test_the_rule_sets_smallest_table_must_fit_too(tmp_path: Path) -> None:
    pins = tmp_path / "eight.yaml"
    pins.write_text(EIGHT_SEATS)
    config = tmp_path / "narrator.yaml"
    config.write_text(f"pins: {pins}\n")
    with pytest.raises(ConfigError) as err:
        load_settings(config)
    assert (err.value.path, err.value.where) == (str(config), "game.rules")
    assert err.value.problem == (f"sport needs at least 10 players, but pin map {pins} wires "
                                 "8 seats (pins-16 wires 16)")
    # A smaller game on the same map is fine, and so is a bigger map than the game.
    config.write_text(f"pins: {pins}\ngame: {{rules: boxed, seats: 8}}\n")
    assert load_settings(config).seats == 8
    config.write_text("pins: pins-16\ngame: {rules: boxed, seats: 6}\n")
    assert load_settings(config).seats == 6


def test_the_file_is_blamed_when_the_file_asks(tmp_path: Path) -> None:
    config = tmp_path / "narrator.yaml"
    config.write_text("pins: pins-10\ngame: {rules: boxed, seats: 14}\n")
    with pytest.raises(ConfigError) as err:
        load_settings(config)
    assert str(err.value) == (f"{config}: game.seats: 14 players, but pin map pins-10 wires "
                              "10 seats (pins-16 wires 16)")


def test_a_broken_map_is_named_before_the_seats(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    pins = tmp_path / "pins.yaml"
    pins.write_text(EIGHT_SEATS.replace("[4, 17,", "[4, 4,"))
    assert main(["run", "--pins", str(pins)]) == 2
    err = capsys.readouterr().err
    assert err == (f"narrator: {pins}: pads.pins[1]: GPIO 4 is already used by "
                   "pads.pins[0] (seat 1 pad)\n")

