"""What the box plays now, shared by the service's parts (the Service makes it): the
current game's box (the evening's: None between games, or while a held game waits), its
phrase book and the input method its cues name. The starter sets the book and the
method; the evening's `began` and `hold` set the box."""

from __future__ import annotations

from narrator.box.evening import Evening
from narrator.box.referee import Box
from narrator.phrases.book import PhraseBook


class Playing:
    def __init__(self, evening: Evening, book: PhraseBook, input_method: str) -> None:
        self.evening = evening
        self.book = book
        self.input_method = input_method

    @property
    def box(self) -> Box | None:
        return self.evening.box
