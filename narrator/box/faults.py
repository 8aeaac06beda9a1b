"""The box's own troubles, shown to the organiser: the status LED (on the seat panel) and
the page's notices, for the memory card, the sound device, the microphone, the journal
and an unfinished game that can't be read. None of them stops the evening."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from narrator.box.announcer import Announcer
from narrator.box.notices import Notices
from narrator.box.playing import Playing
from narrator.box.ports import Ports
from narrator.box.referee import Box
from narrator.box.states import CardOutage
from narrator.box.status import LedState, StatusLight
from narrator.clock import Clock
from narrator.engine.effects import Say
from narrator.errors import DeviceError, RecordError
from narrator.records.journal import set_aside
from narrator.voice.speaker import Speaker
from narrator.voice.voice_status import VoiceStatus

log = logging.getLogger("narrator.service")

# A card that refuses the next game's journal (full, read-only) is tried again this often.
CARD_RETRY_SECONDS = 5.0
# ...this many times; then the game begins all the same, unsaved (said, shown).
CARD_TRIES = 3


class Faults:
    def __init__(self, ports: Ports, clock: Clock, playing: Playing, announcer: Announcer) -> None:
        self.ports = ports
        self.clock = clock
        self.playing = playing
        self.announcer = announcer
        self.status_light = StatusLight(self.show_status)
        # The box's own troubles for the organiser's page (the card refuses to save...).
        self.notices = Notices()
        if (fell := ports.voice_fallback) is not None:  # logged when the voice was chosen
            self.notices.set("voice", "voice_fallback", voice=fell.voice, reason=fell.reason,
                             instead=fell.instead)
        self.card = CardOutage(CARD_TRIES)
        self.loop: asyncio.AbstractEventLoop | None = None  # set once the service runs
        announcer.on_speaker.append(self.hear_sound)

    # the memory card
    async def card_refused(self, exc: OSError) -> None:
        """No game can begin: the card refuses its journal (full, read-only), or the last
        game's protocol. Said once an outage, shown on the page and the status LED, tried
        again every CARD_RETRY_SECONDS; nothing the card holds is touched meanwhile."""
        why = f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else "")
        if self.card.refused():
            log.error("no game can begin: the memory card cannot be written (%s); trying "
                      "again every %.0f s", why, CARD_RETRY_SECONDS)
            self.announcer.say_soon([Say("card_unwritable", {})])
        self.notices.set("card", "card_unwritable", reason=why)
        self.status_light.set_fault("card", True)
        await self.clock.sleep(CARD_RETRY_SECONDS)

    def card_ok(self) -> None:
        if self.card.writable() or "card" in self.notices.items:
            log.warning("the memory card can be written again")
        self.notices.clear("card")
        self.status_light.set_fault("card", False)

    def game_unsaved(self) -> None:
        """A game the card can't keep is played all the same: the page and the LED say so."""
        log.error("the memory card still cannot be written: this game is played unsaved")
        self.notices.set("card", "game_unsaved")
        self.status_light.set_fault("card", True)

    def protocol_unsaved(self, box: Box) -> None:
        """The ended game's protocol could not be written (said at its end): the page and
        the status LED say so until it is (tried again before the next game)."""
        session = box.session
        if session.header is not None and session.unsaved is not None:
            self.notices.set("card", "protocol_unsaved", game=session.header.game_id,
                             reason=session.unsaved)
            self.status_light.set_fault("card", True)

    def unreadable(self, exc: RecordError, state_dir: Path, now: float) -> None:
        """The unfinished game's journal can't be resumed at all (its header garbled by a
        power cut on a cheap card, its rule-set file gone): it is kept whole beside it,
        one line in the log and on the page says what and where, and the box waits for a
        new game to be asked for. Exiting instead would end the evening: systemd does not
        restart after exit 2."""
        kept = set_aside(state_dir, now)
        log.error("the unfinished game could not be read (%s); it is kept as %s and a new "
                  "game begins when asked for", exc, kept)
        self.notices.set("record", "journal_unreadable", file=str(kept), reason=str(exc))

    def journal(self, fault: str | None) -> None:
        self.status_light.set_fault("journal", fault is not None)

    # the sound device
    def hear_sound(self, speaker: Speaker) -> None:
        """Follow a speaker's sound device (it tells when it fails or is back; a fake's
        never does), once the service runs on its loop."""
        device = speaker.device
        loop = self.loop
        if device is not None and loop is not None:
            def changed() -> None:  # on the player's thread
                loop.call_soon_threadsafe(self.sound_changed)
            device.on_change = changed

    def sound_changed(self) -> None:
        """The sound device gone (a USB speaker unplugged) or back: the speaker already
        holds each clip's time and tries the device again with the next one; here the
        organiser learns of it: the status LED and a notice on the page, whose live part
        shows each cue as it is said, so that the organiser can read them out meanwhile."""
        lost = next((f"{d.last_error or 'no device'}"
                     for d in (s.device for s in self.announcer.speakers.values())
                     if d is not None and d.failed), None)
        log.warning("sound: %s", f"the device is gone ({lost})" if lost else "back")
        self.status_light.set_fault("sound", lost is not None)
        if lost is None:
            self.notices.clear("sound")
        else:
            self.notices.set("sound", "sound_lost", error=lost)

    # the microphone
    def voice_changed(self, status: VoiceStatus) -> None:
        """The microphone went away mid-game: say so once, blink the status LED; the game
        goes on (the page shows it from the same status). A language with no model is told
        when its game begins (Announcer.voice_for)."""
        log.warning("voice commands: %s", status.off or "on")
        self.status_light.set_fault("microphone", status.off == "voice_mic_lost")
        box = self.playing.box
        if box is not None and status.off == "voice_mic_lost":
            self.announcer.voice_told.mark(status.off, "")
            box.performer.submit([Say(status.off, {})])

    def show_status(self, state: LedState) -> None:
        if self.ports.panel is not None:
            try:
                self.ports.panel.set_status(state)
            except DeviceError as exc:  # the panel not started yet: start_up shows it
                log.debug("status LED: %s", exc)
