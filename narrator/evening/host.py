"""The evening's three operations, shared by the keypad, the voice and the organiser's page.

- `start(setup)`: the next game is played with this set-up (checked first: a refused
  set-up raises SetupError with every reason and changes nothing);
- `next()`: the next game with the same names and seats (the game number goes up by one
  after a finished game; an abandoned game is played again under its own number);
- `abandon()`: the game in play ends now: its journal is archived marked abandoned and
  its protocol is written as it stands. Asking "are you sure?" is the caller's job.

`start` and `next` are refused (EveningError) while a game is in play or held; `abandon`
when none is. A held game (`hold`) is an unfinished game found on start that this box
can't play as it is now (the resumed game needs an answer display, or pads, it lacks):
it is not played; `abandon` sets it aside like a game in play, or a restart with the
missing device resumes it. The service's loop plays the games: it waits in `wanted()` for the set-up to
play next and in `until_end(box)` for the game to be over or abandoned. Everything here
runs on the daemon's asyncio loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from narrator.daemon import Box
from narrator.engine.effects import Outcome
from narrator.errors import InputFileError, NarratorError
from narrator.evening.memory import forget_end, last_end, last_setup, remember, remember_end
from narrator.evening.setup import GameSetup, Problem, SetupError
from narrator.records.session import GameSession, ProtocolFiles

log = logging.getLogger(__name__)


class EveningError(NarratorError, RuntimeError):
    """An evening operation that can't be done now (a game in play, no game to abandon);
    `code` names it for the page's words (narrator/web/words: `refusals.<code>`)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Held:
    """An unfinished game found on start that this box can't play now: why (the same
    Problem a new set-up would get), and its session, kept to set it aside."""

    session: GameSession
    setup: GameSetup
    problem: Problem

    @property
    def game_id(self) -> str:
        return self.session.header.game_id


class Evening:
    def __init__(self, state_dir: str | Path, setup: GameSetup) -> None:
        self.state_dir = Path(state_dir)
        self.setup = setup  # the set-up of the game in play, else of the next game
        self.box: Box | None = None  # the game in play or just ended
        self.finished = False  # the last game ended with a result (not abandoned)
        # A game ended here before this start (the page offers "next game, same names"
        # then, and the first game's set-up on a box that has not played yet).
        self.ended_before = False
        self.abandoned: ProtocolFiles | None = None  # the abandoned game's protocol
        self.held: Held | None = None  # an unfinished game this box can't play now
        # Hear of each operation: "start", "abandon" (the page refreshes, the log tells).
        self.listeners: list[Callable[[str], None]] = []
        # The box's own check that its table has the seats (the pin map's check_seats):
        # raises InputFileError naming the map and both seat counts.
        self.seat_check: Callable[[int], None] | None = None
        # The box's own check that it can play this set-up (the service's: the players
        # can give their inputs the way it says, the answers have somewhere to show:
        # narrator.evening.answers); a Problem refuses the set-up.
        self.box_check: Callable[[GameSetup], Problem | None] | None = None
        self._wanted = asyncio.Event()
        self._ended = asyncio.Event()

    # the state the callers see
    @property
    def in_play(self) -> bool:
        box = self.box
        return box is not None and not box.game.over and not self._ended.is_set()

    @property
    def starting(self) -> bool:
        """A start or next was asked and the game has not begun yet."""
        return self._wanted.is_set()

    def wires(self, seats: int) -> bool:
        """Whether this box's pin map has a pad and an LED for each of `seats` (the set-up
        page offers only those tables)."""
        if self.seat_check is None:
            return True
        try:
            self.seat_check(seats)
        except InputFileError:
            return False
        return True

    # the three operations
    def check(self, setup: GameSetup) -> GameSetup:
        """`setup` as checked (names trimmed) by its own rules and this box's (the seats
        wired, somewhere to show the answers), or SetupError; nothing changes."""
        checked = setup.check()
        if self.seat_check is not None:
            try:
                self.seat_check(checked.seats)
            except InputFileError as exc:
                raise SetupError("set-up", [Problem("seats", "pin_map", str(exc),
                                                    getattr(exc, "wired", 0))]) from None
        if self.box_check is not None and (problem := self.box_check(checked)):
            raise SetupError("set-up", [problem])
        return checked

    def start(self, setup: GameSetup) -> GameSetup:
        """Play the next game with `setup`; returns it as checked (names trimmed)."""
        checked = self.check(setup)
        if self.in_play:
            raise EveningError("a game is in play: abandon it first", "game_in_play")
        if self.held is not None:
            raise EveningError(f"the unfinished game {self.held.game_id} can't go on on this "
                               f"box ({self.held.problem.reason}): abandon it first", "game_held")
        self.setup = checked
        self._wanted.set()
        self._tell("start")
        return checked

    def next(self) -> GameSetup:
        """The next game with the same names and seats."""
        return self.start(self.setup.following() if self.finished else self.setup)

    def abandon(self) -> ProtocolFiles | None:
        """End the game in play without a result; returns its protocol files (None for a
        game kept nowhere)."""
        held = self.held
        if held is not None:
            self.held = None
            self.abandoned = held.session.abandon()
            remember_end(self.state_dir, "abandoned")
            self.ended_before = True
            log.info("the unfinished game %s was set aside, abandoned", held.game_id)
            self._tell("abandon")
            return self.abandoned
        box = self.box
        if box is None or not self.in_play:
            raise EveningError("no game is in play", "no_game_in_play")
        session = box.session
        files = session.abandon() if isinstance(session, GameSession) else None
        self.abandoned = files
        self._ended.set()
        log.info("the game was abandoned")
        self._tell("abandon")
        return files

    def between_games(self) -> bool:
        """At start-up with no game in progress: did the last game here end (finished or
        abandoned) with none begun since? Then the box waits for the next game to be asked
        for, offering the set-up that game was played with ("Next game": the same names,
        the number up by one after a finished game), as it does after a game's end."""
        how = last_end(self.state_dir)
        if how is None:
            return False
        self.ended_before = True
        last = last_setup(self.state_dir)
        if last is not None:
            self.setup = last
        self.finished = how == "finished"
        return True

    def hold(self, session: GameSession, setup: GameSetup, problem: Problem) -> None:
        """The unfinished game found on start can't be played on this box now: keep it
        (its journal stays where it is) until it is abandoned or the box restarts."""
        self.held = Held(session, setup, problem)
        self.box = None
        self._tell("held")

    # what the service's loop waits for
    def began(self, box: Box, setup: GameSetup) -> None:
        """A game has begun with this box and set-up (a new one, or one resumed)."""
        self.box = box
        self.setup = setup
        self.abandoned = None
        self._ended.clear()
        self._wanted.clear()
        remember(self.state_dir, setup)
        forget_end(self.state_dir)

    async def until_end(self, box: Box) -> Outcome | None:
        """Wait for the game to be over (its outcome) or abandoned (None)."""
        over = asyncio.ensure_future(box.wait_over())
        ended = asyncio.ensure_future(self._ended.wait())
        try:
            await asyncio.wait({over, ended}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (over, ended):
                task.cancel()
        self.finished = not self._ended.is_set() and box.game.over
        remember_end(self.state_dir, "finished" if self.finished else "abandoned")
        self.ended_before = True
        return box.outcome if self.finished else None

    async def wanted(self) -> GameSetup:
        """Wait until a start or next is asked; the set-up to play."""
        await self._wanted.wait()
        return self.setup

    def _tell(self, what: str) -> None:
        for hear in self.listeners:
            try:
                hear(what)
            except Exception:  # a watcher's fault must not stop the evening
                log.exception("a watcher of the evening failed")
