"""Wrong classic, boxed and club files are refused with one line naming the file, the key
path and the problem: the hooks these rule sets add check their args like the rest."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from narrator.errors import RuleSetError
from narrator.rules.loader import parse

SETS = Path(__file__).resolve().parents[2] / "narrator/rules/sets"


def changed(name: str, path: str, value: Any) -> str:
    """The bundled file `name` with the value at `path` (keys and list indexes joined by
    "/") replaced, or deleted when `value` is KeyError."""
    data = yaml.safe_load((SETS / f"{name}.yaml").read_text(encoding="utf-8"))
    target = data
    keys: list[Any] = [int(k) if k.isdigit() else k for k in path.split("/")]
    for key in keys[:-1]:
        target = target[key]
    if value is KeyError:
        del target[keys[-1]]
    else:
        target[keys[-1]] = value
    return yaml.safe_dump(data)


@pytest.mark.parametrize("name, path, value, where, problem", [
    ("boxed", "setup/table/6/mafia", -1, "setup.table.6.mafia", "a count cannot be negative"),
    ("boxed", "setup/table/6/wizards", 1, "setup.table.6.wizards", "not a role or a group"),
    ("boxed", "setup/choice/8", ["doctor", "self_taught_doctor"], "setup",
     "setup.roles: doctor and self_taught_doctor never play together"),
    ("boxed", "setup/filler", "peasant", "setup.filler", "unknown role 'peasant'"),
    ("boxed", "roles/turncoat/turns_into", "dragon", "roles.turncoat.turns_into",
     "unknown role 'dragon'"),
    ("boxed", "roles/ninja/shows_as", "ghost", "roles.ninja.shows_as", "unknown role 'ghost'"),
    ("boxed", "roles/doctor/excludes", ["vet"], "roles.doctor.excludes[0]", "unknown role 'vet'"),
    ("boxed", "day/verdict", ["king"], "day.verdict[0]", "unknown role 'king'"),
    ("boxed", "day/coin", "dice", "day.coin", "'dice' is not one of all_or_none, one"),
    ("boxed", "dawn/news", "gossip", "dawn.news", "'gossip' is not one of booklet, deaths"),
    ("boxed", "cues/night_fell", "x", "cues.night_fell", "not one of the engine's cues"),
    ("boxed", "night/2/args/self", "sometimes", "night[2].args", "self must be one of"),
    ("boxed", "night/2/args/saves", -1, "night[2].args", "saves must be a number of deaths"),
    ("boxed", "night/5/args/show", 0, "night[5].args", "show must be the seconds"),
    ("boxed", "night/5/args/ranked", "yes", "night[5].args", "ranked must be true or false"),
    ("boxed", "night/5/args/targets", "ghosts", "night[5].args", "targets must be one of"),
    ("boxed", "night/5/args/match", ["mafia"], "night[5].args", "a card is shown as it is"),
    ("boxed", "night/5/cues_if/dragon", {"wake": "x"}, "night[5].cues_if.dragon",
     "unknown role 'dragon'"),
    ("boxed", "night/6/args/uncounted", ["dragon"], "night[6].args",
     "uncounted must be a list of roles"),
    ("boxed", "night/6/args/majority", "of_all", "night[6].args", "majority must be of_members"),
    ("boxed", "night/6/args/changes", "yes", "night[6].args", "changes must be true or false"),
    ("boxed", "night/6/args/rounds", 0, "night[6].args.rounds", "a number of call-out rounds 1-3"),
    ("boxed", "night/7/args/news", 3, "night[7].args", "news must be a cue id"),
    ("boxed", "night/0/args", {"loud": True}, "night[0].args", "unknown args ['loud']"),
    ("club", "night/0/args/dies_with", "maybe", "night[0].args",
     "dies_with must be true or false"),
    ("club", "night/4/args/no_repeat", 1, "night[4].args", "no_repeat must be true or false"),
    ("club", "win/0", "chaos", "win[0]", "unknown win check 'chaos'"),
    ("classic", "day/procedure", "shouting", "day.procedure", "unknown procedure 'shouting'"),
    ("classic", "day/second", -1, "day.second", "cannot be negative"),
    ("classic", "night/3/args/reveals", "aura", "night[3].args", "reveals must be role or team"),
])
def test_wrong_files_are_refused_with_the_place(name: str, path: str, value: Any, where: str,
                                                 problem: str) -> None:
    with pytest.raises(RuleSetError) as caught:
        parse(changed(name, path, value), f"my-{name}.yaml")
    message = str(caught.value)
    assert message.startswith(f"my-{name}.yaml: {where}: "), message
    assert problem in message
    assert "\n" not in message


def test_doctor_and_self_taught_doctor_never_share_a_deck() -> None:
    text = changed("boxed", "setup/choice/11", ["doctor", "self_taught_doctor", "boss"])
    with pytest.raises(RuleSetError, match=r"setup: setup\.roles: doctor and "
                                           r"self_taught_doctor never play together"):
        parse(text, "boxed.yaml")


def test_every_boxed_role_is_dealt_and_met_on_the_introduction_night() -> None:
    data = yaml.safe_load((SETS / "boxed.yaml").read_text(encoding="utf-8"))
    setup = data["setup"]
    dealt = {r for row in setup["table"].values() for r in row if r in data["roles"]}
    dealt |= {r for group in setup["groups"].values() for r in group}
    met = {role for step in data["night_zero"] for role in step["roles"]}
    assert set(data["roles"]) == dealt
    assert set(data["roles"]) - {"civilian"} <= met
    # The booklet's rows 6-16 count the host: 5-15 seats; larger games up to 20.
    assert sorted(setup["table"]) == list(range(5, 21))
