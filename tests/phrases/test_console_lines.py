"""`narrator demo`'s terminal lines come from the phrase book of the game's language: both
books have every line, with the same placeholders."""

from __future__ import annotations

import string

from narrator.phrases.book import PhraseBook


def _fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


def test_both_books_have_the_same_console_lines() -> None:
    en, ru = PhraseBook.load("en"), PhraseBook.load("ru")
    assert set(en.console) == set(ru.console)
    assert {"start", "start_fast", "eliminated", "game_over", "winner", "played",
            "protocol", "audio", "how_vote", "how_shot"} <= set(en.console)
    for key in en.console:
        assert _fields(en.console[key]) == _fields(ru.console[key]), key
