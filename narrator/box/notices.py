"""What the organiser must know about the box itself, beyond the game: the memory card
refuses to save, the last game's protocol waits to be written, the unfinished game's
record could not be read, the sound device is gone. The service sets and clears them;
the organiser's page shows each as one line in the page's language (its words are
`notice_<word>` in narrator/web/words), and the log has said it in English already.

Nothing here depends on the game's secrets: a notice is about the box's own parts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class Notice:
    word: str  # the page's word for it, without the `notice_` prefix
    params: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


class Notices:
    """The current notices by name (one per kind of trouble); listeners hear each change."""

    def __init__(self) -> None:
        self.items: dict[str, Notice] = {}
        self.listeners: list[Callable[[], None]] = []

    def set(self, name: str, word: str, **params: str) -> None:
        notice = Notice(word, MappingProxyType(dict(params)))
        if self.items.get(name) != notice:
            self.items[name] = notice
            self._tell()

    def clear(self, name: str) -> None:
        if self.items.pop(name, None) is not None:
            self._tell()

    def _tell(self) -> None:
        for hear in list(self.listeners):
            hear()
