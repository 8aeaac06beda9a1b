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
    ("boxed", "deck/6/self_taught_doctor", 1, "deck.6",
     "impossible deck: 7 roles for 6 seats"),
    ("boxed", "roles/turncoat/turns_into", "dragon", "roles.turncoat.turns_into",
     "unknown role 'dragon'"),
    ("boxed", "roles/doctor/excludes", ["vet"], "roles.doctor.excludes[0]", "unknown role 'vet'"),
    ("boxed", "day/verdict", ["king"], "day.verdict[0]", "unknown role 'king'"),
    ("boxed", "night/4/args/self", "sometimes", "night[4].args", "self must be one of"),
    ("boxed", "night/7/args/show", 0, "night[7].args", "show must be the seconds"),
    ("boxed", "night/7/args/ranked", "yes", "night[7].args", "ranked must be true or false"),
    ("boxed", "night/9/args/targets", "ghosts", "night[9].args", "targets must be one of"),
    ("boxed", "night/2/args", {"loud": True}, "night[2].args", "unknown args ['loud']"),
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
    text = changed("boxed", "deck/6", {"mafia": 1, "boss": 1, "doctor": 1,
                                       "self_taught_doctor": 1, "civilian": 2})
    with pytest.raises(RuleSetError, match=r"deck\.6: impossible deck: doctor and "
                                           r"self_taught_doctor never play together"):
        parse(text, "boxed.yaml")


def test_every_boxed_role_has_a_deck_and_a_night_zero_meeting() -> None:
    data = yaml.safe_load((SETS / "boxed.yaml").read_text(encoding="utf-8"))
    dealt = {role for counts in data["deck"].values() for role in counts}
    met = {role for step in data["night_zero"] for role in step["roles"]}
    assert set(data["roles"]) == dealt
    assert set(data["roles"]) - {"civilian"} <= met
    assert sorted(data["deck"]) == list(range(6, 17))
