"""The service's small state machines, each named for what it remembers (pure: the time
is given, nothing is said or shown here; the parts that own them act on their answers)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from narrator.devices.keymap import DIGITS


class KeyTyping:
    """The keypad between two Enters: idle (nothing typed) or typing (digits or "/"). A
    bare Enter, one with nothing typed before it, is the keypad's start key."""

    def __init__(self) -> None:
        self.typing = False

    def key(self, key: str) -> bool:
        """Follow one key; True when it is a bare Enter."""
        bare = not self.typing
        if key in ("enter", "clear"):
            self.typing = False
        elif key in DIGITS or key == "/":
            self.typing = True  # an entry or a host's move being typed: its Enter is its own
        return key == "enter" and bare


@dataclass(frozen=True, slots=True)
class Asked:
    what: str
    at: float


class Confirmation:
    """A game-changing key waiting for the same keys again: none asked, or `asked` (what,
    when). The second time within `seconds` confirms it; anything else asks afresh."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.asked: Asked | None = None

    def confirm(self, what: str, now: float) -> bool:
        """True: `what` was asked for within the time (and is done with); False: it is
        asked for now (the caller says the question)."""
        asked = self.asked
        if asked is not None and asked.what == what and now - asked.at <= self.seconds:
            self.asked = None
            return True
        self.asked = Asked(what, now)
        return False

    def clear(self) -> None:
        self.asked = None


class Card(enum.Enum):
    WRITABLE = "writable"
    REFUSING = "refusing"  # refused, and said so aloud (once an outage)


class CardOutage:
    """The memory card: writable, or refusing (a journal or a protocol) with the refusals
    in a row counted; after `tries` of them a game is played unsaved."""

    def __init__(self, tries: int) -> None:
        self.tries = tries
        self.state = Card.WRITABLE
        self.refusals = 0

    def refused(self) -> bool:
        """One more refusal; True when it begins an outage (to be said aloud)."""
        first = self.state is Card.WRITABLE
        self.state = Card.REFUSING
        self.refusals += 1
        return first

    def writable(self) -> bool:
        """The card took a game again; True when it had been refusing."""
        was = self.state is Card.REFUSING
        self.state = Card.WRITABLE
        self.refusals = 0
        return was

    @property
    def play_unsaved(self) -> bool:
        """Refused `tries` times in a row: the next game is played all the same."""
        return self.refusals >= self.tries


class Announcement:
    """The page's address, said once an evening: pending until a game's box (or the words
    said between games) has said it."""

    def __init__(self) -> None:
        self.said = False

    def done(self) -> None:
        self.said = True


class ToldOnce:
    """Things told once an evening (why voice commands are off, per language)."""

    def __init__(self) -> None:
        self._told: set[tuple[str, str]] = set()

    def first(self, what: str, lang: str = "") -> bool:
        """True the first time (what, lang) comes, False after."""
        if (what, lang) in self._told:
            return False
        self._told.add((what, lang))
        return True

    def mark(self, what: str, lang: str = "") -> None:
        self._told.add((what, lang))
