"""Declared rule-set settings: every bundled rule set lists what a club may change, with
labels in both languages; values and tables the documents forbid are refused before a
game starts, with one line naming the setting and the rule (exit 2 on the command line)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from narrator.cli import main
from narrator.errors import RuleSetError
from narrator.rules.loader import bundled_names, load_bundled, parse
from narrator.rules.settings import (
    SettingError,
    check_table,
    configure,
    declared,
    describe,
    resolved,
    with_preset,
)

SPORT = (Path(__file__).resolve().parents[2] / "narrator/rules/sets/sport.yaml").read_text()


@pytest.mark.parametrize("name", bundled_names())
def test_every_setting_has_labels_and_its_own_default(name: str) -> None:
    rules = load_bundled(name)
    settings = declared(rules)
    assert settings, f"{name} declares no settings"
    for s in settings:
        assert s.text["en"] and s.text["ru"] and s.text["en"] != s.text["ru"], s.key
        assert s.check(s.default) == s.default
        for c in s.choices:
            assert c.text["en"] and c.text["ru"], (s.key, c.value)
        # Each setting's default is the rule set as it stands: configuring it changes nothing.
        assert configure(rules, {s.key: s.default}) == rules
    for lang in ("en", "ru"):
        form = describe(rules, lang)
        assert json.loads(json.dumps(form, ensure_ascii=False)) == form
        assert [f["key"] for f in form] == [s.key for s in settings]


def test_a_setting_changes_the_rules() -> None:
    sport = load_bundled("sport")
    changed = configure(sport, {"fouls.cancel_vote": "none", "day.speech": 90, "best_move": False}, 10)
    assert changed.fouls.cancel_vote == "none" and changed.day.speech == 90.0 and not changed.best_move
    assert sport.fouls.cancel_vote != "none"  # the bundled rules are not touched


@pytest.mark.parametrize(("values", "where", "problem"), [
    ({"day.speeches": 60}, "day.speeches",
     "not a setting of this rule set (known: third_foul, day.first_day_vote"),
    ({"fouls.cancel_vote": "never"}, "fouls.cancel_vote=never", "must be one of"),
    ({"day.speech": 5}, "day.speech=5", "must be from 10 to 300"),
    ({"day.speech": "long"}, "day.speech=long", "must be a number of seconds"),
    ({"best_move": "yes"}, "best_move=yes", "must be true or false"),
    ({"draw_after_idle_rounds": 2.5}, "draw_after_idle_rounds=2.5", "must be a whole number"),
    ({"day.tie": "revote_then_lift_then_coin"}, "day.tie", "not a setting of this rule set"),
])
def test_wrong_values_are_refused_naming_the_setting(values: dict[str, Any], where: str,
                                                       problem: str) -> None:
    with pytest.raises(SettingError) as caught:
        configure(load_bundled("sport"), values, 10)
    assert caught.value.path == "sport" and caught.value.where == where
    assert problem in caught.value.problem
    assert caught.value.setting == next(iter(values))
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("name", "seats", "message"), [
    ("sport", 9, "sport: 9 players: at least 10 players: 000: “Ten people participate in the game”"),
    ("sport", 11, "sport: 11 players: at most 10 players: 000:"),
    ("classic", 7, "classic: 7 players: at least 8 players: 002: “12+ ideal, may accept 8-12"),
    ("club", 14, "club: 14 players: at most 13 players: 004 gives no table"),
])
def test_tables_the_documents_forbid_are_refused(name: str, seats: int, message: str) -> None:
    with pytest.raises(SettingError) as caught:
        configure(load_bundled(name), {}, seats)
    assert str(caught.value).startswith(message)
    assert caught.value.setting is None


def test_a_side_that_would_win_at_once_is_refused() -> None:
    data = yaml.safe_load(SPORT)
    data["deck"] = {10: {"civilian": 4, "sheriff": 1, "mafia": 4, "don": 1}}
    data["limits"] = [{"check": "minority", "team": "black", "rule": "000: 7 red and 3 black"}]
    rules = parse(yaml.safe_dump(data, allow_unicode=True), "mine.yaml")
    with pytest.raises(SettingError, match="5 black players of 10: they would win before the "
                                           "first night: 000: 7 red and 3 black"):
        check_table(rules, 10)


def _with(change: dict[str, Any]) -> str:
    data = yaml.safe_load(SPORT)
    for key, value in change.items():
        section, _, name = key.partition("/")
        if value is KeyError:
            del data[section][name]
        else:
            data.setdefault(section, {})[name] = value
    return yaml.safe_dump(data, allow_unicode=True)


@pytest.mark.parametrize(("change", "where", "problem"), [
    ({"settings/day.speech": {"kind": "minutes"}}, "settings.day.speech.kind", "expected one of choice"),
    ({"settings/day.colour": {"kind": "bool", "en": "x", "ru": "х"}}, "settings.day.colour",
     "no such field in the rule set"),
    ({"settings/day.nothing": None}, "settings.day.nothing", "not described here nor in common_settings"),
    ({"settings/best_move": {"ru": ""}}, "settings.best_move.ru", "a label in every language"),
    ({"settings/fouls.cancel_vote": {"values": ["nearest", "sometimes"]}},
     "settings.fouls.cancel_vote.values[1]", "'sometimes' has no label"),
    ({"settings/fouls.cancel_vote": {"values": {"nearest": {"en": "x"}}}},
     "settings.fouls.cancel_vote.values.nearest", "a label in every language"),
    ({"settings/day.speech": {"min": 90}}, "settings.day.speech",
     "the rule set's own value 60.0 must be from 90"),
    ({"settings/best_move": {"values": ["x"]}}, "settings.best_move.values", "only a choice has values"),
    ({"settings/best_move": {"colour": "red"}}, "settings.best_move.colour", "unknown key"),
])
def test_wrong_declarations_are_refused_with_the_place(change: dict[str, Any], where: str,
                                                       problem: str) -> None:
    with pytest.raises(RuleSetError) as caught:
        parse(_with(change), "mine.yaml")
    assert str(caught.value).startswith(f"mine.yaml: {where}: "), str(caught.value)
    assert problem in str(caught.value)


@pytest.mark.parametrize(("limit", "where", "problem"), [
    ({"check": "luck", "rule": "x"}, "limits[1].check", "unknown check 'luck'"),
    ({"check": "seats", "min": 8}, "limits[1].rule", "the document's rule is needed"),
    ({"check": "seats", "min": "eight", "rule": "x"}, "limits[1]", "min must be a whole number"),
    ({"check": "seats", "rule": "x", "settings": ["day.colour"]}, "limits[1].settings",
     "expected a list of this rule set's settings"),
    ({"check": "role_at_most", "role": "angel", "rule": "x"}, "limits[1]", "count is needed"),
])
def test_wrong_limits_are_refused_with_the_place(limit: dict[str, Any], where: str, problem: str) -> None:
    data = yaml.safe_load(SPORT)
    data["limits"].append(limit)
    with pytest.raises(RuleSetError) as caught:
        parse(yaml.safe_dump(data, allow_unicode=True), "mine.yaml")
    assert str(caught.value).startswith(f"mine.yaml: {where}: "), str(caught.value)
    assert problem in str(caught.value)


def test_a_file_without_settings_offers_the_common_ones() -> None:
    data = yaml.safe_load(SPORT)
    del data["settings"]
    del data["presets"]  # they name sport's own settings
    rules = parse(yaml.safe_dump(data, allow_unicode=True), "plain.yaml")
    keys = {s.key for s in declared(rules)}
    assert {"day.speech", "fouls.cancel_vote", "best_move"} <= keys


@pytest.mark.parametrize(("argv", "message"), [
    (["--set", "fouls.cancel_vote=never"], "narrator: sport: fouls.cancel_vote=never: must be one of"),
    (["--set", "day.speech"], "narrator: --set: day.speech: expected KEY=VALUE"),
    (["--rules", "classic", "--seats", "6"], "narrator: classic: 6 players: at least 8 players: 002:"),
    (["--rules", "boxed", "--seats", "4"], "narrator: boxed: 4 players: at least 5 players: 003:"),
    (["--rules", "boxed", "--seats", "9", "--set", "setup.roles=doctor,bodyguard,boss",
      "--set", "setup.follow_table=true"],
     "narrator: boxed: setup.roles=[doctor, bodyguard, boss], setup.follow_table=true, "
     "9 players: setup.roles: town specials: 2 named, 1 in the table's row for 10 players "
     "(9 seats and the host): 003:"),
    (["--rules", "boxed", "--set", "setup.roles=wizard"],
     "narrator: boxed: setup.roles=wizard: 'wizard' is not one of sergeant"),
    (["--preset", "league"],
     "narrator: sport: preset league: not a preset of this rule set (known: tournament)"),
    (["--rules", "club", "--preset", "tournament"],
     "narrator: club: preset tournament: not a preset of this rule set (known: none)"),
    (["--preset", "tournament", "--set", "third_foul=sometimes"],
     "narrator: sport: third_foul=sometimes: must be one of lost, tournament"),
])
def test_the_command_line_refuses_with_one_line_and_exit_2(argv: list[str], message: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--fast", "--no-state", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1, err


# Settings given beside the defaults, per rule set: every kind of setting, `sets` ones too.
_GIVEN: dict[str, dict[str, Any]] = {"sport": {"third_foul": "tournament", "day.silent_turn": 20},
          "club": {"maniac_wins": "alone", "day.immune_nominee_counts": False, "mafia_kill": "majority"},
          "classic": {"angels": 2, "mafia_kill": "unanimous", "fouls.enabled": True},
          "boxed": {"setup.roles": ["spy", "ninja"]}}


@pytest.mark.parametrize("name", bundled_names())
def test_resolved_settings_replay_the_same_rules(name: str) -> None:
    """The journal header keeps every setting's value: applied, they give the very rules
    the given ones gave, and an old header's few settings still apply."""
    rules = load_bundled(name)
    cases: list[dict[str, Any]] = [{}, _GIVEN.get(name, {})]
    for given in cases:
        every = resolved(rules, given)
        assert set(every) >= {s.key for s in rules.settings}
        json.dumps(every)  # the header and the protocol are JSON
        played = rules.with_settings(given)
        again = rules.with_settings(json.loads(json.dumps(every)))
        assert again == played, name
        assert resolved(rules, every) == every


