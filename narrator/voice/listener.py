"""The voice input the daemon runs: microphone -> mute gate -> recognizer -> confirmation
-> engine actions. It fits `narrator.service.VoiceInput` (`run(sink)`, `mute(on)`).

Echo: the box never hears itself because the daemon closes the mute gate around every cue
it plays (and for MuteGate's tail after it); the recognizer drops what it had of an
utterance when the gate closes. A microphone that goes away mid-game turns voice
commands off for the rest of the run (the status says why; the game goes on on pads,
keypad and page) instead of being retried every few seconds.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Iterable, Iterator

from narrator.clock import Clock
from narrator.engine.actions import Action
from narrator.errors import DeviceError
from narrator.voice.command_confirm import Act, Confirmer, Decision
from narrator.voice.commands import Command, to_action
from narrator.voice.mic import Microphone, MuteGate
from narrator.voice.recognizer import Recognizer
from narrator.voice.voice_status import VoiceStatus

log = logging.getLogger("narrator.voice")


def listen(recognizer: Recognizer, chunks: Iterable[bytes],
           gate: MuteGate | None = None) -> Iterator[Command]:
    """Commands from a live stream; chunks that arrive while the gate is closed go by unheard."""
    for chunk in chunks:
        if gate is None or gate.is_open():
            yield from recognizer.accept(chunk)
        else:
            recognizer.skip(chunk)
    yield from recognizer.flush()


class VoiceListener:
    """`on_decision` hears every confirmation step (Ask: repeat the command and wait;
    Drop; Answer: a yes/no with nothing pending), so the daemon can speak or show them."""

    def __init__(self, recognizer: Recognizer, microphone: Microphone, clock: Clock,
                 gate: MuteGate | None = None, confirmer: Confirmer | None = None,
                 on_decision: Callable[[Decision], None] | None = None,
                 status: VoiceStatus | None = None) -> None:
        self.recognizer = recognizer
        self.microphone = microphone
        self.gate = gate or MuteGate(clock)
        self.confirmer = confirmer or Confirmer(clock)
        self.on_decision = on_decision or (lambda _d: None)
        self.status = status or VoiceStatus()
        self._sink: Callable[[Action], None] | None = None

    def mute(self, on: bool) -> None:
        self.gate.set(on)

    def confirm_key(self) -> None:
        """The keypad's confirm key was pressed."""
        self._decide(self.confirmer.key())

    async def run(self, sink: Callable[[Action], None]) -> None:
        loop = asyncio.get_running_loop()
        stop = threading.Event()
        self._sink = sink

        def work() -> None:
            for command in listen(self.recognizer, self.microphone.chunks(stop), self.gate):
                loop.call_soon_threadsafe(self.heard, command)

        if not self.status.on:
            await asyncio.Event().wait()  # off for good: the supervisor must not retry
        try:
            await asyncio.to_thread(work)
        except DeviceError as exc:
            log.error("voice commands off: %s", exc)
            self.status.turn_off("voice_mic_lost")
            await asyncio.Event().wait()
        finally:
            stop.set()

    def heard(self, command: Command) -> None:
        log.info("heard %s", command.to_json())
        self._decide(self.confirmer.hear(command))

    def _decide(self, decisions: list[Decision]) -> None:
        for decision in decisions:
            self.on_decision(decision)
            if isinstance(decision, Act) and self._sink is not None:
                action = to_action(decision.command)
                if action is not None:
                    self._sink(action)
