"""A configured rule set is resolved once (narrator/rules/configured.py): a rule-set file
named in the config is read once, from the settings through the first game's set-up, its
checks, the warm-up's rule set and the journal header to the game itself; the header's
JSON is what it always was; another choice is resolved afresh, another table re-checked."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from narrator.box.setups import initial_setup
from narrator.boxconfig import load_settings
from narrator.evening import GameSetup, SetupError
from narrator.evening.answers import checking_roles
from narrator.records.journal import GameHeader
from narrator.rules import loader
from narrator.rules.configured import resolve
from narrator.rules.settings import resolved


def house(tmp_path: Path, bundled: str) -> Path:
    """A bundled rule set copied to a file of the club's own."""
    path = tmp_path / "house.yaml"
    with resources.as_file(resources.files("narrator.rules") / "sets" / f"{bundled}.yaml") as f:
        shutil.copy(f, path)
    return path


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every rule-set file the loader parses (the real parser does the work)."""
    seen: list[str] = []
    real = loader.parse

    def counted(text: str, source: str) -> Any:
        seen.append(source)
        return real(text, source)

    monkeypatch.setattr(loader, "parse", counted)
    return seen


def config(tmp_path: Path, rules: Path, preset: str = "") -> Path:
    path = tmp_path / "narrator.yaml"
    path.write_text(f"game:\n  rules: {rules}\n  seats: 10\n"
                    + (f"  preset: {preset}\n" if preset else "")
                    + f"state_dir: {tmp_path / 'state'}\ncache_dir: {tmp_path / 'cache'}\n")
    return path


def test_a_rule_file_is_read_once_from_the_config_to_the_game(
        tmp_path: Path, parses: list[str]) -> None:
    rule_file = house(tmp_path, "sport")
    settings = load_settings(config(tmp_path, rule_file, preset="tournament"))
    assert parses == [str(rule_file)]
    setup = initial_setup(settings).check()  # the set-up accepted
    assert checking_roles(setup) == ["don", "sheriff"]
    header = setup.header(seed=7, input_method="pads")
    game = header.new_game()
    assert setup.configured_rules().base.min_seats == settings.seats == 10
    assert parses == [str(rule_file)]  # still the one read
    # The header writes what it always wrote: every setting's value, the preset's included.
    again = loader.parse(rule_file.read_text(), str(rule_file))
    assert header.to_json()["settings"] == resolved(again, settings.game.settings)
    assert header.settings["best_move"] is True  # from the preset
    assert "configured" not in header.to_json()
    # A header read back from the journal plays the same rule set.
    read_back = GameHeader.from_json(header.to_json(), "journal")
    assert read_back == header and read_back.rule_set() == game.engine.rules


def test_the_next_game_and_another_table_need_no_new_read(
        tmp_path: Path, parses: list[str]) -> None:
    rule_file = house(tmp_path, "classic")
    setup = initial_setup(load_settings(config(tmp_path, rule_file))).check()
    following = setup.following().check()
    assert following.configured is setup.configured  # the same game again: nothing to do
    bigger = GameSetup.from_json({"seats": 12}, base=setup)
    assert bigger.configured_rules().seats == 12
    assert parses == [str(rule_file)]
    with pytest.raises(SetupError, match="3 players: at least 8 players"):
        GameSetup.from_json({"seats": 3}, base=setup)  # the table is still checked
    # Another choice of settings is a new resolution: the file is read for it.
    changed = GameSetup.from_json({"settings": {"answers_public": True}}, base=setup)
    assert changed.configured_rules().settings == {"answers_public": True}
    assert parses == [str(rule_file)] * 2


def test_a_set_up_never_checked_is_resolved_when_asked() -> None:
    setup = GameSetup(rules="classic", seats=10)
    assert setup.configured is None
    assert setup.configured_rules() == resolve("classic", {}, 10)
    assert setup.check().configured == resolve("classic", {}, 10)
