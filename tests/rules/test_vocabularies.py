"""A rule set's words are checked against the very types the engine declares them with
(narrator.engine.words): the loader's and the settings' table of choices is read from the
fields' types, so a word added to a type is accepted at once and none is checked twice."""

from __future__ import annotations

import dataclasses
from typing import Literal, get_args, get_origin, get_type_hints

import pytest

from narrator.engine.rule_sections import CHOICES, DawnRules, DayRules, FoulRules
from narrator.engine.words import RevoteTieFewer
from narrator.rules.loader import load_bundled


def test_every_field_typed_as_a_vocabulary_is_a_choice_with_its_words() -> None:
    expected = {}
    for section, cls in (("day", DayRules), ("fouls", FoulRules), ("dawn", DawnRules)):
        hints = get_type_hints(cls)
        for f in dataclasses.fields(cls):
            if get_origin(hints[f.name]) is Literal:
                expected[f"{section}.{f.name}"] = get_args(hints[f.name])
    assert expected == CHOICES
    assert CHOICES["day.revote_tie_fewer"] == get_args(RevoteTieFewer) == ("revote", "lift")


def test_a_setting_outside_its_vocabulary_is_refused() -> None:
    rules = load_bundled("sport")
    with pytest.raises(ValueError, match=r"'day\.revote_tie_fewer' must be one of"):
        rules.with_settings({"day.revote_tie_fewer": "lifts"})