def test_a_bundle_setting_goes_under_the_fields_given_beside_it() -> None:
    sport = load_bundled("sport")
    for given in ({"third_foul": "tournament", "day.silent_turn": 20},
                  {"day.silent_turn": 20, "third_foul": "tournament"}):
        rules = sport.with_settings(given)
        assert rules.day.silent_turn == 20 and rules.fouls.short_when_alive_at_most == 4
    assert resolved(sport, {"day.silent_turn": 20})["third_foul"] == "lost"


def test_a_preset_is_settings_with_the_given_ones_over_it() -> None:
    sport = load_bundled("sport")
    assert with_preset(sport, "tournament", {"draw_after_idle_rounds": 5}) == {
        "third_foul": "tournament", "fouls.cancel_vote": "nearest", "day.lift_two_of_four": False,
        "day.lift_three_of_nine": False, "day.revote_tie_fewer": "revote",
        "draw_after_idle_rounds": 5, "best_move": True}
    rules = configure(sport, {}, 10, preset="tournament")
    assert (rules.fouls.cancel_vote, rules.draw_after_idle_rounds, rules.day.silent_turn) == (
        "nearest", 3, 10)
    with pytest.raises(SettingError, match="preset cup: not a preset of this rule set"):
        configure(sport, {}, 10, preset="cup")


@pytest.mark.parametrize(("preset", "where", "problem"), [
    ({"cup": {"en": "x", "ru": "х", "settings": {"day.colour": 1}}}, "presets.cup.settings.day.colour",
     "not a setting of this rule set"),
    ({"cup": {"en": "x", "ru": "х", "settings": {"day.speech": 5000}}}, "presets.cup.settings.day.speech",
     "must be from"),
    ({"cup": {"en": "x", "settings": {"best_move": False}}}, "presets.cup.ru", "a label in every language"),
    ({"cup": {"en": "x", "ru": "х"}}, "presets.cup.settings", "expected the settings"),
    ({"cup": {"en": "x", "ru": "х", "settings": {"best_move": False}, "when": 1}}, "presets.cup.when",
     "unknown key"),
])
def test_wrong_presets_are_refused_with_the_place(preset: dict[str, Any], where: str, problem: str) -> None:
    data = yaml.safe_load(SPORT)
    data["presets"] = preset
    with pytest.raises(RuleSetError) as caught:
        parse(yaml.safe_dump(data, allow_unicode=True), "mine.yaml")
    assert str(caught.value).startswith(f"mine.yaml: {where}: "), str(caught.value)
    assert problem in str(caught.value)
