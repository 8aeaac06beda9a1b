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
