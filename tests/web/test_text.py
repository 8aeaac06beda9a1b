"""The page's words exist in both languages, with the same placeholders."""

from __future__ import annotations

import string
from typing import Any

from narrator.web.text import text


def _placeholders(value: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(value) if name}


def _flat(table: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in table.items():
        if isinstance(value, dict):
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = str(value)
    return out


def test_english_and_russian_have_the_same_words() -> None:
    en, ru = _flat(text("en").table), _flat(text("ru").table)
    assert set(en) == set(ru), set(en) ^ set(ru)
    for key, value in en.items():
        assert _placeholders(value) == _placeholders(ru[key]), key
        assert value.strip() and ru[key].strip(), key


def test_every_bundled_role_has_a_name_in_both() -> None:
    from narrator.rules.loader import bundled_names, load_bundled

    for name in bundled_names():
        for role in load_bundled(name).roles:
            for lang in ("en", "ru"):
                assert role in text(lang).table["roles"], (lang, name, role)


def _keys(table: dict[Any, Any]) -> list[Any]:
    return [k for key, value in table.items()
            for k in ([key, *_keys(value)] if isinstance(value, dict) else [key])]


def test_every_key_is_a_word_not_a_yaml_boolean() -> None:
    # YAML 1.1 reads a bare `yes:` (or no, on, off) as True: the page then showed its
    # confirm button as "yes" in both languages, the key it could not find.
    for lang in ("en", "ru"):
        assert all(isinstance(k, str) for k in _keys(text(lang).table)), lang
    assert (text("en")("yes"), text("ru")("yes")) == ("Yes", "Да")


def test_every_word_the_pages_ask_for_exists() -> None:
    import re
    from pathlib import Path

    import narrator.web

    folder = Path(narrator.web.__file__).parent
    asked = {key for path in folder.glob("*.py")
             for key in re.findall(r'\bt\("([a-z_0-9]+)"[,)]', path.read_text(encoding="utf-8"))}
    assert asked
    for lang in ("en", "ru"):
        assert not [k for k in asked if not isinstance(text(lang).table.get(k), str)], lang
