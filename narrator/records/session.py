"""A game in play with its journal and protocol: what the daemon drives.

`apply` runs the action through the engine (a refused action raises RuleError and writes
nothing), puts it in the journal (on disk before this returns), adds its effects to the
protocol and returns them for the daemon to carry out. When the game ends, the protocol
files are written (JSON, Polemica, HTML; mode 0600) and the journal is archived.
"""

from __future__ import annotations

import errno
import json
import logging
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from narrator.engine.actions import Action, Undo
from narrator.engine.effects import Effect
from narrator.engine.game import Game
from narrator.engine.recall import with_recall
from narrator.errors import RuleError
from narrator.records.disk import DirectDisk
from narrator.records.export_polemica import ExportError, write_polemica
from narrator.records.journal import (
    DiskFactory,
    Entry,
    GameHeader,
    Journal,
    private_dir,
    write_private,
)
from narrator.records.protocol import ProtocolBuilder, protocol_paths
from narrator.records.protocol_html import write_html

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ProtocolFiles:
    json: Path
    html: Path
    polemica: Path | None  # None when the format cannot describe the game


def protocols_dir(state_dir: str | Path) -> Path:
    return Path(state_dir) / "protocols"


def write_protocol(protocol: ProtocolBuilder, folder: Path, game_id: str) -> ProtocolFiles:
    return write_protocol_files(protocol.to_json(), folder, game_id)


