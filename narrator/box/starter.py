"""Starting or resuming a game: the unfinished game found on the card is resumed (or held
when this box can't play it, or set aside when it can't be read); otherwise nothing starts
unasked: the box waits for a game to be asked for (after a restart between games as on a
box that has not played yet), and a game asked for begins with the evening's set-up,
unsaved when the card keeps refusing it. Each game gets a fresh performer and box."""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Generic, Protocol, TypeVar

from narrator.box.announcer import Announcer
from narrator.box.build import build
from narrator.box.desk import Desk
from narrator.box.evening import Evening
from narrator.box.faults import Faults
from narrator.box.fit import Fit
from narrator.box.playing import Playing
from narrator.box.ports import Ports
from narrator.box.referee import Box
from narrator.box.session import Session, Unrecorded
from narrator.box.status import where_we_are
from narrator.boxconfig import Settings
from narrator.clock import Clock
from narrator.engine.effects import Effect, Say
from narrator.errors import RecordError
from narrator.evening import GameSetup, Problem, SetupError
from narrator.phrases.book import PhraseBook
from narrator.records.disk import Disk, DiskMaker
from narrator.records.journal import GameHeader
from narrator.records.session import GameSession
from narrator.sdnotify import Notifier
from narrator.voice.voice_status import VoiceStatus
from narrator.wallclock import WallClock

log = logging.getLogger("narrator.service")


class EndedGame(Protocol):
    """An ended game whose files can be written again (a Session)."""

    def complete(self) -> object: ...


Ended = TypeVar("Ended", bound=EndedGame)


class WaitingFiles(Generic[Ended]):
    """An ended game whose files (its protocol) the card refused: none waiting, or that
    game, written before the next game begins."""

    def __init__(self) -> None:
        self.game: Ended | None = None

    def keep(self, game: Ended) -> None:
        self.game = game

    def write(self, unsaved_ok: bool) -> Ended | None:
        """Write them now; the game whose files are written now, if one waited. OSError:
        the card still refuses (swallowed when the next game may be played unsaved: they
        wait on)."""
        game = self.game
        if game is None:
            return None
        try:
            game.complete()  # the ended game's files first
        except OSError:
            if not unsaved_ok:
                raise
            return None
        self.game = None
        return game


