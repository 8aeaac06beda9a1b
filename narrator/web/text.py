"""The page's words in each language: narrator/web/words/<lang>.yaml.

Both files have the same keys (tests/web/test_text.py keeps them in step). A text may
hold `{name}` placeholders filled by `Text.get(key, name=value)`; values are escaped by
whoever puts them in HTML, never here.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import yaml

from narrator.phrases.numbers import LANGUAGES


class Text:
    def __init__(self, lang: str, table: dict[str, Any]) -> None:
        self.lang = lang
        self.table = table

    def __call__(self, key: str, **params: Any) -> str:
        value = self.table.get(key)
        if not isinstance(value, str):
            return key  # a missing text shows its key: visible, and the test names it
        return value.format(**params) if params else value

    def role(self, role: str) -> str:
        roles = self.table.get("roles", {})
        return str(roles.get(role, role.replace("_", " ")))

    def winner(self, winner: str | None) -> str:
        return self(f"winner_{winner or 'none'}")

    def moment(self, moment: str) -> str:
        return str(self.table.get("moments", {}).get(moment, ""))

    def reason(self, reason: str) -> str:
        return str(self.table.get("reasons", {}).get(reason, reason))

    def how(self, how: str) -> str:
        return str(self.table.get("how", {}).get(how, how))

    def rule_set(self, rules: str, title: str = "") -> str:
        """A rule set's name in the page's language, from the phrase book (the spoken and
        shown names of a rule set live there); `title`: its file's own, for one it lacks."""
        from narrator.phrases.book import PhraseBook

        return PhraseBook.load(self.lang).rule_set_name(rules, title)


@cache
def text(lang: str) -> Text:
    if lang not in LANGUAGES:
        lang = "en"
    raw = (resources.files("narrator.web") / "words" / f"{lang}.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(raw)
    return Text(lang, data)
