"""The page's words exist in both languages, with the same placeholders."""

from __future__ import annotations

import string
from pathlib import Path
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


def test_every_reason_a_game_can_end_for_has_words_in_both() -> None:
    """A reason the page has no words for shows as the engine's English (a ru page said
    "nobody is left at the table")."""
    from narrator.engine.cues import REASON_CUES

    for lang in ("en", "ru"):
        reasons = text(lang).table["reasons"]
        assert not [r for r in [*REASON_CUES, "forfeit"] if r not in reasons], lang


def test_every_way_to_leave_the_table_has_words_in_both() -> None:
    """How each player left, on the page: every `how` that self-play games of every bundled
    rule set produce (the boxed judge's "judged" showed in English on a ru page)."""
    from narrator.rules.loader import bundled_names, load_bundled
    from narrator.sim.selfplay import play

    seen: set[str] = set()
    for name in bundled_names():
        rules = load_bundled(name)
        for seed in range(12):
            seen |= {e.how for e in play(rules, seed, rules.max_seats).eliminations}
    assert {"vote", "shot"} <= seen
    # and the day's ways the engine names in its source (self-play never asks the judge)
    import ast

    import narrator.engine

    for path in Path(narrator.engine.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("leave", "remove") \
                    and len(node.args) == 3 and isinstance(node.args[2], ast.Constant):
                seen.add(str(node.args[2].value))
    assert "judged" in seen
    for lang in ("en", "ru"):
        assert not sorted(h for h in seen if h not in text(lang).table["how"]), (lang, seen)
