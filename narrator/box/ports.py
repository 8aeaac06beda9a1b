"""The service's ports: every device the box may have, and each capability the service
relies on, declared here (a Protocol) rather than looked up at run time."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from narrator.devices.keypads import Keypad
from narrator.devices.panel import SeatPanel
from narrator.engine.actions import Action
from narrator.voice.command_confirm import Decision
from narrator.voice.speaker import Speaker
from narrator.voice.voice_status import VoiceStatus

if TYPE_CHECKING:
    from narrator.voice.proof import Fallback

Sink = Callable[[Action], None]


class Cancellable(Protocol):
    """Voice confirmation waiting for "yes" (narrator.voice.command_confirm.Confirmer)."""

    def cancel(self) -> None: ...


class VoiceInput(Protocol):
    """Voice commands: runs until stopped, handing actions to the sink; muted while the
    box speaks so it never hears itself. `status` says why it is off (the service hands
    it the one the page shows); `on_decision` hears each confirmation step, `confirmer`
    forgets a command the box refuses before asking; `use_language` follows each game's
    language (narrator.voice.listener.VoiceListener)."""

    status: VoiceStatus
    on_decision: Callable[[Decision], None]

    @property
    def confirmer(self) -> Cancellable: ...

    async def run(self, sink: Sink) -> None: ...

    def mute(self, on: bool) -> None: ...

    def use_language(self, lang: str) -> None: ...


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
    # The voice the box would have spoken with, had it rendered (the page says so).
    voice_fallback: Fallback | None = None


def input_method(setting: str, ports: Ports) -> str:
    """The table's input method (phrases.book.INPUT_METHODS) for the `input` setting: auto
    is the pads where the box has them, else the keypad (a laptop, a box without pads).
    Mock pins (GPIOZERO_PIN_FACTORY=mock: a laptop) are no pads anyone can touch."""
    if setting != "auto":
        return setting
    panel = ports.panel
    return "pads" if panel is not None and not panel.mock else "keypad"
