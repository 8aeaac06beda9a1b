"""What the box says and shows about itself (not about the game's rules): ready, a new
game, where a resumed game stands, voice commands off, confirmations of voice commands;
and the status LED (StatusLight).

BOX_CUES lists the cues with their parameters, like narrator.engine.cues.ENGINE_CUES;
both phrase books have a text for each.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from narrator.engine.effects import Say
from narrator.engine.state import State
from narrator.engine.tasks import LiftVote, SpeechTask, VoteOn

BOX_CUES: dict[str, tuple[str, ...]] = {
    "ready": (),  # start-up done: cache rendered, recognizer loaded, pads live
    "new_game": (),
    "status_night": ("day",),  # a resumed game: "We continue the game: night two."
    "status_day": ("day",),
    "status_speaker": ("day", "seat"),  # "... day three, player number five is speaking."
    "status_voting": ("day",),
    "voice_off": (),  # no microphone: the game runs on pads and keypad
    "voice_no_model": (),  # no speech model for the game's language (Russian without Vosk)
    "voice_mic_lost": (),  # the microphone went away mid-game
    "confirm_foul": ("seat",),  # a voice command waiting for "yes"
    "confirm_undo": (),
    "confirm_abandon": (),  # the keypad's or the voice's abandon, waiting for a second word
    "game_abandoned": (),
    "protocol_saved": (),  # the game is over and its protocol files are written
    "not_now": (),  # a key or voice command refused in the day (never said at night)
    "confirm_nominate": ("seat",),
    "confirm_remove": ("seat",),
    "confirm_forfeit": ("seat",),  # the keypad's //N Enter, waiting for the same keys again
    "web_page": ("address", "port"),  # the organiser's page, said once at start-up (never its PIN)
    "web_page_off": (),  # ...or that it is off: its port is taken (said in its place)
    # A fault stops the game (the journal can't be written): the same words whatever
    # happened at the table, so they carry nothing; then the game goes on.
    "technical_pause": (),
    "technical_resume": (),
    # A resumed journal had a damaged line: the game goes on from the step before it.
    "journal_repaired": (),
    # The unfinished game's journal could not be read at all: kept aside, a new game.
    "journal_unreadable": (),
    # The unfinished game found on start needs what this box lacks now (an answer display,
    # pads): it is not played; the page says why (narrator.box.evening.Held).
    "resume_refused": (),
    # The memory card refused the ended game's protocol (it is written when the card
    # takes it), or any new game's journal (the box waits and tries again).
    "protocol_unsaved": (),
    "card_unwritable": (),
    "game_unsaved": (),  # ...for so long that a game is played unsaved
    # Restarted between games: the next game starts when asked for (Enter, page, voice).
    "between_games": (),
    "waiting_setup": (),  # a box that has not played yet waits to be set up (nothing starts unasked)
}


def where_we_are(state: State) -> Say:
    """The cue that tells the table where a resumed game stands. Public facts only."""
    task = state.current
    if state.phase == "night":
        return Say("status_night", {"day": state.number})
    if isinstance(task, SpeechTask):
        return Say("status_speaker", {"day": state.number, "seat": task.seat})
    if isinstance(task, VoteOn | LiftVote):
        return Say("status_voting", {"day": state.number})
    return Say("status_day", {"day": state.number})


LedState = Literal["off", "ready", "game", "paused", "error"]


class StatusLight:
    """What the status LED shows, from what the box knows about itself: a fault (the
    journal can't be written, the microphone is lost) beats a pause, a pause beats a game
    running, and with no game the box is ready. `show` is called on every change."""

    def __init__(self, show: Callable[[LedState], None]) -> None:
        self._show = show
        self.game = False
        self.paused = False
        self.faults: set[str] = set()
        self.state: LedState = "off"

    def state_now(self) -> LedState:
        if self.faults:
            return "error"
        if self.game:
            return "paused" if self.paused else "game"
        return "ready"

    def _update(self) -> None:
        state = self.state_now()
        if state != self.state:
            self.state = state
            self._show(state)

    def set_game(self, running: bool) -> None:
        self.game = running
        self.paused = False
        self._update()

    def set_paused(self, paused: bool) -> None:
        self.paused = paused
        self._update()

    def set_fault(self, name: str, on: bool) -> None:
        """`name`: which fault ("journal", "microphone"): each clears on its own."""
        if on:
            self.faults.add(name)
        else:
            self.faults.discard(name)
        self._update()
