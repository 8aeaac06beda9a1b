"""A wrong rule-set file is refused with one message naming the file, the key path and the
problem; on the command line that is exit 2 and no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from narrator.errors import RuleSetError
from narrator.rules.loader import bundled_names, load, load_bundled, parse

SPORT = (Path(__file__).resolve().parents[2] / "narrator/rules/sets/sport.yaml").read_text()


def sport_with(change: str, value: object) -> str:
    data = yaml.safe_load(SPORT)
    target = data
    keys = change.split("/")
    for key in keys[:-1]:
        target = target[int(key)] if isinstance(target, list) or key.isdigit() else target[key]
    last: str | int = int(keys[-1]) if keys[-1].isdigit() else keys[-1]
    if value is KeyError:
        del target[last]
    elif isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return yaml.safe_dump(data)


@pytest.mark.parametrize("change, value, where, problem", [
    ("night/0/roles/0", "doktor", "night[0].roles[0]", "unknown role 'doktor'"),
    ("deck/10/civilian", 7, "deck.10", "impossible deck: 11 roles for 10 seats"),
    ("night/1/ability", "teleport", "night[1].ability", "unknown ability 'teleport'"),
    ("day/speech", "long", "day.speech", "expected float, got 'long'"),
    ("day/speech", -5, "day.speech", "cannot be negative"),
    ("day/first_day_vote", "sometimes", "day.first_day_vote", "'sometimes' is not one of"),
    ("fouls/cancel_vote", "never", "fouls.cancel_vote", "'never' is not one of"),
    ("day/revote_tie_fewer", "lifts", "day.revote_tie_fewer", "'lifts' is not one of revote, lift"),
    ("win/0", "luck", "win[0]", "unknown win check 'luck'"),
    ("night/2/args/reveals", "soul", "night[2].args", "reveals must be role or team"),
    ("night/0/input", "telepathy", "night[0].input", "'telepathy' is not one of"),
    ("roles/sheriff/team", 3, "roles.sheriff.team", "expected str, got 3"),
    ("day/colour", "red", "day.colour", "unknown key"),
    ("name", KeyError, "name", "missing"),
])
def test_wrong_rule_sets_are_refused_with_the_place(change: str, value: object, where: str,
                                                     problem: str) -> None:
    with pytest.raises(RuleSetError) as caught:
        parse(sport_with(change, value), "my-rules.yaml")
    message = str(caught.value)
    assert message.startswith(f"my-rules.yaml: {where}: "), message
    assert problem in message
    assert "\n" not in message


def test_night_step_for_a_role_not_in_the_deck() -> None:
    data = yaml.safe_load(SPORT)
    data["roles"]["doctor"] = {"team": "red"}
    data["night"].append({"id": "heal", "roles": ["doctor"], "ability": "check",
                          "args": {"reveals": "team", "match": ["black"]}})
    with pytest.raises(RuleSetError, match=r"night\[3\]\.roles\[0\]: role 'doctor' is in no deck"):
        parse(yaml.safe_dump(data), "x.yaml")


def test_not_yaml() -> None:
    with pytest.raises(RuleSetError, match=r"^bad.yaml: line \d+: not valid YAML"):
        parse("name: [unclosed", "bad.yaml")


def test_missing_file() -> None:
    with pytest.raises(RuleSetError, match="cannot read"):
        load("/no/such/rules.yaml")


def test_unknown_bundled_name() -> None:
    with pytest.raises(RuleSetError, match="no bundled rule set 'poker'"):
        load_bundled("poker")


@pytest.mark.parametrize("name", bundled_names())
def test_bundled_rule_sets_load(name: str) -> None:
    rules = load_bundled(name)
    assert rules.name == name
    assert rules.night and rules.deck


def test_cli_exit_2_for_a_bad_rule_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from narrator.cli import main

    path = tmp_path / "broken.yaml"
    path.write_text(sport_with("night/0/roles/0", "doktor"))
    assert main(["demo", "--fast", "--rules", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"narrator: {path}: night[0].roles[0]: unknown role 'doktor'"


def test_settings_are_checked_like_the_file() -> None:
    rules = load_bundled("sport")
    with pytest.raises(ValueError, match=r"'day\.first_day_vote' must be one of normal, none, lift_only"):
        rules.with_settings({"day.first_day_vote": "sometimes"})
    with pytest.raises(ValueError, match=r"unknown setting 'day\.colour'"):
        rules.with_settings({"day.colour": "red"})
    with pytest.raises(ValueError, match="must be true or false"):
        rules.with_settings({"day.lift_two_of_four": "yes"})
    assert rules.with_settings({"day.first_day_vote": "none"}).day.first_day_vote == "none"
