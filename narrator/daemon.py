"""The box at work: one asyncio loop from inputs to the engine to the ports.

Devices, the keypad and the recognizer hand actions to `Box.submit`. The referee takes
them one at a time: the engine checks the action and computes its effects (pure), the
journal takes the action's line, and only once the line is on disk does the performer
carry the effects out, in the actions' order. The fsync runs off the loop (the journal's
Disk), so the loop never waits for the disk: at night the call-out beat is the same with
no taps or many, and an action with nothing to act on asks for no fsync of its own (the
next one's covers it). When the disk fails, the box says a technical pause, stops the
timers and shows the error until the writes go through again. Every device runs in its
own supervised task that logs a failure and starts the device again instead of stopping
the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from typing import Any, Literal, Protocol, TypeAlias, get_args

from narrator.clock import Clock
from narrator.engine.actions import (
    Action,
    AddTime,
    EndSpeech,
    Hold,
    Undo,
    Unfoul,
    WindowClosed,
)
from narrator.engine.effects import (
    CloseWindow,
    Effect,
    ExtendWindow,
    OpenWindow,
    Outcome,
    PauseTimers,
    Phase,
    ResumeTimers,
    Say,
)
from narrator.engine.game import Game, Taken
from narrator.engine.recall import before_window, recall
from narrator.engine.voting import counted_by_hand
from narrator.errors import DeviceError, RuleError
from narrator.performer import Performer
from narrator.records.disk import done_future
from narrator.windows import WindowTimers

log = logging.getLogger("narrator.daemon")

# No single effect takes this long: the longest cue is a few seconds, and a speaker that
# loses its device waits out the clip's length, then goes on.
STALL_SECONDS = 90.0

# A technical pause for a journal the card refuses lasts this long at most: a card gone
# read-only never comes back during the game, and a table frozen for good has lost its
# game anyway. Then the game goes on with its lines held in memory (the writer keeps
# trying and writes them all, in order, if the card comes back); the page and the status
# LED keep saying that the game is not being saved.
GO_ON_SECONDS = 30.0

# Hears every accepted action and its effects (None and the opening effects at start).
Listener = Callable[[Action | None, list[Effect]], None]

# Where a player's or host's input came from; counted per game (`Box.inputs`). "" is the
# box's own (a window closing). "judge": the judge's page (narrator.web.judge), a
# tournament judge entering the night.
InputSource: TypeAlias = Literal["pads", "keypad", "voice", "page", "judge"]
SOURCES: tuple[InputSource, ...] = get_args(InputSource)


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


def refuse_correction_at_night(game: Game, action: Action) -> None:
    """An undo or an unfoul at night, or one that would take the game back into the night,
    is refused whatever device asks: what it takes back (a tap or nothing) would be heard.
    The refusal is the same whether anyone acted."""
    if not isinstance(action, Undo | Unfoul):
        return
    before = game.history[-1] if game.history else None
    if game.state.phase == "night" or (before is not None and before.phase == "night"):
        raise RuleError("no corrections at night", "into_night")


def refuse_unbegun_speech_end(game: Game, action: Action, timers: WindowTimers) -> None:
    """"Next speaker" (the page, the keypad's key, the voice, the speaker's long press)
    before the speech it would end has begun is refused: the box is still announcing it
    ("Player number six, your last word."), so the press was meant for the speech before
    (a double press, a late one) and would skip a speech nobody has given. A speech begins
    when its timer starts; a paused one has begun."""
    if not isinstance(action, EndSpeech | Hold):
        return
    st = game.state
    if st.phase != "day" or not st.window or st.current is None or counted_by_hand(st):
        return
    if isinstance(action, Hold) and action.seat != st.speaker:
        return  # not the speaker's: the engine says why
    if not timers.is_open(st.window):
        raise RuleError("the speech has not begun yet", "speech_not_begun")


def undone(game: Game, taken: Taken | None, window_before: int, reopening: list[Effect],
           timers: WindowTimers) -> tuple[list[Effect], bool]:
    """An undo (in the day only: refused at night) as the table hears and sees it, and
    whether the open timer goes on (False: every timer is closed first). The game goes
    back to what it was, its time too, and the box says only that it took something back:
    - the moment goes on (a foul, a nomination, a hand, a pause taken back): its timer
      keeps the time it has, less what the undone action added (+30 s), and nothing of
      the moment is said again (the speaker was not starting over);
    - the moment changed (the next speaker, the vote): the one it went back to opens again
      with the time it had left when the undone action came, and its words name it with
      that time ("Player number 1, you have 31 seconds"). A window that ran out, or whose
      time is not known, opens in full.
    The timers are paused or running as the game is."""
    st, rules = game.state, game.engine.rules
    window = st.window
    out: list[Effect] = []
    if st.paused != timers.paused and st.phase != "over":
        out.append(PauseTimers() if st.paused else ResumeTimers())
    said: list[Effect] = [Say("undone", {})]
    if window and window == window_before:
        by_hand = counted_by_hand(st)
        running = by_hand or timers.is_open(window)
        if running:
            # Its OpenWindow (and a counted ballot's CloseWindow) are the timer it has.
            reopening = [e for e in reopening
                         if not (isinstance(e, OpenWindow | CloseWindow) and e.window == window)]
            if taken is not None and isinstance(taken.action, AddTime) and not by_hand:
                reopening.append(ExtendWindow(window, -float(taken.action.seconds)))
            return [*out, *reopening, *said], True
        # The box was still announcing the moment (its timer not begun): it begins now.
        return [*out, *before_window(reopening, [*said, *recall(rules, st)])], True
    left = taken.left if taken is not None and not isinstance(taken.action, WindowClosed) else None
    if left is not None and left >= 1:
        reopening = [OpenWindow(e.window, e.purpose, left, e.seat)
                     if isinstance(e, OpenWindow) and e.window == window else e
                     for e in reopening]
    else:
        left = None
    return [*out, *before_window(reopening, [*said, *recall(rules, st, left)])], False


class Session(Protocol):
    """A game and where its actions are kept: `apply` checks an action, writes it down
    (narrator.records.session.GameSession: the journal, on disk before it returns) and
    returns its effects; a refused action raises RuleError and changes nothing."""

    @property
    def game(self) -> Game: ...

    def apply(self, action: Action, at: float, left: float | None = None) -> list[Effect]: ...

    def durable(self) -> Future[None]:
        """Done once every action applied so far is on disk."""
        ...

    @property
    def files(self) -> object | None:
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

    def __init__(self, game: Game) -> None:
        self._game = game

    @property
    def game(self) -> Game:
        return self._game

    def apply(self, action: Action, at: float, left: float | None = None) -> list[Effect]:
        return self._game.apply(action, left)

    def durable(self) -> Future[None]:
        return done_future()


class Box:
    def __init__(self, session: Session, performer: Performer, clock: Clock) -> None:
        self.session = session
        self.performer = performer
        self.clock = clock
        self.listeners: list[Listener] = []
        # None only wakes the referee: the page ended the game (apply_now), and the
        # referee, waiting for the next input, must see the end without one.
        self._actions: asyncio.Queue[tuple[Action, InputSource | Literal[""]] | None] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self.refused = 0
        # Applied actions waiting for the disk before their effects are carried out.
        self._durable: asyncio.Queue[tuple[Future[None], Action, list[Effect], bool]] = \
            asyncio.Queue()
        self._in_flight = 0
        self.disk_fault: str | None = None  # the journal cannot be written (said and shown)
        # The game went on after GO_ON_SECONDS of that: effects no longer wait for the disk.
        self.unsaved = False
        self._go_on = asyncio.Event()
        self._going_on: asyncio.Task[None] | None = None
        self._stopped_timers = False
        self.on_fault: list[Callable[[str | None], None]] = []  # the page, the status LED
        # Accepted inputs by device (SOURCES), and those of them given at night.
        self.inputs: dict[str, int] = dict.fromkeys(SOURCES, 0)
        self.night_inputs: dict[str, int] = dict.fromkeys(SOURCES, 0)
        # Hears an input a device gave that the engine refused, with its source.
        self.on_refused: Callable[[Action, str], None] | None = None
        # Words held for the day (the page's address after a resume at night): said once,
        # after the next day's first cue, when the table has its eyes open.
        self.for_the_day: list[Effect] = []

    def submit(self, action: Action, source: InputSource | Literal[""] = "") -> None:
        """Hand an action to the referee (call on the loop's thread); `source` names the
        device it came from (one of SOURCES; "" for the box's own, a window closing)."""
        self._actions.put_nowait((action, source))

    def window_expired(self, window: int) -> None:
        self.submit(WindowClosed(window))

    def handle(self, action: Action, source: InputSource | Literal[""] = "") -> list[Effect] | None:
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

    def apply_now(self, action: Action, source: InputSource | Literal[""] = "") -> list[Effect]:
        """Apply one action at once and carry its effects out; a refused action raises
        (RuleError with the reason, OSError, or the rule hook's fault) and changes nothing.
        The organiser's page uses this directly: it must answer with the result."""
        game, timers = self.game, self.performer.timers
        night = game.state.phase == "night"
        window = game.state.window
        taken = game.taken[-1] if game.taken else None
        try:
            refuse_correction_at_night(game, action)
            refuse_unbegun_speech_end(game, action, timers)
            effects = self.session.apply(action, self.clock.now(), timers.remaining(window))
        except Exception:
            self.refused += 1
            raise
        if source in self.inputs:
            self.inputs[source] += 1
            if night:
                self.night_inputs[source] += 1
        if self.game.over:
            self._actions.put_nowait(None)
        if self.game.over and self.session.files is not None:
            effects = [*effects, Say("protocol_saved", {})]  # written before it is said
        elif self.game.over and self.session.unsaved is not None:
            effects = [*effects, Say("protocol_unsaved", {})]  # the card refused it
        keep_timer = False
        if isinstance(action, Undo):
            effects, keep_timer = undone(game, taken, window, effects, timers)
        if not effects and not isinstance(action, Undo):
            return effects  # nothing to act on: its line rides on the next fsync
        synced = self.session.durable()
        if (synced.done() or self.unsaved) and not self._in_flight:
            self._act(action, effects, keep_timer)
        else:
            self._in_flight += 1
            self._durable.put_nowait((synced, action, effects, keep_timer))
        return effects

    def _act(self, action: Action, effects: list[Effect], keep_timer: bool = False) -> None:
        if isinstance(action, Undo):
            self.performer.reset(timers=not keep_timer)
        if self.for_the_day:
            effects = self._with_day_words(effects)
        self.performer.submit(effects)
        for listener in self.listeners:
            listener(action, effects)

    def _with_day_words(self, effects: list[Effect]) -> list[Effect]:
        """`effects` with the words held for the day after the day's first cue (its
        morning), when they begin a day; else unchanged."""
        begins = next((i for i, e in enumerate(effects)
                       if isinstance(e, Phase) and e.phase == "day"), None)
        if begins is None:
            return effects
        at = next((i + 1 for i, e in enumerate(effects) if i > begins and isinstance(e, Say)),
                  begins + 1)
        words, self.for_the_day = self.for_the_day, []
        return [*effects[:at], *words, *effects[at:]]

    async def _release(self) -> None:
        """Carry out effects once their actions are on disk, in the actions' order."""
        while True:
            synced, action, effects, keep_timer = await self._durable.get()
            try:
                on_disk = asyncio.wrap_future(synced)
                if not self.unsaved:
                    go_on = asyncio.ensure_future(self._go_on.wait())
                    either: set[asyncio.Future[Any]] = {on_disk, go_on}
                    await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
                    go_on.cancel()
                self._act(action, effects, keep_timer)
            except Exception:
                log.exception("could not carry out the effects of %s", action.kind)
            finally:
                self._in_flight -= 1

    # the journal's disk, from its writer thread (see narrator.records.disk)
    def disk_failed(self, exc: OSError) -> None:
        self._loop.call_soon_threadsafe(self._disk_fault, f"{type(exc).__name__}: {exc}")

    def disk_recovered(self) -> None:
        self._loop.call_soon_threadsafe(self._disk_fault, None)

    def _disk_fault(self, fault: str | None) -> None:
        if fault is not None and self.disk_fault is None:
            # The table must know why nothing happens: a fixed cue, the same whoever acted.
            timers = self.performer.timers
            self._stopped_timers = not timers.paused
            if self._stopped_timers:
                timers.pause()
            self.performer.submit([Say("technical_pause", {})])
            self._going_on = asyncio.get_running_loop().create_task(self._go_on_later())
        elif fault is None and self.disk_fault is not None:
            if self._going_on is not None:
                self._going_on.cancel()
            if not self.unsaved:  # else the pause is long over
                self._end_pause()
            self.unsaved = False
            self._go_on.clear()
        self.disk_fault = fault
        self._tell_fault()

    def _end_pause(self) -> None:
        if self._stopped_timers:
            self.performer.timers.resume()
        self._stopped_timers = False
        self.performer.submit([Say("technical_resume", {})])

    async def _go_on_later(self) -> None:
        await self.clock.sleep(GO_ON_SECONDS)
        if self.disk_fault is None or self.game.over:
            return
        log.error("the journal still cannot be written after %.0f s: the game goes on "
                  "unsaved (a power cut now loses what happens from here)", GO_ON_SECONDS)
        self.unsaved = True
        self._go_on.set()
        self._end_pause()
        self._tell_fault()

    def _tell_fault(self) -> None:
        fault = self.disk_fault
        for hear in self.on_fault:
            try:
                hear(fault)
            except Exception:
                log.exception("a watcher of faults failed")

    def start(self, opening: list[Effect]) -> None:
        """Start the performer with the opening (or resuming) effects, and the referee."""
        self._loop = asyncio.get_running_loop()
        self.performer.start()
        self.performer.submit(opening)
        for listener in self.listeners:
            listener(None, opening)
        self.spawn("release", self._release)
        self.spawn("referee", self._referee)

    def spawn(self, name: str, run: Callable[[], Awaitable[None]], restart: bool = False,
              backoff: float = 2.0) -> None:
        """Run a device or service in its own task; with `restart`, under `supervise`."""
        if restart:
            self._tasks.append(supervise(name, run, self.clock, backoff))
        else:
            self._tasks.append(asyncio.get_running_loop().create_task(_awaited(run), name=name))

    def health(self, stall: float = STALL_SECONDS) -> str | None:
        """Why the game is not progressing, or None: the systemd watchdog is fed only
        while this is None (a restart resumes the game from its journal). Waiting for the
        table, a pause or a technical pause are progress; a task that died or a port call
        that never returns are not."""
        for task in self._tasks:
            if task.get_name() in ("referee", "release") and task.done() and not self.game.over:
                return f"the {task.get_name()} task ended"
        performer = self.performer
        if self._tasks and not performer.alive:
            return "the performer task ended"
        since = performer.busy_since
        if since is not None and self.clock.now() - since > stall:
            return f"stuck for {self.clock.now() - since:.0f} s on {performer.busy_with}"
        return None

    @property
    def game(self) -> Game:
        return self.session.game

    async def _referee(self) -> None:
        while not self.game.over:
            item = await self._actions.get()
            if item is not None:
                self.handle(*item)

    async def wait_over(self) -> Outcome | None:
        """Wait for the end of the game and for the last words about it to be said."""
        referee = next(t for t in self._tasks if t.get_name() == "referee")
        await referee
        while self._in_flight or not self.performer.idle:
            await self.clock.sleep(0.1)
        return self.outcome

    @property
    def outcome(self) -> Outcome | None:
        return self.game.state.outcome

    async def stop(self) -> None:
        if self._going_on is not None:
            self._going_on.cancel()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.performer.stop()
