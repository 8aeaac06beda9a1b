"""The game set-up: names and tables refused with their reasons, the JSON form the page
posts, the journal header that carries it, the names remembered on the box."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from narrator.box.memory import last_setup, remember
from narrator.cli import main
from narrator.evening import Event, GameSetup, SetupError, parse_names
from narrator.records.journal import GameHeader, Journal, read

TEN = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")


def codes(setup: GameSetup) -> list[tuple[str, str]]:
    with pytest.raises(SetupError) as caught:
        setup.check()
    return [(p.field, p.code) for p in caught.value.problems]


def test_a_good_set_up_is_kept_with_its_names_trimmed() -> None:
    setup = GameSetup(names=(" Ann ", *TEN[1:]), event=Event("Autumn cup", 2, 3, 1)).check()
    assert setup.names == TEN
    assert setup.name(1) == "Ann" and setup.name(11) == ""
    assert GameSetup().check().names == ()  # a table may play unnamed


@pytest.mark.parametrize(("names", "expected"), [
    (("", *TEN[1:]), [("names.1", "name_empty")]),
    (("   ", *TEN[1:]), [("names.1", "name_empty")]),
    ((*TEN[:9], "ann"), [("names.10", "name_duplicate")]),
    ((*TEN[:9], "x" * 41), [("names.10", "name_too_long")]),
    ((*TEN[:9], "Jo\tn"), [("names.10", "name_control")]),
    ((*TEN[:9], "Jo\u200en"), [("names.10", "name_control")]),  # an invisible format mark
    (TEN[:9], [("names", "names_count")]),
])
def test_bad_names_are_refused_with_the_seat_and_the_reason(
        names: tuple[str, ...], expected: list[tuple[str, str]]) -> None:
    assert codes(GameSetup(names=names)) == expected


def test_forty_characters_are_allowed_and_every_reason_is_given_at_once() -> None:
    GameSetup(names=(*TEN[:9], "x" * 40)).check()
    with pytest.raises(SetupError) as caught:
        GameSetup(names=("", "Bob", "bob", *TEN[3:])).check("--names")
    message = str(caught.value)
    assert message == "--names: seat 1: the name is empty; seat 3: 'bob' is already seat 2's name"
    assert caught.value.to_json()["problems"][1] == {
        "field": "names.3", "code": "name_duplicate", "reason": "seat 3: 'bob' is already seat 2's name"}


def test_a_table_the_rule_set_forbids_and_a_wrong_setting_are_refused() -> None:
    assert codes(GameSetup(rules="sport", seats=9)) == [("seats", "seats")]
    # The boxed booklet's smallest row, 6 players, counts the host: 5 seats play it, 4 can't.
    assert codes(GameSetup(rules="boxed", seats=4)) == [("seats", "seats")]
    assert codes(GameSetup(settings={"day.speech": "long"})) == [("settings.day.speech", "setting")]
    assert codes(GameSetup(rules="nosuch")) == [("rules", "rules")]
    assert codes(GameSetup(lang="fr", deal="dice")) == [("lang", "lang"), ("deal", "deal")]
    assert codes(GameSetup(event=Event("x" * 81, 0))) == [
        ("event.tournament", "text_too_long"), ("event.table", "number")]


def test_the_page_form_is_read_and_checked() -> None:
    form = {"rules": "classic", "seats": 10, "lang": "ru", "names": list(TEN),
            "event": {"tournament": "Кубок", "table": "2", "round": 1, "game": ""},
            "settings": {}, "deal": "phone"}
    setup = GameSetup.from_json(form)
    assert setup.rules == "classic" and setup.lang == "ru" and setup.deal == "phone"
    assert setup.event == Event("Кубок", 2, 1, None)
    assert GameSetup.from_json(setup.to_json()) == setup
    # Left out: kept from the base (ten names don't fit twelve seats); every name blank: unnamed.
    assert GameSetup.from_json({"rules": "sport"}, base=setup).names == TEN
    with pytest.raises(SetupError, match="10 names for 12 seats"):
        GameSetup.from_json({"seats": 12}, base=setup)
    assert GameSetup.from_json({"names": [""] * 10}, base=setup).names == ()
    with pytest.raises(SetupError) as caught:
        GameSetup.from_json({"seats": True, "colour": 1, "names": "Ann", "event": {"table": -1}})
    assert {p.field for p in caught.value.problems} == {"seats", "colour", "names", "event.table"}
    with pytest.raises(SetupError):
        GameSetup.from_json([1, 2])


def test_the_next_game_keeps_the_names_and_counts_the_game_number() -> None:
    setup = GameSetup(names=TEN, event=Event("Cup", 1, 2, 5))
    assert setup.following().event == Event("Cup", 1, 2, 6)
    assert setup.following().names == TEN
    assert GameSetup().following() == GameSetup()


def test_the_journal_header_carries_the_set_up(tmp_path: Path) -> None:
    setup = GameSetup(names=TEN, event=Event("Cup", 1, 2, 5)).check()
    journal = Journal.create(tmp_path, setup.header(seed=7))
    journal.close()
    header = read(journal.path).header
    assert header.names == TEN and header.event == {"tournament": "Cup", "table": 1, "round": 2,
                                                    "game": 5}
    assert header.roles is None and header.deal == "cards"
    # The header holds every setting's value, so a replay or a resume plays by exactly
    # this game's settings; the set-up read back holds only the ones changed (none here).
    from narrator.rules.loader import load_bundled

    assert set(header.settings) == {s.key for s in load_bundled("sport").settings}
    assert header.settings["third_foul"] == "lost" and header.settings["day.speech"] == 60
    assert GameSetup.from_header(header) == setup
    changed = GameSetup(settings={"day.speech": 90}).check()
    assert GameSetup.from_header(changed.header(seed=1)).settings == {"day.speech": 90}
    # A header from before the set-up existed still reads.
    old = header.to_json()
    for key in ("names", "event", "deal"):
        del old[key]
    assert GameHeader.from_json(old, "x").names == ()


def test_a_phone_deal_puts_the_roles_in_the_header() -> None:
    header = GameSetup(deal="phone").header(seed=3)
    assert header.roles is not None and sorted(header.roles) == sorted(
        ["civilian"] * 6 + ["sheriff", "mafia", "mafia", "don"])
    assert header.new_game().state.roles[1:] == list(header.roles)


def test_the_last_set_up_is_remembered_on_the_box(tmp_path: Path) -> None:
    assert last_setup(tmp_path) is None
    setup = GameSetup(names=TEN, event=Event("Cup")).check()
    remember(tmp_path / "state", setup)
    assert (tmp_path / "state" / "evening.json").stat().st_mode & 0o077 == 0
    assert last_setup(tmp_path / "state") == setup
    (tmp_path / "state" / "evening.json").write_text("{not json")
    assert last_setup(tmp_path / "state") is None  # unreadable: nothing remembered, no refusal


def test_parse_names() -> None:
    assert parse_names(" Ann, Bob ,Cid") == ("Ann", "Bob", "Cid")


def test_run_refuses_bad_names_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["run", "--names", "Ann,Bob,Ann,Dan,Eve,Fay,Gus,Hal,Ivy,Jon", "--keypad", "none",
                 "--state-dir", str(tmp_path / "s"), "--cache-dir", str(tmp_path / "c")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and err == "narrator: --names: seat 3: 'Ann' is already seat 1's name"
    assert main(["run", "--names", "Ann,Bob", "--keypad", "none",
                 "--state-dir", str(tmp_path / "s"), "--cache-dir", str(tmp_path / "c")]) == 2
    assert "2 players" in capsys.readouterr().err


def test_demo_names_reach_the_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--fast", "--no-state", "--names", "A,B"]) == 2
    assert "\n" not in capsys.readouterr().err.strip()
    assert main(["demo", "--fast", "--state-dir", str(tmp_path), "--names", ",".join(TEN)]) == 0
    journal = next((tmp_path / "games").glob("*.jsonl"))
    header = json.loads(journal.read_text().splitlines()[0])["header"]
    assert header["names"] == list(TEN)
