"""`narrator run`: the box as systemd starts it.

Start-up renders the speech cache for the rule set (a no-op once rendered), loads the
recognizer, makes the pads live, then says "ready", lights the status LED and tells
systemd READY=1. An unfinished game in the state folder is resumed and the table is told
where it stands; otherwise nothing starts unasked: after a game's end (a restart between
games) the box waits to be asked for the next, as after any game's end, and a box that
has not played yet waits for a set-up (the page's, or the keypad's bare Enter and "next
game" for the set-up given: narrator.evening, the config's rule set and table, names from
`--names` or remembered on this box). After a
game ends, the host's Enter (or "next") starts the next one with the same names; the
page, keypad and voice start, continue or abandon games through `service.evening`.

Faults never lose the game: a device that throws is logged and started again, a missing
microphone turns voice commands off, a lost sound device only silences the box until it
is back (the speaker handles that), and every action is in the journal before it acts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from types import MappingProxyType
from typing import TYPE_CHECKING, Protocol

from narrator.clock import Clock, MonotonicClock
from narrator.daemon import Box, Session, Unrecorded, supervise
from narrator.devices.display import AnswerDisplay, reveal_text
from narrator.devices.keymap import DIGITS
from narrator.devices.keypads import Keypad
from narrator.devices.panel import SeatPanel
from narrator.engine.actions import Action, Forfeit
from narrator.engine.effects import Effect, Say
from narrator.engine.requests import AbandonGame, NextGame
from narrator.errors import DeviceError, RecordError
from narrator.evening import Evening, EveningError, GameSetup, Problem, SetupError
from narrator.evening.answers import answer_display_problem, answer_place, without_display
from narrator.evening.memory import recall
from narrator.notices import Notices
from narrator.performer import Performer
from narrator.phrases.book import PhraseBook, PhraseError
from narrator.records.disk import Disk, DiskMaker, direct_disk
from narrator.records.journal import GameHeader, set_aside
from narrator.records.session import GameSession
from narrator.sdnotify import Notifier, watchdog_interval
from narrator.settings import Settings
from narrator.status import BOX_CUES, LedState, StatusLight, where_we_are
from narrator.voice.speaker import Speaker
from narrator.voice.voice_status import VoiceStatus, install_hint
from narrator.wallclock import WallClock
from narrator.warmup import Progress
from narrator.windows import WindowTimers

if TYPE_CHECKING:
    from narrator.voice.recognizer import Recognizer

log = logging.getLogger("narrator.service")

# The keypad's game-changing keys (abandon /0 Enter, forfeit //N Enter) wait this long for
# the same keys again, which confirm them. Counted from the first keys: the question takes
# a few seconds to say, and the host types again once it is said.
CONFIRM_SECONDS = 15.0

# A card that refuses the next game's journal (full, read-only) is tried again this often.
CARD_RETRY_SECONDS = 5.0
# ...this many times; then the game begins all the same, unsaved (said, shown).
CARD_TRIES = 3

Sink = Callable[[Action], None]


class VoiceInput(Protocol):
    """Voice commands: runs until stopped, handing actions to the sink; muted while the
    box speaks so it never hears itself."""

    async def run(self, sink: Sink) -> None: ...

    def mute(self, on: bool) -> None: ...


@dataclass
class Ports:
    speaker: Speaker
    panel: SeatPanel | None = None
    keypads: list[Keypad] = field(default_factory=list)
    voice: VoiceInput | None = None
    # A speaker for another language than the box's (a set-up may choose one); None: the
    # one speaker speaks every language it is given.
    speakers: Callable[[str], Speaker] | None = None
    # Why voice commands are off, when they are (None: on if `voice` is there).
    voice_status: VoiceStatus | None = None
    # The pin map's check that a game's seats are wired (None: any table will do).
    seat_check: Callable[[int], None] | None = None


class Service:
    def __init__(self, settings: Settings, ports: Ports, clock: Clock | None = None,
                 notifier: Notifier | None = None, setup: GameSetup | None = None,
                 journal_disk: DiskMaker = direct_disk) -> None:
        self.settings = settings
        # narrator run: the writer thread (records.disk.thread_disk); tests on a FakeClock
        # write inline, since a fake clock cannot wait for a thread.
        self.journal_disk = journal_disk
        self.ports = ports
        self.clock = clock or MonotonicClock()
        # The wall clock only stamps journal lines and protocols; every timer runs on
        # `clock` (monotonic), so an NTP or RTC jump never moves the game's time.
        # The date comes from the organiser's phone once it tells it (the Pi has no
        # real-time clock): narrator.wallclock.
        self.wallclock = WallClock(self.clock.now)
        self.wallclock.listeners.append(self._phone_told_time)
        self.wall: Callable[[], float] = self.wallclock.now
        self._began: tuple[GameSession, float] | None = None  # a new game, when on `clock`
        self.notifier = notifier or Notifier()
        self.book = PhraseBook.load(settings.game.lang)
        self.box: Box | None = None
        self.on_box: list[Callable[[Box], None]] = []  # hears of each game's box (tests, demo)
        self.games = 0
        self.announce: list[Effect] = []  # said once after "ready" (the page's address)
        self._announced = False  # a game's box (or the held game's words) has said it
        # The evening: what game is played next; start / next / abandon for every caller.
        self.evening = Evening(settings.state_dir, (setup or initial_setup(settings)).check())
        self.evening.seat_check = ports.seat_check
        self.evening.box_check = self._box_check
        self.evening.listeners.append(self._evening_changed)
        self._saying: asyncio.Task[None] | None = None  # words said between games
        # The keypad's first abandon or forfeit, waiting for its confirmation: (what, when).
        self._asked: tuple[str, float] | None = None
        self._typing = False  # keypad keys typed since the last Enter (see _key)
        self.warmup = Progress()  # the speech rendered ahead (the page shows it)
        # The box's own troubles for the organiser's page (the card refuses to save...).
        self.notices = Notices()
        self._card_told = False  # the card's refusal said aloud, once an outage
        self._card_tries = 0  # refusals in a row (CARD_TRIES: then a game unsaved)
        self._pending: GameSession | None = None  # an ended game whose files wait
        self._warming: asyncio.Task[None] | None = None
        self._speakers: dict[str, Speaker] = {settings.game.lang: ports.speaker}
        self._voice_told: set[tuple[str, str]] = set()  # (why voice is off, language) said
        if ports.voice is not None and hasattr(ports.voice, "on_decision"):
            ports.voice.on_decision = self._voice_decision
        # What the cues tell the players to use: the game's set-up, else the setting, or
        # the pads when the box has them and the keypad when it has none.
        self.input_method = self._method(self.evening.setup)
        self.status_light = StatusLight(self._show_status)
        self.voice_status = ports.voice_status or getattr(ports.voice, "status", None) \
            or VoiceStatus(None if ports.voice is not None else "voice_off", settings.game.lang)
        if ports.voice is not None and hasattr(ports.voice, "status"):
            ports.voice.status = self.voice_status
        self.voice_status.watchers.append(self._voice_changed)
        # A set-up this box can't play is refused here (exit 2): players told to use pads
        # or a keypad it lacks, private checks with no answer LEDs and no keypad screen.
        # An unfinished game is played first: it is checked when found (`_hold`), and the
        # box stays up so that the page and the voice can say what is wrong.
        if (problem := self._box_check(self.evening.setup)) and not unfinished_game(settings):
            raise SetupError("set-up", [problem])

    def _method(self, setup: GameSetup) -> str:
        """The game's input method: its set-up's (the page's choice), else the box's
        `input` setting; auto by the devices the box has."""
        chosen = setup.input if setup.input != "auto" else self.settings.input
        return input_method(chosen, self.ports)

    @property
    def displays(self) -> list[AnswerDisplay]:
        """The keypads' screens (answers show there when there is no seat panel)."""
        return [k.display for k in self.ports.keypads if k.display is not None]

    @property
    def screens(self) -> list[AnswerDisplay]:
        """Where the keypads' screens show the answers: without a seat panel, or with one on
        mock pins (a laptop: LEDs nobody sees)."""
        panel = self.ports.panel
        return self.displays if panel is None or getattr(panel, "mock", False) else []

    @property
    def answer_place(self) -> str:
        """Where a check's answer shows on this box (phrases.book.ANSWER_PLACES), which the
        checkers' cues name: the hardware decides, the same for every game and every role."""
        panel = self.ports.panel
        return answer_place(bool(self.displays), panel is not None and not getattr(panel, "mock", False))

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

    def _box_check(self, setup: GameSetup) -> Problem | None:
        """Why this box can't play `setup` (None: it can): the players must have what the
        cues tell them to use, and the answers somewhere to show."""
        method = self._method(setup)
        if method in ("pads", "both") and self.ports.panel is None:
            return Problem("input", "input_no_pads",
                           f"input: {method}, but this box has no seat pads (no seat panel): "
                           f"choose keypad or auto")
        if method in ("keypad", "both") and not self.ports.keypads:
            return Problem("input", "input_no_keypad",
                           f"input: {method}, but this box has no keypad (keypad: none): "
                           f"choose pads or auto, or set keypad: in the config")
        panel = self.ports.panel
        mock = getattr(panel, "mock", False)  # a laptop's mock pins: LEDs nobody sees
        if (panel is not None and not mock) or self.displays:
            return None
        return answer_display_problem(setup, without_display(self.ports.keypads, mock))

    # inputs from every device arrive here
    def submit(self, action: Action, source: str = "") -> None:
        if isinstance(action, AbandonGame):
            self._abandon(source)
            return
        box = self.box
        if box is not None and self.evening.in_play:
            if isinstance(action, NextGame):
                self._refused(action, source)
            elif isinstance(action, Forfeit) and source == "keypad":
                self._forfeit(box, action)
            else:
                box.submit(action, source)
        elif isinstance(action, NextGame) and not self.evening.starting:
            # Only the host's own ask ("next game"; the keypad's start key below): a late
            # entry, "next speaker" or a pad's long press as a game ends is not one.
            with contextlib.suppress(EveningError, SetupError):  # held, or unplayable here
                self.evening.next()

    def _key(self, key: str) -> None:
        """Every keypad key: a bare Enter (the keypad's start key: nothing typed before it)
        between games starts the next one; it makes no action of its own."""
        bare = not self._typing
        if key in ("enter", "clear"):
            self._typing = False
        elif key in DIGITS or key == "/":
            self._typing = True  # an entry or a host's move being typed: its Enter is its own
        if key == "enter" and bare and not self.evening.in_play and not self.evening.starting:
            with contextlib.suppress(EveningError, SetupError):  # held, or unplayable here
                self.evening.next()

    def _abandon(self, source: str) -> None:
        """Abandon the game in play: the voice's comes confirmed ("yes"); the keypad's
        (/0 Enter) is asked for again within the confirmation time."""
        box = self.box
        held = self.evening.held
        if held is None and (box is None or not self.evening.in_play):
            return
        if source == "keypad" and not self._confirmed("abandon", Say("confirm_abandon", {})):
            return
        self._asked = None
        with contextlib.suppress(EveningError):
            self.evening.abandon()
            if held is not None:
                self._say_soon([Say("game_abandoned", {})], held.setup.lang)

    def _forfeit(self, box: Box, action: Forfeit) -> None:
        """The keypad's forfeit (//N Enter: a severe breach gives the game to the other
        team, sport 001) ends the game: asked for again within the confirmation time, like
        the abandon. Where the rules have no forfeit it is refused at once."""
        if not box.game.engine.rules.forfeit:
            self._refused(action, "keypad")
            return
        if self._confirmed(f"forfeit {action.seat}", Say("confirm_forfeit", {"seat": action.seat})):
            box.submit(action, "keypad")

    def _confirmed(self, what: str, ask: Say) -> bool:
        """A game-changing key counts when the same keys come again within CONFIRM_SECONDS;
        the first time the box says `ask` and waits."""
        now = self.clock.now()
        asked = self._asked
        if asked is not None and asked[0] == what and now - asked[1] <= CONFIRM_SECONDS:
            self._asked = None
            return True
        self._asked = (what, now)
        held = self.evening.held
        if held is not None:  # no game's performer: said between games
            self._say_soon([ask], held.setup.lang)
        elif self.box is not None:
            self.box.performer.submit([ask])
        return False

    def _refused(self, action: Action, source: str) -> None:
        """A key or voice command the box refuses gets a short neutral answer in the day
        (paused too: the game is halted, and the host must hear why the key did nothing);
        at night nothing at all (even a refusal could tell who acts)."""
        box = self.box
        if box is None or source not in ("keypad", "voice"):
            return
        if box.game.state.phase == "day":
            box.performer.submit([Say("not_now", {})])

    def _voice_decision(self, decision: object) -> None:
        """A destructive voice command waits for "yes": the box repeats it first."""
        from narrator.voice.command_confirm import Ask

        if not isinstance(decision, Ask) or self.box is None:
            return
        command = decision.command
        if command.command == "forfeit" and not self.box.game.engine.rules.forfeit:
            # These rules give no game away: refused at once, not asked first ("yes" would
            # only be refused then), as the keypad's //N Enter is.
            confirmer = getattr(self.ports.voice, "confirmer", None)
            if confirmer is not None:
                confirmer.cancel()
            self._refused(Forfeit(command.seat or 0), "voice")
            return
        if command.seat is not None:
            cue = Say(f"confirm_{command.command}", {"seat": command.seat})
        else:
            cue = Say(f"confirm_{command.command}", {})
        if cue.cue in BOX_CUES:
            self.box.performer.submit([cue])

    def _heard_announce(self, box: Box) -> None:
        """Whether the ended game's box said the page's address (all of `announce`)."""
        cues = {e.cue for e in self.announce if isinstance(e, Say)}
        if cues <= {s.cue for s in box.performer.spoken}:
            self._announced = True

    def _voice_for(self, lang: str) -> list[Effect]:
        """A game in `lang` begins: voice commands in its language (the recognizer the
        config picks for it, loaded the first time). Why they are off, said once an evening
        (once per language when no model hears it)."""
        switch = getattr(self.ports.voice, "use_language", None)
        if switch is not None:
            switch(lang)
        off = self.voice_status.off
        if off is None:
            return []
        told = (off, lang if off == "voice_no_model" else "")
        if told in self._voice_told:
            return []
        self._voice_told.add(told)
        if off == "voice_no_model":
            log.warning("voice commands are off: no speech model for %r (install one: %s)",
                        lang, install_hint(lang))
        return [Say(off, {})]

    def _voice_changed(self, status: VoiceStatus) -> None:
        """The microphone went away mid-game: say so once, blink the status LED; the game
        goes on (the page shows it from the same status). A language with no model is told
        when its game begins (`_voice_for`)."""
        log.warning("voice commands: %s", status.off or "on")
        self.status_light.set_fault("microphone", status.off == "voice_mic_lost")
        if self.box is not None and status.off == "voice_mic_lost":
            self._voice_told.add((status.off, ""))
            self.box.performer.submit([Say(status.off, {})])

    def _mute(self, on: bool) -> None:
        if self.ports.voice is not None:
            self.ports.voice.mute(on)

    async def start_up(self) -> None:
        """Everything that must be ready before the first word: pads and voice. The speech
        the game needs is rendered in the background, the first needed first (a cue not
        rendered yet when said is rendered then)."""
        setup = self.evening.setup
        from narrator.rules.loader import load
        from narrator.warmup import needed_texts, render

        rules = load(setup.rules)
        self.book = PhraseBook.load(setup.lang)
        book = self.book.for_rules(rules.name).for_input(self.input_method).for_answers(
            self.answer_place)
        speaker = self._speaker(setup.lang)

        async def warm() -> None:
            texts = await asyncio.to_thread(needed_texts, book, rules, setup.seats)
            log.info("speech cache: rendering %d texts for %s in the background", len(texts),
                     rules.name)
            await render(speaker.prepare, texts, self.warmup)

        self._warming = asyncio.get_running_loop().create_task(warm(), name="warmup")
        if self.ports.panel is not None:
            self.ports.panel.start(partial(self.submit, source="pads"))
            if self.status_light.state != "off":  # set before the panel could show it
                self._show_status(self.status_light.state)

    async def run(self, games: int | None = None) -> None:
        """Serve games until stopped (or `games` of them have ended)."""
        await self.start_up()
        watchdog = asyncio.get_running_loop().create_task(self._watchdog())
        self._loop = asyncio.get_running_loop()
        for speaker in self._speakers.values():
            self._hear_sound(speaker)
        devices = self._start_devices()
        first = True
        try:
            while games is None or self.games < games:
                try:
                    box = self._new_box(first)
                except OSError as exc:  # the card can't take a journal or a protocol now
                    await self._card_refused(exc)
                    continue
                if box is None or isinstance(box.session, GameSession):
                    self._card_ok()
                first = False
                if box is None:  # a game held, or between games: nothing until asked
                    await self.evening.wanted()
                    continue
                outcome = await self.evening.until_end(box)
                await box.stop()
                self._heard_announce(box)
                if outcome is not None:
                    self._reveal(box)
                self.status_light.set_game(False)
                self.games += 1
                log.info("game %d over: %s", self.games,
                         outcome.winner if outcome else "abandoned")
                if outcome is None:  # in its own language: the next may be another's
                    await self._say_now("game_abandoned", self.book.lang)
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

    def _new_box(self, first: bool) -> Box | None:
        # The journal's writer thread tells the box (made below) when the disk fails.
        boxes: list[Box] = []

        def failed(exc: OSError) -> None:
            for b in boxes:
                b.disk_failed(exc)

        def recovered() -> None:
            for b in boxes:
                b.disk_recovered()

        def disk(fd: int) -> Disk:
            return self.journal_disk(fd, failed, recovered)

        # After CARD_TRIES refusals the table plays all the same, unsaved (said and shown).
        unsaved_ok = self._card_tries >= CARD_TRIES
        last = self.box.session if self.box is not None else None
        if isinstance(last, GameSession) and last.unsaved is not None:
            self._pending = last
        if self._pending is not None:
            try:
                self._pending.complete()  # the ended game's files first
            except OSError:
                if not unsaved_ok:
                    raise
            else:
                log.info("the protocol of game %s is written now",
                         self._pending.header.game_id)
                self._pending = None
        unreadable = False
        try:
            found = GameSession.resume(self.settings.state_dir, wall=self.wall,
                                       disk=disk) if first else None
        except RecordError as exc:  # nothing of it can be resumed: kept aside, a new game
            found, unreadable = None, True
            self._unreadable(exc)
        except OSError:
            if not unsaved_ok:
                raise
            found = None  # it stays on the card for a box that can write again
        if not first:
            self.notices.clear("record")  # told at start-up; a later game is on its own
        # Nothing starts unasked: with no game to resume the box waits for one to be asked
        # for (the page's set-up, the keypad's bare Enter, "next game"), after a game's end
        # as on a box that has not played yet. A start asked before run() is played.
        waiting = first and found is None and not self.evening.starting
        after_a_game = waiting and self.evening.between_games()
        setup = GameSetup.from_header(found[0].header) if found else self.evening.setup
        self.book = PhraseBook.load(setup.lang)
        self.input_method = self._method(setup)
        timers = WindowTimers(self.clock, on_expire=lambda w: box.window_expired(w))
        performer = Performer(self._speaker(setup.lang), self.book, timers, self.ports.panel,
                              self._mute, on_pause=[k.set_paused for k in self.ports.keypads]
                              + [self.status_light.set_paused], displays=self.screens)
        greeting: list[Effect] = []
        if first:
            greeting.append(Say("ready", {}))
        if unreadable:
            greeting.append(Say("journal_unreadable", {}))
        # Once an evening, but said: a game abandoned before its box got to it carries it
        # over to the next game's opening.
        page = [] if self._announced else list(self.announce)
        for_the_day: list[Effect] = []
        if found is not None and found[0].game.state.phase == "night" and not found[0].game.over:
            # A resume at night: nothing but the night script (eyes are closed). A phone
            # signed in stays so (web-sessions.json), but another may need the address and
            # PIN soon: at the morning, or the next game's opening if the night ends it.
            page, for_the_day = [], page
        greeting.extend(page)
        greeting.extend(self._voice_for(setup.lang))
        if waiting:
            self._between_games(greeting, setup, after_a_game)
            return None
        if found is not None and (problem := self._box_check(setup)) is not None:
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
            if first and (problem := self._box_check(setup)) is not None:
                raise SetupError("set-up", [problem])  # the journal found had ended after all
            header = replace(setup.header(_seed(setup, self.clock), self.input_method),
                             clock=self.wallclock.source)
            try:
                started, opening = GameSession.start(self.settings.state_dir, header,
                                                     wall=self.wall, disk=disk)
                self._began = (started, self.clock.now())
                session = started
            except OSError:
                if not unsaved_ok:
                    raise
                session, opening = self._unsaved_game(header, greeting)
            greeting.append(Say("new_game", {}))
        # The game's rule set names the cards the box may say (a jailed player's card).
        performer.book = self.book.for_rules(session.game.engine.rules.name).for_input(
            self.input_method).for_answers(self.answer_place)
        box = Box(session, performer, self.clock)
        box.for_the_day = for_the_day
        boxes.append(box)
        # Nothing of the last game's keys carries over: half-typed digits, its pause, an
        # abandon waiting for its confirmation, its cards on a screen.
        for screen in self.screens:
            screen.wipe()
        paused = session.game.state.paused
        for keypad in self.ports.keypads:
            keypad.new_game(paused)
        if self.ports.panel is not None:
            self.ports.panel.set_paused(paused)
        self._asked = None
        box.on_fault.append(self._show_fault)
        box.listeners.append(lambda _action, _effects: self._unsaved(box))
        box.on_refused = self._refused
        self.box = box
        self.evening.began(box, setup)
        for hook in self.on_box:
            hook(box)
        box.start(greeting + opening)
        self.status_light.set_fault("microphone", self.voice_status.off == "voice_mic_lost")
        self.status_light.set_game(True)
        self.notifier.ready("game running")
        return box

    def _hold(self, session: GameSession, setup: GameSetup, problem: Problem,
              greeting: list[Effect]) -> None:
        """The unfinished game can't go on on this box as it is now (the same check as a new
        set-up's: its checks' answers would go nowhere, its cues name pads the box lacks).
        It is not played: the box says so, blinks the status LED and the page says why;
        the organiser abandons it (page, or /0 Enter twice) or restarts the box with what
        it lacks, and the game resumes."""
        log.error("the unfinished game %s cannot go on on this box: %s",
                  session.header.game_id, problem.reason)
        self.box = None
        self.evening.hold(session, setup, problem)
        self.status_light.set_fault("resume", True)
        self._say_soon([*greeting, Say("resume_refused", {})], setup.lang)
        self._announced = True  # said between games, where nothing cuts it short
        self.notifier.ready("an unfinished game is held")

    def _between_games(self, greeting: list[Effect], setup: GameSetup, after_a_game: bool) -> None:
        """Start-up with no game to resume: nothing is played until a game is asked for
        (the keypad's bare Enter, "next game", the page's set-up); the table hears that it
        waits (for the next game after a restart between games, else for a set-up)."""
        log.info("no game in play: the %s game starts when asked for",
                 "next" if after_a_game else "first")
        cue = "between_games" if after_a_game else "waiting_setup"
        self._say_soon([*greeting, Say(cue, {})], setup.lang)
        self._announced = True  # said between games, where nothing cuts it short
        self.notifier.ready("between games")

    def _phone_told_time(self) -> None:
        """The first game of the evening begins at boot, before any phone has opened the
        page: when one tells the time, that game's protocol is dated by it."""
        began = self._began
        box = self.box
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
        log.error("the memory card still cannot be written: this game is played unsaved")
        game = header.new_game()
        greeting.append(Say("game_unsaved", {}))
        self.notices.set("card", "game_unsaved")
        self.status_light.set_fault("card", True)
        return Unrecorded(game), list(game.opening)

    def _unreadable(self, exc: RecordError) -> None:
        """The unfinished game's journal can't be resumed at all (its header garbled by a
        power cut on a cheap card, its rule-set file gone): it is kept whole beside it,
        one line in the log and on the page says what and where, and the box waits for a
        new game to be asked for. Exiting instead would end the evening: systemd does not
        restart after exit 2."""
        kept = set_aside(self.settings.state_dir, self.wall())
        log.error("the unfinished game could not be read (%s); it is kept as %s and a new "
                  "game begins when asked for", exc, kept)
        self.notices.set("record", "journal_unreadable", file=str(kept), reason=str(exc))

    def _unsaved(self, box: Box) -> None:
        """The ended game's protocol could not be written (said at its end): the page and
        the status LED say so until it is (tried again before the next game)."""
        session = box.session
        if isinstance(session, GameSession) and session.unsaved is not None:
            self.notices.set("card", "protocol_unsaved", game=session.header.game_id,
                             reason=session.unsaved)
            self.status_light.set_fault("card", True)

    async def _card_refused(self, exc: OSError) -> None:
        """No game can begin: the card refuses its journal (full, read-only), or the last
        game's protocol. Said once an outage, shown on the page and the status LED, tried
        again every CARD_RETRY_SECONDS; nothing the card holds is touched meanwhile."""
        why = f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")
        if not self._card_told:
            log.error("no game can begin: the memory card cannot be written (%s); trying "
                      "again every %.0f s", why, CARD_RETRY_SECONDS)
            self._card_told = True
            self._say_soon([Say("card_unwritable", {})])
        self.notices.set("card", "card_unwritable", reason=why)
        self.status_light.set_fault("card", True)
        self._card_tries += 1
        await self.clock.sleep(CARD_RETRY_SECONDS)

    def _card_ok(self) -> None:
        if self._card_told or "card" in self.notices.items:
            log.warning("the memory card can be written again")
        self._card_told = False
        self._card_tries = 0
        self.notices.clear("card")
        self.status_light.set_fault("card", False)

    def _evening_changed(self, what: str) -> None:
        if what == "abandon" and self.evening.held is None:
            self.status_light.set_fault("resume", False)

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


    def _hear_sound(self, speaker: Speaker) -> None:
        """Follow a speaker's sound device (its Player tells when it fails or is back;
        fakes have none)."""
        player = getattr(speaker, "player", None)
        loop = getattr(self, "_loop", None)
        if player is not None and hasattr(player, "on_change") and loop is not None:
            player.on_change = lambda: loop.call_soon_threadsafe(self._sound_changed)

    def _sound_changed(self) -> None:
        """The sound device gone (a USB speaker unplugged) or back: the speaker already
        holds each clip's time and tries the device again with the next one; here the
        organiser learns of it: the status LED and a notice on the page, whose live part
        shows each cue as it is said, so that the organiser can read them out meanwhile."""
        lost = next((f"{getattr(p, 'last_error', None) or 'no device'}"
                     for p in (getattr(s, "player", None) for s in self._speakers.values())
                     if getattr(p, "failed", False)), None)
        log.warning("sound: %s", f"the device is gone ({lost})" if lost else "back")
        self.status_light.set_fault("sound", lost is not None)
        if lost is None:
            self.notices.clear("sound")
        else:
            self.notices.set("sound", "sound_lost", error=lost)

    def _show_fault(self, fault: str | None) -> None:
        self.status_light.set_fault("journal", fault is not None)

    def _show_status(self, state: LedState) -> None:
        if self.ports.panel is not None:
            try:
                self.ports.panel.set_status(state)
            except DeviceError as exc:  # the panel not started yet: start_up shows it
                log.debug("status LED: %s", exc)

    async def _say_now(self, cue: str, lang: str | None = None) -> None:
        """A word between games, when no game's performer is there to say it."""
        await self._say_all([Say(cue, {})], lang)

    async def _say_all(self, cues: list[Effect], lang: str | None = None) -> None:
        lang = lang or self.evening.setup.lang
        book = PhraseBook.load(lang).for_input(self.input_method)
        for cue in cues:
            if not isinstance(cue, Say):
                continue
            try:
                text = book.render(cue.cue, cue.params)
                log.info("say: %s", text)  # as the performer logs what it says
                await self._speaker(lang).say(text)
            except DeviceError as exc:
                log.error("cannot say %s: %s", cue.cue, exc)

    def _say_soon(self, cues: list[Effect], lang: str | None = None) -> None:
        """Say these after whatever is being said between games (in order, never over it)."""
        before = self._saying

        async def say() -> None:
            if before is not None:
                with contextlib.suppress(Exception):
                    await before
            await self._say_all(cues, lang)

        self._saying = asyncio.get_running_loop().create_task(say())

    def _speaker(self, lang: str) -> Speaker:
        if lang not in self._speakers:
            make = self.ports.speakers
            self._speakers[lang] = make(lang) if make is not None else self.ports.speaker
            self._hear_sound(self._speakers[lang])
        return self._speakers[lang]


def initial_setup(settings: Settings, names: tuple[str, ...] = ()) -> GameSetup:
    """The first game's set-up: the config's rule set, table, language and settings; the
    names given, else the ones remembered on this box when they fit the table."""
    game = settings.game
    seats = game.seats or (len(names) if names else settings.seats)
    if not names:
        last = recall(settings.state_dir)
        if last is not None and len(last.names) == seats:
            names = last.names
    return GameSetup(rules=game.rules, seats=seats, lang=game.lang, names=names,
                     settings=MappingProxyType(dict(game.settings)))


def unfinished_game(settings: Settings) -> bool:
    """An unfinished game's journal waits in the state folder (resumed on start)."""
    from narrator.records.journal import CURRENT, journal_dir

    return (journal_dir(settings.state_dir) / CURRENT).is_file()


def input_method(setting: str, ports: Ports) -> str:
    """The table's input method (phrases.book.INPUT_METHODS) for the `input` setting: auto
    is the pads where the box has them, else the keypad (a laptop, a box without pads).
    Mock pins (GPIOZERO_PIN_FACTORY=mock: a laptop) are no pads anyone can touch."""
    if setting != "auto":
        return setting
    panel = ports.panel
    return "pads" if panel is not None and not getattr(panel, "mock", False) else "keypad"


def _seed(setup: GameSetup, clock: Clock) -> int:
    if setup.deal == "phone":
        # The box deals the roles from this seed: nobody at the table may guess it.
        return secrets.randbits(32)
    return int(clock.now() * 1000) & 0xFFFF_FFFF


def build_ports(settings: Settings, clock: Clock) -> Ports:
    """The real devices named by the settings. A device that can't be opened is logged
    and left out: the game runs on whatever is there."""
    from narrator.voice.pyttsx3_speaker import Pyttsx3Speaker

    voice_settings = settings.voice
    speaker = Pyttsx3Speaker(voice_settings, clock)

    def speakers(lang: str) -> Speaker:
        return Pyttsx3Speaker(replace(voice_settings, language=lang, voice=None), clock)
    from narrator.devices.gpio import GpioSeatPanel
    from narrator.devices.pinmap import load_pin_map

    pin_map = load_pin_map(settings.pins)  # a wrong pin map stops start-up: exit 2
    panel: GpioSeatPanel | None = None
    try:
        panel = GpioSeatPanel(pin_map, clock=clock)
    except DeviceError as exc:
        log.error("no seat pads: %s", exc)
    keypads: list[Keypad] = []
    kind = settings.keypad.kind
    if kind == "terminal":
        from narrator.devices.keypads import TerminalKeypad

        keypads.append(TerminalKeypad())
    elif kind == "evdev":
        from narrator.devices.keypads import EvdevKeypad

        keypads.append(EvdevKeypad(settings.keypad.device))
    elif kind == "matrix" and panel is not None:
        from narrator.devices.matrix import MatrixKeypad

        spec = pin_map.keypad
        if spec is None:
            log.error("keypad: matrix, but the pin map has no keypad pins")
        else:
            keypads.append(MatrixKeypad(spec, pin_factory=panel.factory, clock=clock))
    voice, status = _voice_input(settings, clock)
    return Ports(speaker, panel, keypads, voice, speakers, status, seat_check=pin_map.check_seats)


def _voice_input(settings: Settings, clock: Clock) -> tuple[VoiceInput | None, VoiceStatus]:
    """Voice commands from the microphone, or None when there is none to listen to (the
    status says why; the game then runs on the pads, the keypad and the page). Each game's
    language gets the recognizer the config picks for it, made the first time a game in
    that language begins; a language with no model has voice commands off (the status says
    so). Any other recognizer the config can't give is a ConfigError: exit 2 at start-up."""
    from narrator.voice.listener import Recognizers, VoiceListener
    from narrator.voice.mic import Microphone
    from narrator.voice.recognizers import has_model, make_recognizer

    rs = settings.recognizer
    lang = settings.game.lang
    status = VoiceStatus(None, lang)

    def can_hear(lang: str) -> bool:
        chosen = rs.for_language(lang)
        return has_model(chosen.engine, lang, chosen.model_dir)

    def make(lang: str) -> Recognizer:
        chosen = rs.for_language(lang)
        return make_recognizer(chosen.engine, lang, chosen.model_dir, chosen.wake_word,
                               chosen.adaptation)

    heard = can_hear(lang)
    if not heard:  # logged with the install command when the game begins (_voice_for)
        status.turn_off("voice_no_model")
    if not _has_microphone(rs.device):
        if heard:
            log.warning("no microphone: voice commands are off")
            status.turn_off("voice_off")
        return None, status
    recognizers = Recognizers(can_hear, make)
    recognizer = recognizers.get(lang) if heard else None  # the box's language: at start-up
    return VoiceListener(recognizer, Microphone(rs.device), clock, status=status,
                         recognizers=recognizers, lang=lang), status


def _has_microphone(device: str | int | None) -> bool:
    try:
        import sounddevice

        sounddevice.query_devices(device, kind="input")
    except Exception:
        return False
    return True