class Starter:
    def __init__(self, settings: Settings, ports: Ports, clock: Clock, wallclock: WallClock,
                 journal_disk: DiskMaker, evening: Evening, notifier: Notifier,
                 playing: Playing, fit: Fit, announcer: Announcer, faults: Faults,
                 desk: Desk, voice_status: VoiceStatus) -> None:
        self.settings = settings
        self.ports = ports
        self.clock = clock
        self.wallclock = wallclock
        self.journal_disk = journal_disk
        self.evening = evening
        self.notifier = notifier
        self.playing = playing
        self.fit = fit
        self.announcer = announcer
        self.faults = faults
        self.desk = desk
        self.voice_status = voice_status
        self.on_box: list[Callable[[Box], None]] = []  # hears of each game's box (tests, demo)
        self.began: tuple[GameSession, float] | None = None  # a new game, when on `clock`
        self.waiting: WaitingFiles[Session] = WaitingFiles()
        # The wall clock only stamps journal lines and protocols (tests may jump it).
        self.wall: Callable[[], float] = wallclock.now
        wallclock.listeners.append(self._phone_told_time)

    def new_box(self, first: bool) -> Box | None:
        """The next game's box, started (None: a held game, or a restart between games:
        nothing is played until asked). OSError: the card refuses it (tried again)."""
        boxes: list[Box] = []
        disk = self._disks(boxes)
        # After CARD_TRIES refusals the table plays all the same, unsaved (said and shown).
        unsaved_ok = self.faults.card.play_unsaved
        playing = self.playing
        last = playing.box.session if playing.box is not None else None
        if last is not None and last.unsaved is not None:
            self.waiting.keep(last)
        written = self.waiting.write(unsaved_ok)
        if written is not None:
            log.info("the protocol of game %s is written now",
                     written.header.game_id if written.header else "")
        found, unreadable = self._find(disk, unsaved_ok) if first else (None, False)
        if not first:
            self.faults.notices.clear("record")  # told at start-up; a later game is on its own
        # Restarted after a game's end (or an abandon): wait to be asked, as after the end.
        # Nothing starts unasked: with no game to resume the box waits for one to be asked
        # for (the page's set-up, the keypad's bare Enter, "next game"), after a game's end
        # as on a box that has not played yet. A start asked before run() is played.
        waiting = first and found is None and not self.evening.starting
        after_a_game = waiting and self.evening.between_games()
        setup = GameSetup.from_header(found[0].header) if found else self.evening.setup
        playing.book = PhraseBook.load(setup.lang)
        playing.input_method = self.fit.method(setup)
        resumed_at_night = found is not None and found[0].game.state.phase == "night" \
            and not found[0].game.over
        greeting, for_the_day = self._greeting(first, unreadable, resumed_at_night, setup)
        if waiting:
            self._between_games(greeting, setup, after_a_game)
            return None
        if found is not None and (problem := self.fit.check(setup)) is not None:
            self._hold(found[0], setup, problem, greeting)
            return None
        session: Session
        if found is not None:
            resumed, opening = found
            log.info("resuming game %s", resumed.header.game_id)
            if resumed.journal.repaired is not None:
                greeting.append(Say("journal_repaired", {}))
            greeting.append(where_we_are(resumed.game.state))
            session = resumed
        else:
            if first and (problem := self.fit.check(setup)) is not None:
                raise SetupError("set-up", [problem])  # the journal found had ended after all
            session, opening = self._start(setup, disk, unsaved_ok, greeting)
            greeting.append(Say("new_game", {}))
        # The game's rule set names the cards the box may say (a jailed player's card).
        # At a judge's table the judge shows a check's answer (the judge's page has it):
        # the cues say so, and no light or screen shows one.
        book = playing.book.for_rules(session.game.engine.rules.name).for_input(
            playing.input_method).for_answers("judge" if setup.judge else self.fit.answer_place)
        light = self.faults.status_light
        box = build(session, self.announcer.speaker(setup.lang), book, self.clock,
                    panel=self.ports.panel, mute=self._mute,
                    on_pause=[k.set_paused for k in self.ports.keypads] + [light.set_paused],
                    displays=self.fit.screens, show_answers=not setup.judge)
        box.for_the_day = for_the_day
        boxes.append(box)
        self._begin(box, setup, greeting + opening)
        return box

    def _greeting(self, first: bool, unreadable: bool, resumed_at_night: bool,
                  setup: GameSetup) -> tuple[list[Effect], list[Effect]]:
        """What the box says before the game's own opening, and what waits for the day."""
        greeting: list[Effect] = []
        if first:
            greeting.append(Say("ready", {}))
        if unreadable:
            greeting.append(Say("journal_unreadable", {}))
        page = self.announcer.page_address()
        for_the_day: list[Effect] = []
        if resumed_at_night:
            # A resume at night: nothing but the night script (eyes are closed). A phone
            # signed in stays so (web-sessions.json), but another may need the address and
            # PIN soon: at the morning, or the next game's opening if the night ends it.
            page, for_the_day = [], page
        greeting.extend(page)
        greeting.extend(self.announcer.voice_for(setup.lang, self.voice_status))
        return greeting, for_the_day

    def _start(self, setup: GameSetup, disk: Callable[[int], Disk], unsaved_ok: bool,
               greeting: list[Effect]) -> tuple[Session, list[Effect]]:
        """A new game's session on the card (or, once the card has refused it CARD_TRIES
        times, kept nowhere) and its opening."""
        header = replace(setup.header(_seed(setup, self.clock), self.playing.input_method),
                         clock=self.wallclock.source)
        try:
            started, opening = GameSession.start(self.settings.state_dir, header,
                                                 wall=self.wall, disk=disk)
        except OSError:
            if not unsaved_ok:
                raise
            return self._unsaved_game(header, greeting)
        self.began = (started, self.clock.now())
        return started, opening

    def _begin(self, box: Box, setup: GameSetup, effects: list[Effect]) -> None:
        """The game's box becomes the one played: the devices start it afresh, the parts
        hear of it, and it says `effects` first."""
        # Nothing of the last game's keys carries over: half-typed digits, its pause, an
        # abandon waiting for its confirmation, its cards on a screen.
        for screen in self.fit.screens:
            screen.wipe()
        paused = box.game.state.paused
        for keypad in self.ports.keypads:
            keypad.new_game(paused)
        if self.ports.panel is not None:
            self.ports.panel.set_paused(paused)
        self.desk.confirmation.clear()
        box.on_fault.append(self.faults.journal)
        box.listeners.append(lambda _action, _effects: self.faults.protocol_unsaved(box))
        box.on_refused = self.desk.refused
        self.evening.began(box, setup)  # the box played now (`playing.box`)
        for hook in self.on_box:
            hook(box)
        box.start(effects)
        light = self.faults.status_light
        light.set_fault("microphone", self.voice_status.off == "voice_mic_lost")
        light.set_game(True)
        self.notifier.ready("game running")

    def _disks(self, boxes: list[Box]) -> Callable[[int], Disk]:
        """The journal's disk: its writer thread tells the box (in `boxes`, once made)
        when the card fails and when it is back."""

        def failed(exc: OSError) -> None:
            for b in boxes:
                b.disk_failed(exc)

        def recovered() -> None:
            for b in boxes:
                b.disk_recovered()

        def disk(fd: int) -> Disk:
            return self.journal_disk(fd, failed, recovered)

        return disk

    def _find(self, disk: Callable[[int], Disk], unsaved_ok: bool
              ) -> tuple[tuple[GameSession, list[Effect]] | None, bool]:
        """The unfinished game on the card, resumed (None: there is none), and whether
        one was there that can't be read (set aside)."""
        try:
            return GameSession.resume(self.settings.state_dir, wall=self.wall, disk=disk), False
        except RecordError as exc:  # nothing of it can be resumed: kept aside, a new game
            self.faults.unreadable(exc, self.settings.state_dir, self.wall())
            return None, True
        except OSError:
            if not unsaved_ok:
                raise
            return None, False  # it stays on the card for a box that can write again

    def _mute(self, on: bool) -> None:
        if self.ports.voice is not None:
            self.ports.voice.mute(on)

    def _hold(self, session: GameSession, setup: GameSetup, problem: Problem,
              greeting: list[Effect]) -> None:
        """The unfinished game can't go on on this box as it is now (the same check as a new
        set-up's: its checks' answers would go nowhere, its cues name pads the box lacks).
        It is not played: the box says so, blinks the status LED and the page says why;
        the organiser abandons it (page, or /0 Enter twice) or restarts the box with what
        it lacks, and the game resumes."""
        log.error("the unfinished game %s cannot go on on this box: %s",
                  session.header.game_id, problem.reason)
        self.evening.hold(session, setup, problem)  # no box is played
        self.faults.status_light.set_fault("resume", True)
        self.announcer.say_soon([*greeting, Say("resume_refused", {})], setup.lang)
        self.announcer.announcement.done()  # said between games, where nothing cuts it short
        self.notifier.ready("an unfinished game is held")

    def _between_games(self, greeting: list[Effect], setup: GameSetup, after_a_game: bool) -> None:
        """Start-up with no game to resume: nothing is played until a game is asked for
        (the keypad's bare Enter, "next game", the page's set-up); the table hears that it
        waits (for the next game after a restart between games, else for a set-up)."""
        log.info("no game in play: the %s game starts when asked for",
                 "next" if after_a_game else "first")
        cue = "between_games" if after_a_game else "waiting_setup"
        self.announcer.say_soon([*greeting, Say(cue, {})], setup.lang)
        self.announcer.announcement.done()  # said between games, where nothing cuts it short
        self.notifier.ready("between games")

    def _phone_told_time(self) -> None:
        """The first game of the evening begins at boot, before any phone has opened the
        page: when one tells the time, that game's protocol is dated by it."""
        began = self.began
        box = self.playing.box
        if began is None or box is None or box.session is not began[0]:
            return
        session, at = began
        if session.header.clock not in ("phone", "network") and session.files is None:
            started = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(self.wallclock.at(at)))
            session.redate(started, "phone")

    def _unsaved_game(self, header: GameHeader, greeting: list[Effect]
                      ) -> tuple[Unrecorded, list[Effect]]:
        """A game the card can't keep: played all the same (eight games tonight), kept
        nowhere; the table hears it, the page and the LED keep saying it."""
        game = header.new_game()
        greeting.append(Say("game_unsaved", {}))
        self.faults.game_unsaved()
        return Unrecorded(game), list(game.opening)


def _seed(setup: GameSetup, clock: Clock) -> int:
    if setup.deal == "phone":
        # The box deals the roles from this seed: nobody at the table may guess it.
        return secrets.randbits(32)
    return int(clock.now() * 1000) & 0xFFFF_FFFF
