"""The host's game-changing requests: the keypad's start key, the abandon and the forfeit
(asked for again within CONFIRM_SECONDS, or confirmed by voice with "yes"), and the short
answer to a key or command the box refuses."""

from __future__ import annotations

import contextlib

from narrator.box.announcer import Announcer
from narrator.box.evening import Evening, EveningError
from narrator.box.playing import Playing
from narrator.box.ports import Ports
from narrator.box.referee import Box
from narrator.box.states import Confirmation, KeyTyping
from narrator.box.status import BOX_CUES
from narrator.clock import Clock
from narrator.engine.actions import Action, Forfeit
from narrator.engine.effects import Say
from narrator.evening import SetupError
from narrator.voice.command_confirm import Ask

# The keypad's game-changing keys (abandon /0 Enter, forfeit //N Enter) wait this long for
# the same keys again, which confirm them. Counted from the first keys: the question takes
# a few seconds to say, and the host types again once it is said.
CONFIRM_SECONDS = 15.0


class Desk:
    def __init__(self, ports: Ports, clock: Clock, evening: Evening, playing: Playing,
                 announcer: Announcer) -> None:
        self.ports = ports
        self.clock = clock
        self.evening = evening
        self.playing = playing
        self.announcer = announcer
        self.typing = KeyTyping()  # keypad keys typed since the last Enter
        # The keypad's first abandon or forfeit, waiting for its confirmation.
        self.confirmation = Confirmation(CONFIRM_SECONDS)

    def key(self, key: str) -> None:
        """Every keypad key: a bare Enter (the keypad's start key: nothing typed before it)
        between games starts the next one; it makes no action of its own."""
        bare_enter = self.typing.key(key)
        if bare_enter and not self.evening.in_play and not self.evening.starting:
            with contextlib.suppress(EveningError, SetupError):  # held, or unplayable here
                self.evening.next()

    def abandon(self, source: str) -> None:
        """Abandon the game in play: the voice's comes confirmed ("yes"); the keypad's
        (/0 Enter) is asked for again within the confirmation time."""
        box = self.playing.box
        held = self.evening.held
        if held is None and (box is None or not self.evening.in_play):
            return
        if source == "keypad" and not self._confirmed("abandon", Say("confirm_abandon", {})):
            return
        self.confirmation.clear()
        with contextlib.suppress(EveningError):
            self.evening.abandon()
            if held is not None:
                self.announcer.say_soon([Say("game_abandoned", {})], held.setup.lang)

    def forfeit(self, box: Box, action: Forfeit) -> None:
        """The keypad's forfeit (//N Enter: a severe breach gives the game to the other
        team, sport 001) ends the game: asked for again within the confirmation time, like
        the abandon. Where the rules have no forfeit it is refused at once."""
        if not box.game.engine.rules.forfeit:
            self.refused(action, "keypad")
            return
        if self._confirmed(f"forfeit {action.seat}", Say("confirm_forfeit", {"seat": action.seat})):
            box.submit(action, "keypad")

    def _confirmed(self, what: str, ask: Say) -> bool:
        """A game-changing key counts when the same keys come again within CONFIRM_SECONDS;
        the first time the box says `ask` and waits."""
        if self.confirmation.confirm(what, self.clock.now()):
            return True
        held = self.evening.held
        if held is not None:  # no game's performer: said between games
            self.announcer.say_soon([ask], held.setup.lang)
        elif self.playing.box is not None:
            self.playing.box.performer.submit([ask])
        return False

    def refused(self, action: Action, source: str) -> None:
        """A key or voice command the box refuses gets a short neutral answer in the day
        (paused too: the game is halted, and the host must hear why the key did nothing);
        at night nothing at all (even a refusal could tell who acts)."""
        box = self.playing.box
        if box is None or source not in ("keypad", "voice"):
            return
        if box.game.state.phase == "day":
            box.performer.submit([Say("not_now", {})])

    def voice_decision(self, decision: object) -> None:
        """A destructive voice command waits for "yes": the box repeats it first."""
        box = self.playing.box
        if not isinstance(decision, Ask) or box is None:
            return
        command = decision.command
        if command.command == "forfeit" and not box.game.engine.rules.forfeit:
            # These rules give no game away: refused at once, not asked first ("yes" would
            # only be refused then), as the keypad's //N Enter is.
            if self.ports.voice is not None:
                self.ports.voice.confirmer.cancel()
            self.refused(Forfeit(command.seat or 0), "voice")
            return
        if command.seat is not None:
            cue = Say(f"confirm_{command.command}", {"seat": command.seat})
        else:
            cue = Say(f"confirm_{command.command}", {})
        if cue.cue in BOX_CUES:
            box.performer.submit([cue])