def write_protocol_files(data: dict[str, Any], folder: Path, game_id: str) -> ProtocolFiles:
    """The JSON protocol, its sheet and (where the format can say it) its Polemica record."""
    private_dir(folder)
    paths = protocol_paths(folder, game_id)
    write_private(paths["json"], json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    write_html(data, paths["html"])
    polemica: Path | None = paths["polemica"]
    try:
        write_polemica(data, paths["polemica"])
    except ExportError as exc:
        log.info("no Polemica record for game %s: %s", game_id, exc)
        polemica = None
    return ProtocolFiles(paths["json"], paths["html"], polemica)


class GameSession:
    def __init__(self, state_dir: Path, journal: Journal, game: Game, protocol: ProtocolBuilder,
                 wall: Callable[[], float]) -> None:
        self.state_dir = state_dir
        self.journal = journal
        self.game = game
        self.protocol = protocol
        self.files: ProtocolFiles | None = None
        # Why the ended game's protocol and journal end are not on the card yet (full,
        # read-only): the game's end is still said; `complete` tries again.
        self.unsaved: str | None = None
        self._redated: dict[str, str] = {}  # see redate: kept over an undo's older copy
        self._wall = wall

    @property
    def header(self) -> GameHeader:
        return self.journal.header

    @property
    def over(self) -> bool:
        return self.game.over

    @classmethod
    def start(cls, state_dir: str | Path, header: GameHeader,
              wall: Callable[[], float] = time.time,
              disk: DiskFactory = DirectDisk) -> tuple[GameSession, list[Effect]]:
        """A new game; returns it with its opening effects."""
        game = header.new_game()  # a bad header fails here, before any file is made
        journal = Journal.create(state_dir, header, wall, disk)
        protocol = _builder(game, journal.header)
        protocol.feed(game.opening, wall())
        return cls(Path(state_dir), journal, game, protocol, wall), list(game.opening)

    @classmethod
    def resume(cls, state_dir: str | Path, wall: Callable[[], float] = time.time,
               disk: DiskFactory = DirectDisk) -> tuple[GameSession, list[Effect]] | None:
        """The unfinished game of the state folder, with the effects that bring the table
        back to where it stood (lights, the moment's cue again, the open window in full).
        None if there is none; a game that had ended before its files were written is
        completed here."""
        rebuilt: list[tuple[Action | None, list[Effect], Entry | None]] = []
        found = Journal.resume(state_dir, lambda a, e, entry: rebuilt.append((a, e, entry)), wall,
                               disk)
        if found is None:
            return None
        journal, game = found
        protocol = _builder(game, journal.header)
        for action, effects, entry in rebuilt:
            if isinstance(action, Undo):
                protocol.undo()
            elif action is not None:
                protocol.checkpoint()
            protocol.feed(effects, entry.wall if entry else _started(journal.header, wall))
        session = cls(Path(state_dir), journal, game, protocol, wall)
        if game.over:
            if session._finish() is None:  # the card can't take it yet: the caller retries
                raise OSError(errno.EIO, session.unsaved)
            return None
        # The moment's words again (a night step's wake cue, the speaker, the nominee):
        # they were said before the power went, and the table must know whose turn it is.
        opening = with_recall(game.engine.rules, game.state, game.engine.resume(game.state))
        return session, opening

    def apply(self, action: Action, at: float, left: float | None = None) -> list[Effect]:
        """Play one action; `at` is the daemon's clock time, `left` the seconds the open
        window had left (kept for an undo). Raises RuleError (nothing changes) if the rules
        refuse it, OSError (nothing changes) if the journal can't be written."""
        game = self.game
        if game.over or self.files is not None or self.unsaved is not None:
            # Its journal is archived and its protocol written: not even an undo now.
            raise RuleError("the game is over" if game.over else "the game was abandoned",
                            "game_over")
        state, history, taken = game.state, list(game.history), list(game.taken)
        effects = game.apply(action, left)
        wall = round(self._wall(), 4)
        try:
            self.journal.append(action, at, wall, left)
        except OSError:
            game.state, game.history, game.taken = state, history, taken
            raise
        if isinstance(action, Undo):
            self.protocol.undo()
        else:
            self.protocol.checkpoint()
        self.protocol.feed(effects, wall)
        if game.over:
            self._finish()
        return effects

    def redate(self, started: str, clock: str) -> None:
        """The organiser's phone told the time after this game began on the box's own
        clock: its protocol carries the start by the phone's time (the journal keeps what
        the box wrote then)."""
        self._redated = {"started": started, "clock": clock}
        self.protocol.d["game"].update(self._redated)

    def durable(self) -> Future[None]:
        """Done once every action applied so far is on disk: act on effects only then."""
        return self.journal.sync()

    def abandon(self) -> ProtocolFiles | None:
        """End an unfinished game ("new game"): its protocol is written as it stands (None,
        and `unsaved` says why, when the card can't take it yet)."""
        self.protocol.abandon(self._wall())
        return self._finish()

    def complete(self) -> ProtocolFiles:
        """The ended game's files, written now if the card refused them before; OSError
        while it still does."""
        if self.files is None and self._finish() is None:
            raise OSError(errno.EIO, self.unsaved)
        assert self.files is not None
        return self.files

    def _finish(self) -> ProtocolFiles | None:
        outcome = self.game.state.outcome
        self.protocol.d["game"].update(self._redated)
        try:
            files = write_protocol(self.protocol, protocols_dir(self.state_dir),
                                   self.header.game_id)
            # Abandoned before its first day (night zero: nobody has played yet): the
            # record is kept, but the archive does not list it as a game played.
            st = self.game.state
            self.journal.finish(outcome, unplayed=outcome is None and st.phase == "night"
                                and st.number == 0)
        except OSError as exc:
            # The journal keeps every line of the game (not archived, so a restart
            # completes it too); only its end and the protocol wait for the card.
            why = f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")
            if self.unsaved is None:
                log.error("the protocol of game %s cannot be written (%s); it is tried again "
                          "before the next game", self.header.game_id, why)
            self.unsaved = why
            return None
        self.files, self.unsaved = files, None
        log.info("game %s over: %s", self.header.game_id,
                 f"{outcome.winner} won" if outcome else "abandoned")
        return self.files


def _builder(game: Game, header: GameHeader) -> ProtocolBuilder:
    return ProtocolBuilder(game.engine.rules, game.state.seats, game_id=header.game_id,
                           lang=header.lang, seed=header.seed, settings=header.settings,
                           started=header.started, undo_depth=game.limit,
                           names=header.names, event=header.event, input_method=header.input,
                           clock=header.clock, judge=header.judge)


def _started(header: GameHeader, wall: Callable[[], float]) -> float:
    try:
        return time.mktime(time.strptime(header.started, "%Y-%m-%dT%H:%M:%S"))
    except ValueError:
        return wall()
