"""What the box says about itself (not about the game's rules): ready, a new game, where a
resumed game stands, voice commands off, confirmations of voice commands.

BOX_CUES lists them with their parameters, like narrator.engine.cues.ENGINE_CUES; both
phrase books have a text for each.
"""

from __future__ import annotations

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
    "web_page": ("address", "port", "pin"),  # the organiser's page, said once at start-up
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
