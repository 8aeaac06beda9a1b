"""The Service: `narrator run`, the box as systemd starts it; the parts of narrator.box
put together, the inputs' entry point and the evening's loop (start up, play games
until stopped, the watchdog).

Start-up renders the speech cache for the rule set (a no-op once rendered), loads the
recognizer, makes the pads live, then says "ready", lights the status LED and tells
systemd READY=1. An unfinished game in the state folder is resumed and the table is told
where it stands; otherwise nothing starts unasked: after a game's end (a restart between
games) the box waits to be asked for the next, as after any game's end, and a box that
has not played yet waits for a set-up (the page's, or the keypad's bare Enter and "next
game" for the set-up given: narrator.evening, the config's rule set and table, names from
`--names` or remembered on this box). After a game ends, the host's Enter (or "next")
starts the next one with the same names; the page, keypad and voice start, continue or
abandon games through `Service.evening` (narrator.box.evening).

Faults never lose the game: a device that throws is logged and started again, a missing
microphone turns voice commands off, a lost sound device only silences the box until it
is back (the speaker handles that), and every action is in the journal before it acts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from functools import partial
from typing import Literal

from narrator.box.announcer import Announcer
from narrator.box.desk import Desk
from narrator.box.evening import Evening, EveningError
from narrator.box.faults import Faults
from narrator.box.fit import Fit
from narrator.box.judging import judge_takes_it
from narrator.box.notices import Notices
from narrator.box.playing import Playing
from narrator.box.ports import Ports
from narrator.box.referee import Box, InputSource, supervise
from narrator.box.setups import initial_setup, unfinished_game
from narrator.box.starter import Starter
from narrator.box.status import StatusLight
from narrator.box.warmup import Progress
from narrator.boxconfig import Settings
from narrator.clock import Clock, MonotonicClock
from narrator.devices.display import AnswerDisplay, reveal_text
from narrator.engine.actions import Action, Forfeit
from narrator.engine.effects import Effect
from narrator.engine.requests import AbandonGame, NextGame
from narrator.evening import GameSetup, SetupError
from narrator.phrases.book import PhraseBook, PhraseError
from narrator.records.disk import DiskMaker, direct_disk
from narrator.sdnotify import Notifier, watchdog_interval
from narrator.voice.voice_status import VoiceStatus
from narrator.wallclock import WallClock

log = logging.getLogger("narrator.service")


class Service:
    def __init__(self, settings: Settings, ports: Ports, clock: Clock | None = None,
                 notifier: Notifier | None = None, setup: GameSetup | None = None,
                 journal_disk: DiskMaker = direct_disk) -> None:
        self.settings = settings
        self.ports = ports
        self.clock = clock or MonotonicClock()
        # The wall clock only stamps journal lines and protocols; every timer runs on
        # `clock` (monotonic), so an NTP or RTC jump never moves the game's time.
        # The date comes from the organiser's phone once it tells it (the Pi has no
        # real-time clock): narrator.wallclock.
        self.wallclock = WallClock(self.clock.now)
        self.notifier = notifier or Notifier()
        self.games = 0
        # The evening: what game is played next; start / next / abandon for every caller.
        self.evening = Evening(settings.state_dir, (setup or initial_setup(settings)).check())
        self.fit = Fit(ports, settings.input)
        self.evening.seat_check = ports.seat_check
        self.evening.box_check = self.fit.check
        self.evening.listeners.append(self._evening_changed)
        # What the box plays now, shared by the parts (narrator.box.playing): the evening's
        # box, its phrase book, and what its cues tell the players to use: the game's
        # set-up, else the setting, or the pads when the box has them and the keypad when
        # it has none.
        self.playing = Playing(self.evening, PhraseBook.load(settings.game.lang),
                               self.fit.method(self.evening.setup))
        self.announcer = Announcer(ports, settings.game.lang, self.playing,
                                   lambda: self.evening.setup.lang)
        self.warmup = Progress()  # the speech rendered ahead (the page shows it)
        self.faults = Faults(ports, self.clock, self.playing, self.announcer)
        self.desk = Desk(ports, self.clock, self.evening, self.playing, self.announcer)
        self._warming: asyncio.Task[None] | None = None
        voice = ports.voice
        if voice is not None:
            voice.on_decision = self._voice_decision
        self.voice_status = ports.voice_status or (voice.status if voice is not None else None) \
            or VoiceStatus(None if voice is not None else "voice_off", settings.game.lang)
        if voice is not None:
            voice.status = self.voice_status
        self.voice_status.watchers.append(self.faults.voice_changed)
        self.starter = Starter(settings, ports, self.clock, self.wallclock, journal_disk,
                               self.evening, self.notifier, self.playing, self.fit,
                               self.announcer, self.faults, self.desk, self.voice_status)
        # A set-up this box can't play is refused here (exit 2): players told to use pads
        # or a keypad it lacks, private checks with no answer LEDs and no keypad screen.
        # An unfinished game is played first: it is checked when found (Starter._hold),
        # and the box stays up so that the page and the voice can say what is wrong.
        if (problem := self.fit.check(self.evening.setup)) and not unfinished_game(settings):
            raise SetupError("set-up", [problem])

    # what the rest of the box reads of the service (the page, the demo, tests)
    @property
    def box(self) -> Box | None:
        """The game in play or just ended (the evening's)."""
        return self.playing.box

    @property
    def book(self) -> PhraseBook:
        return self.playing.book

    @property
    def input_method(self) -> str:
        return self.playing.input_method

    @property
    def on_box(self) -> list[Callable[[Box], None]]:
        """Hears of each game's box (the page, tests, the demo)."""
        return self.starter.on_box

    @property
    def announce(self) -> list[Effect]:
        """Said once after "ready" (the page's address)."""
        return self.announcer.announce

    @announce.setter
    def announce(self, cues: list[Effect]) -> None:
        self.announcer.announce = cues

    @property
    def wall(self) -> Callable[[], float]:
        return self.starter.wall

    @wall.setter
    def wall(self, wall: Callable[[], float]) -> None:
        self.starter.wall = wall

    @property
    def notices(self) -> Notices:
        return self.faults.notices

    @property
    def status_light(self) -> StatusLight:
        return self.faults.status_light

    @property
    def displays(self) -> list[AnswerDisplay]:
        return self.fit.displays

    @property
    def screens(self) -> list[AnswerDisplay]:
        return self.fit.screens

    @property
    def answer_place(self) -> str:
        return self.fit.answer_place

    # inputs from every device arrive here
    def submit(self, action: Action, source: InputSource | Literal[""] = "") -> None:
        if isinstance(action, AbandonGame):
            self.desk.abandon(source)
            return
        box = self.box
        if box is not None and self.evening.in_play:
            if isinstance(action, NextGame):
                self.desk.refused(action, source)
            elif isinstance(action, Forfeit) and source == "keypad":
                self.desk.forfeit(box, action)
            elif judge_takes_it(box, action, source):
                pass  # a judge enters this night: the pads' and keypad's choices are not taken
            else:
                box.submit(action, source)
        elif isinstance(action, NextGame) and not self.evening.starting:
            # Only the host's own ask ("next game"; the keypad's start key below): a late
            # entry, "next speaker" or a pad's long press as a game ends is not one.
            with contextlib.suppress(EveningError, SetupError):  # held, or unplayable here
                self.evening.next()

    def _key(self, key: str) -> None:
        self.desk.key(key)

    def _voice_decision(self, decision: object) -> None:
        self.desk.voice_decision(decision)

    def _reveal(self, box: Box) -> None:
        """A finished game on a box whose answers go to a screen: the cards not of the town
        (what a panel's seat LEDs blink) stay up until the next game begins."""
        screens = self.screens
        if not screens:
            return
        rules = box.game.engine.rules
        st = box.game.state
        book = self.book.for_rules(rules.name)
        cards: dict[str, list[int]] = {}
        for seat in range(1, st.seats + 1):
            role = rules.roles.get(st.roles[seat])
            if role is not None and role.team != "red":
                with contextlib.suppress(PhraseError):
                    cards.setdefault(book.role_name(st.roles[seat]), []).append(seat)
        text = reveal_text(book.lang, list(cards.items()))
        for screen in screens:
            screen.show(text)

    def _evening_changed(self, what: str) -> None:
        if what == "abandon" and self.evening.held is None:
            self.status_light.set_fault("resume", False)

    async def start_up(self) -> None:
        """Everything that must be ready before the first word: pads and voice. The speech
        the game needs is rendered in the background, the first needed first (a cue not
        rendered yet when said is rendered then)."""
        setup = self.evening.setup
        from narrator.box.warmup import needed_texts, render

        rules = setup.configured_rules().base  # resolved when the set-up was accepted
        self.playing.book = PhraseBook.load(setup.lang)
        book = self.book.for_rules(rules.name).for_input(self.input_method).for_answers(
            self.answer_place)
        speaker = self.announcer.speaker(setup.lang)

        async def warm() -> None:
            texts = await asyncio.to_thread(needed_texts, book, rules, setup.seats)
            log.info("speech cache: rendering %d texts for %s in the background", len(texts),
                     rules.name)
            await render(speaker.prepare, texts, self.warmup)

        self._warming = asyncio.get_running_loop().create_task(warm(), name="warmup")
        if self.ports.panel is not None:
            self.ports.panel.start(partial(self.submit, source="pads"))
            if self.status_light.state != "off":  # set before the panel could show it
                self.faults.show_status(self.status_light.state)

    async def run(self, games: int | None = None) -> None:
        """Serve games until stopped (or `games` of them have ended)."""
        await self.start_up()
        watchdog = asyncio.get_running_loop().create_task(self._watchdog())
        self.faults.loop = asyncio.get_running_loop()
        for speaker in self.announcer.speakers.values():
            self.faults.hear_sound(speaker)
        devices = self._start_devices()
        first = True
        try:
            while games is None or self.games < games:
                try:
                    box = self.starter.new_box(first)
                except OSError as exc:  # the card can't take a journal or a protocol now
                    await self.faults.card_refused(exc)
                    continue
                if box is None or box.session.header is not None:  # kept on the card
                    self.faults.card_ok()
                first = False
                if box is None:  # a game held, or between games: nothing until asked
                    await self.evening.wanted()
                    continue
                outcome = await self.evening.until_end(box)
                await box.stop()
                self.announcer.heard(box)
                if outcome is not None:
                    self._reveal(box)
                self.status_light.set_game(False)
                self.games += 1
                log.info("game %d over: %s", self.games,
                         outcome.winner if outcome else "abandoned")
                if outcome is None:  # in its own language: the next may be another's
                    await self.announcer.say_now("game_abandoned", self.book.lang)
                if games is not None and self.games >= games:
                    break
                await self.evening.wanted()
        finally:
            watchdog.cancel()
            if self._warming is not None:
                self._warming.cancel()
            for task in devices:
                task.cancel()
            self.notifier.stopping()

    def _start_devices(self) -> list[asyncio.Task[None]]:
        tasks = []
        for i, keypad in enumerate(self.ports.keypads):
            keypad.on_key = self._key
            sink = partial(self.submit, source="keypad")
            tasks.append(supervise(f"keypad-{i}", partial(keypad.run, sink), self.clock))
        voice = self.ports.voice
        if voice is not None:
            heard = partial(self.submit, source="voice")
            tasks.append(supervise("voice", lambda: voice.run(heard), self.clock))
        return tasks

    async def _watchdog(self) -> None:
        interval = watchdog_interval()
        if interval is None:
            return
        while True:
            # Fed only while the game progresses: a stuck port or a dead task stops the
            # feeding, systemd restarts the box, and the journal resumes the game.
            problem = self.box.health() if self.box is not None else None
            if problem is None:
                self.notifier.watchdog()
            else:
                log.error("not feeding the watchdog: %s", problem)
            await self.clock.sleep(interval)
