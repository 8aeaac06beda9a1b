"""What the box plays now, shared by the service's parts (the Service holds it): the
current game's box (None between games, or while a held game waits), its phrase book and
the input method its cues name. The starter sets them; the other parts read them."""

from __future__ import annotations

from typing import Protocol

from narrator.box.referee import Box
from narrator.phrases.book import PhraseBook


class Playing(Protocol):
    box: Box | None
    book: PhraseBook
    input_method: str
