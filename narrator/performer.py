"""The performer: carries out the engine's effects through the ports, in order.

It follows the executor contract of narrator/engine/effects.py. Speech and sounds are
played one after another; a window's timer starts only when everything said before it
has been played; lights, answers and timer changes happen when their turn comes. While
the box speaks, the microphone gate is closed so the box never hears itself.

Secrets stay out of the logs: answers and secret records are never logged at INFO.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable, Sequence

from narrator.devices.display import AnswerDisplay, AnswerTimer, answer_text
from narrator.devices.panel import SeatPanel
from narrator.engine.effects import (
    CloseWindow,
    Effect,
    Eliminated,
    ExtendWindow,
    GameOver,
    OpenWindow,
    PauseTimers,
    Phase,
    ResumeTimers,
    Say,
    SeatLights,
    ShowAnswer,
    Sound,
)
from narrator.engine.timeline import Spoken
from narrator.phrases.book import PhraseBook, PhraseError
from narrator.voice.speaker import Speaker
from narrator.windows import WindowTimers

log = logging.getLogger("narrator.performer")


class Performer:
    def __init__(self, speaker: Speaker, book: PhraseBook, timers: WindowTimers,
                 panel: SeatPanel | None = None,
                 mute: Callable[[bool], None] | None = None,
                 on_pause: Sequence[Callable[[bool], None]] = (),
                 displays: Sequence[AnswerDisplay] = ()) -> None:
        """`on_pause`: who must know the game is paused (the keypads, whose one key
        pauses and resumes). `displays`: the keypads' screens, where answers show (the
        service gives them only where no answer LEDs can be seen)."""
        self.clock = timers.clock
        self.speaker = speaker
        self.book = book
        self.timers = timers
        self.panel = panel
        self.mute = mute or (lambda _on: None)
        self.on_pause = list(on_pause)
        self.answers = AnswerTimer(self.clock, displays)
        # False at a judge's table (narrator.web.judge): the judge's page shows the answers
        # and the judge shows them to the checker; no light or screen shows any, decoys too.
        self.show_answers = True
        self._queue: asyncio.Queue[Effect] = asyncio.Queue()
        self._busy = False
        self._task: asyncio.Task[None] | None = None
        self.spoken: list[Spoken] = []  # what was said and when (public by construction)
        self.phase = "night-0"
        self.last_said = ""  # the cue being said now, or the last one (public)
        # Called after every change a watcher can see (a cue begins, a timer starts...):
        # the organiser's page pushes its update from here.
        self.on_change: list[Callable[[], None]] = []
        self._go = asyncio.Event()  # cleared: the box holds its first word (a card-less deal)
        self._go.set()
        # The effect in hand and since when (the watchdog's health check: a port that
        # never returns shows up here).
        self.busy_since: float | None = None
        self.busy_with = ""

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="performer")

    def submit(self, effects: Iterable[Effect]) -> None:
        for effect in effects:
            self._queue.put_nowait(effect)

    def reset(self, timers: bool = True) -> None:
        """Drop what is still to be said and (unless `timers` is off: an undo within the
        moment, whose timer goes on) every running timer (an undo or a restart)."""
        while not self._queue.empty():
            self._queue.get_nowait()
        if timers:
            self.timers.close_all()

    @property
    def alive(self) -> bool:
        return self._task is not None and not self._task.done()

    @property
    def idle(self) -> bool:
        return self._queue.empty() and not self._busy

    async def stop(self) -> None:
        self.answers.close()  # nothing of this game stays on a screen
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def hold(self) -> None:
        """Say and do nothing until `release`: the effects wait in order (the table is
        still passing the phone round to see the roles)."""
        self._go.clear()

    def release(self) -> None:
        self._go.set()

    @property
    def held(self) -> bool:
        return not self._go.is_set()

    async def _run(self) -> None:
        while True:
            await self._go.wait()
            effect = await self._queue.get()
            self._busy = True
            self.busy_since = self.clock.now()
            self.busy_with = effect.kind
            try:
                await self._perform(effect)
            except Exception:  # a broken port must not stop the game
                log.exception("could not carry out %s", effect.kind)
            finally:
                self._busy = False
                self.busy_since = None
                self._changed()

    def _changed(self) -> None:
        for hear in self.on_change:
            try:
                hear()
            except Exception:  # a watcher's fault must not stop the game
                log.exception("a watcher of the performer failed")

    def _answer_text(self, effect: ShowAnswer) -> str:
        card = ""
        if effect.answer not in ("yes", "no", "count"):
            with contextlib.suppress(PhraseError):  # an unnamed card shows as it is
                card = self.book.role_name(effect.answer)
        return answer_text(self.book.lang, effect.answer, effect.code, card)

    async def _perform(self, effect: Effect) -> None:
        if isinstance(effect, Say):
            text = self.book.render(effect.cue, effect.params)
            log.info("say: %s", text)
            start = self.clock.now()
            self.last_said = text
            self._changed()
            self.mute(True)
            try:
                await self.speaker.say(text)
            finally:
                self.mute(False)
            seconds = round(self.clock.now() - start, 3)
            self.spoken.append(Spoken(round(start, 3), seconds, self.phase, effect.cue, text))
        elif isinstance(effect, Sound):
            self.mute(True)
            try:
                await self.speaker.sound(effect.name)
            finally:
                self.mute(False)
        elif isinstance(effect, OpenWindow):
            self.timers.open(effect.window, effect.seconds)
        elif isinstance(effect, CloseWindow):
            self.timers.close(effect.window)
        elif isinstance(effect, ExtendWindow):
            self.timers.extend(effect.window, effect.seconds)
        elif isinstance(effect, PauseTimers | ResumeTimers):
            paused = isinstance(effect, PauseTimers)
            if paused:
                self.timers.pause()
            else:
                self.timers.resume()
            for hear in [*([self.panel.set_paused] if self.panel else []), *self.on_pause]:
                hear(paused)
        elif isinstance(effect, SeatLights):
            if self.panel:
                self.panel.apply(effect)
        elif isinstance(effect, ShowAnswer) and self.show_answers:
            log.debug("answer shown privately")
            if self.panel:
                self.panel.show_answer(effect.answer, effect.seconds, effect.code)
            if self.answers.displays:
                self.answers.show(self._answer_text(effect), effect.seconds)
        elif isinstance(effect, Phase):
            self.phase = effect.label
            log.info("%s %d", effect.phase, effect.number)
            self.speaker.ambience(effect.phase == "night")
        elif isinstance(effect, Eliminated):
            log.info("seat %d leaves (%s, %s %d)", effect.seat, effect.how, effect.phase,
                     effect.number)
        elif isinstance(effect, GameOver):
            log.info("game over: %s (%s)", effect.outcome.winner, effect.outcome.reason)
            self.speaker.ambience(False)
