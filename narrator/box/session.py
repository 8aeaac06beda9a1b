"""A game and where its actions are kept, as the referee and its callers see it: the
Session Protocol (narrator.records.session.GameSession keeps a journal and writes the
protocol on the card) and Unrecorded, a game kept nowhere. Callers read what they need
of either through the Protocol: a game kept nowhere has no header, no journal's actions
and no protocol."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Protocol

from narrator.engine.actions import Action
from narrator.engine.effects import Effect
from narrator.engine.game import Game
from narrator.records.disk import done_future
from narrator.records.journal import GameHeader
from narrator.records.protocol import ProtocolBuilder
from narrator.records.session import ProtocolFiles


class Session(Protocol):
    """A game and where its actions are kept: `apply` checks an action, writes it down
    (narrator.records.session.GameSession: the journal, on disk before it returns) and
    returns its effects; a refused action raises RuleError and changes nothing."""

    @property
    def game(self) -> Game: ...

    @property
    def header(self) -> GameHeader | None:
        """The journal's header (its id, language, names, set-up); None: the game is kept
        nowhere (not on the card)."""
        ...

    @property
    def lines(self) -> int:
        """A count that goes up with every action the game takes (its journal's lines)."""
        ...

    @property
    def protocol(self) -> ProtocolBuilder | None:
        """The protocol being built as the game goes (None: kept nowhere)."""
        ...

    def journal_actions(self) -> list[Action]:
        """Every action its journal holds, in order, undos too ([] for a game kept
        nowhere). OSError or RecordError when the journal can't be read."""
        ...

    def abandon(self) -> ProtocolFiles | None:
        """End the game without a result; its protocol as it stands (None: not written,
        `unsaved` says why, or kept nowhere)."""
        ...

    def complete(self) -> ProtocolFiles | None:
        """Write the ended game's files now if the card refused them before (OSError
        while it still does)."""
        ...

    def apply(self, action: Action, at: float, left: float | None = None) -> list[Effect]: ...

    def durable(self) -> Future[None]:
        """Done once every action applied so far is on disk."""
        ...

    @property
    def files(self) -> ProtocolFiles | None:
        """The ended game's protocol files, once written (None: not, or kept nowhere)."""
        ...

    @property
    def unsaved(self) -> str | None:
        """Why the ended game's protocol could not be written (None: it was, or not yet)."""
        ...


class Unrecorded:
    """A game kept nowhere (tests, a demo without a state folder)."""

    files = None  # no protocol is written...
    unsaved = None  # ...and none is missed
    header = None
    protocol = None

    def __init__(self, game: Game) -> None:
        self._game = game

    @property
    def game(self) -> Game:
        return self._game

    def apply(self, action: Action, at: float, left: float | None = None) -> list[Effect]:
        return self._game.apply(action, left)

    def durable(self) -> Future[None]:
        return done_future()

    @property
    def lines(self) -> int:
        return len(self._game.history)

    def journal_actions(self) -> list[Action]:
        return []

    def abandon(self) -> ProtocolFiles | None:
        return None

    def complete(self) -> ProtocolFiles | None:
        return None
