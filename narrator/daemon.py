"""The box at work: one asyncio loop from inputs to the engine to the ports.

Devices, the keypad and the recognizer hand actions to `Box.submit`. The referee takes
them one at a time: the engine checks the action and computes its effects (pure), the
journal appends and flushes the action, and only then does the performer carry the
effects out. Every device runs in its own supervised task that logs a failure and starts
the device again instead of stopping the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from narrator.clock import Clock
from narrator.engine.actions import Action, Undo, WindowClosed
from narrator.engine.effects import Effect, Outcome, Say
from narrator.engine.game import Game
from narrator.errors import DeviceError, RuleError
from narrator.performer import Performer

log = logging.getLogger("narrator.daemon")

# Hears every accepted action and its effects (None and the opening effects at start).
Listener = Callable[[Action | None, list[Effect]], None]

# Where a player's or host's input came from; counted per game (`Box.inputs`).
SOURCES = ("pads", "keypad", "voice", "page")


def supervise(name: str, run: Callable[[], Awaitable[None]], clock: Clock,
              backoff: float = 2.0) -> asyncio.Task[None]:
    """Run a device in its own task that logs a failure (or an end) and starts the device
    again after `backoff` seconds on the clock, instead of dying."""

    async def supervised() -> None:
        while True:
            try:
                await run()
                log.warning("%s stopped; starting it again in %.0f s", name, backoff)
            except asyncio.CancelledError:
                raise
            except DeviceError as exc:
                log.error("%s: %s; trying again in %.0f s", name, exc, backoff)
            except Exception:
                log.exception("%s failed; starting it again in %.0f s", name, backoff)
            await clock.sleep(backoff)

    return asyncio.get_running_loop().create_task(supervised(), name=name)


async def _awaited(run: Callable[[], Awaitable[None]]) -> None:
    await run()


class Session(Protocol):
    """A game and where its actions are kept: `apply` checks an action, writes it down
    (narrator.records.session.GameSession: the journal, on disk before it returns) and
    returns its effects; a refused action raises RuleError and changes nothing."""

    @property
    def game(self) -> Game: ...

    def apply(self, action: Action, at: float) -> list[Effect]: ...


class Unrecorded:
    """A game kept nowhere (tests, a demo without a state folder)."""

    def __init__(self, game: Game) -> None:
        self._game = game

    @property
    def game(self) -> Game:
        return self._game

    def apply(self, action: Action, at: float) -> list[Effect]:
        return self._game.apply(action)


class Box:
    def __init__(self, session: Session, performer: Performer, clock: Clock) -> None:
        self.session = session
        self.performer = performer
        self.clock = clock
        self.listeners: list[Listener] = []
        self._actions: asyncio.Queue[tuple[Action, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self.refused = 0
        # Accepted inputs by device (SOURCES), and those of them given at night.
        self.inputs: dict[str, int] = dict.fromkeys(SOURCES, 0)
        self.night_inputs: dict[str, int] = dict.fromkeys(SOURCES, 0)
        # Hears an input a device gave that the engine refused, with its source.
        self.on_refused: Callable[[Action, str], None] | None = None

    def submit(self, action: Action, source: str = "") -> None:
        """Hand an action to the referee (call on the loop's thread); `source` names the
        device it came from (one of SOURCES; "" for the box's own, a window closing)."""
        self._actions.put_nowait((action, source))

    def window_expired(self, window: int) -> None:
        self.submit(WindowClosed(window))

    def handle(self, action: Action, source: str = "") -> list[Effect] | None:
        """Apply one action; refused ones are dropped quietly (logged at DEBUG only, since
        even the fact that a tap was refused at night could tell who acts)."""
        try:
            return self.apply_now(action, source)
        except RuleError as exc:
            log.debug("refused %s: %s", action.kind, exc)
            if source and self.on_refused is not None:
                self.on_refused(action, source)
        except OSError as exc:
            # The journal could not be written: the action is refused rather than lost
            # on a restart. The table sees nothing happen and can act again.
            log.error("cannot write the journal (%s): %s refused", exc, action.kind)
        except Exception:
            # A fault in a rule hook: the game applies actions to a copy of its state, so
            # it is as it was; the action is dropped and the game goes on.
            log.exception("the engine failed on %s; the action is dropped", action.kind)
        return None

    def apply_now(self, action: Action, source: str = "") -> list[Effect]:
        """Apply one action at once and carry its effects out; a refused action raises
        (RuleError with the reason, OSError, or the rule hook's fault) and changes nothing.
        The organiser's page uses this directly: it must answer with the result."""
        night = self.game.state.phase == "night"
        try:
            effects = self.session.apply(action, self.clock.now())
        except Exception:
            self.refused += 1
            raise
        if source in self.inputs:
            self.inputs[source] += 1
            if night:
                self.night_inputs[source] += 1
        if self.game.over and getattr(self.session, "files", None) is not None:
            effects = [*effects, Say("protocol_saved", {})]  # written before it is said
        if isinstance(action, Undo):
            self.performer.reset()
        self.performer.submit(effects)
        for listener in self.listeners:
            listener(action, effects)
        return effects

    def start(self, opening: list[Effect]) -> None:
        """Start the performer with the opening (or resuming) effects, and the referee."""
        self.performer.start()
        self.performer.submit(opening)
        for listener in self.listeners:
            listener(None, opening)
        self.spawn("referee", self._referee)

    def spawn(self, name: str, run: Callable[[], Awaitable[None]], restart: bool = False,
              backoff: float = 2.0) -> None:
        """Run a device or service in its own task; with `restart`, under `supervise`."""
        if restart:
            self._tasks.append(supervise(name, run, self.clock, backoff))
        else:
            self._tasks.append(asyncio.get_running_loop().create_task(_awaited(run), name=name))

    @property
    def game(self) -> Game:
        return self.session.game

    async def _referee(self) -> None:
        while not self.game.over:
            action, source = await self._actions.get()
            self.handle(action, source)

    async def wait_over(self) -> Outcome | None:
        """Wait for the end of the game and for the last words about it to be said."""
        referee = next(t for t in self._tasks if t.get_name() == "referee")
        await referee
        while not self.performer.idle:
            await self.clock.sleep(0.1)
        return self.outcome

    @property
    def outcome(self) -> Outcome | None:
        return self.game.state.outcome

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.performer.stop()
