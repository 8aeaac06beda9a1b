"""Wrong cues and wrong phrase-book files give one clear message."""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.errors import InputFileError
from narrator.phrases.book import PhraseBook, PhraseBookError, PhraseError


def test_unknown_cue() -> None:
    with pytest.raises(PhraseError, match="no cue 'nite_falls' in the ru phrase book"):
        PhraseBook.load("ru").render("nite_falls", {})


@pytest.mark.parametrize(("params", "message"), [
    ({}, "takes parameters seat, votes; got none"),
    ({"seat": 3}, "takes parameters seat, votes; got seat"),
    ({"seat": 3, "votes": 2, "day": 1}, "got day, seat, votes"),
    ({"seat": "three", "votes": 2}, "seat must be int"),
    ({"seat": (3,), "votes": 2}, "seat must be int"),
    ({"seat": -3, "votes": 2}, "cannot say -3"),
])
def test_wrong_params(params: dict[str, object], message: str) -> None:
    with pytest.raises(PhraseError, match=message):
        PhraseBook.load("en").render("vote_count", params)  # type: ignore[arg-type]


def test_unknown_language() -> None:
    with pytest.raises(InputFileError, match="no phrase book for language 'de'"):
        PhraseBook.load("de")


@pytest.mark.parametrize(("lang", "text", "message"), [
    ("en", "cues: [a, b]\n", r"bad\.yaml: cues: missing, or not a mapping"),
    ("en", "cues:\n  x: 'a {seat'\n", r"bad\.yaml: cues\.x: bad placeholder"),
    ("en", "cues:\n  x: '{votes:vote/votes/voteses}'\n", r"cues\.x: .*expected 2 noun forms"),
    ("ru", "cues:\n  x: '{votes:голос/голоса}'\n", r"cues\.x: .*expected 3 noun forms"),
    ("en", "cues:\n  x: '{seconds:f:second/seconds}'\n", r"cues\.x: .*only in Russian"),
    ("en", "cues:\n  x: '{seat!r}'\n", r"cues\.x: bad placeholder"),
    ("en", "cues:\n  x: ''\n", r"cues\.x: expected a text"),
    ("en", "cues: {}\ncommands:\n  pause: 3\n", r"commands\.pause: expected a list"),
    ("en", "language: ru\ncues: {}\n", r"language: this book is 'ru', not 'en'"),
    ("en", "cues: {a: [\n", r"bad\.yaml: line \d+: not valid YAML"),
    ("en", "cues: {}\nroles: [a]\n", r"roles: expected a mapping of role id"),
    ("en", "cues: {}\nroles: {spy: 3}\n", r"roles\.spy: expected a name"),
    ("en", "cues: {}\nroles: {spy: 'Spy /'}\n", r"roles\.spy: bad name"),
    ("en", "cues: {}\nrule_set_roles: [a]\n", r"rule_set_roles: expected a mapping"),
    ("en", "cues: {}\nrule_set_roles: {boxed: {spy: ''}}\n", r"rule_set_roles\.boxed\.spy"),
    ("en", "cues:\n  x: '{role:few}'\n", r"cues\.x: \{role:few\}: a role takes only :many"),
])
def test_bad_files(tmp_path: Path, lang: str, text: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PhraseBookError, match=message) as info:
        PhraseBook.load(lang, path)
    assert "\n" not in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(PhraseBookError, match="cannot read"):
        PhraseBook.load("en", tmp_path / "nope.yaml")


def test_unknown_role_name() -> None:
    with pytest.raises(PhraseError, match="no name for role 'wizard' for boxed in the en"):
        PhraseBook.load("en").for_rules("boxed").render("deck_role", {"role": "wizard"})
