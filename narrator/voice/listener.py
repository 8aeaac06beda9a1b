"""The voice input the daemon runs: microphone -> mute gate -> recognizer -> confirmation
-> engine actions. It fits `narrator.box.ports.VoiceInput` (`run(sink)`, `mute(on)`).

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
    yield from listen_switching(lambda: recognizer, chunks, gate)


def listen_switching(current: Callable[[], Recognizer | None], chunks: Iterable[bytes],
                     gate: MuteGate | None = None) -> Iterator[Command]:
    """`listen` with the recognizer `current()` gives at each chunk (None: nothing hears
    this game's language, the chunk goes by). An utterance half-heard when the recognizer
    changes (a game in another language begins) is dropped."""
    heard: Recognizer | None = None
    for chunk in chunks:
        recognizer = current()
        if recognizer is not heard:
            if heard is not None:
                heard.flush()
            heard = recognizer
        if recognizer is None:
            continue
        if gate is None or gate.is_open():
            yield from recognizer.accept(chunk)
        else:
            recognizer.skip(chunk)
    last = heard if heard is not None else current()
    if last is not None:
        yield from last.flush()


class Recognizers:
    """The recognizer for each language a game is played in, made the first time a game in
    that language begins and kept for the rest of the run: loading one takes seconds and
    tens of MB (pocketsphinx's model, a Vosk model), so never once per game. `can_hear`
    (is a model there) is cheap and asked on the loop; `get` loads, off the loop."""

    def __init__(self, can_hear: Callable[[str], bool], make: Callable[[str], Recognizer],
                 made: dict[str, Recognizer] | None = None) -> None:
        self._can_hear = can_hear
        self._make = make
        self._made: dict[str, Recognizer] = dict(made or {})
        self._lock = threading.Lock()
        self.loads = 0  # recognizers made here (not those handed in)

    def can_hear(self, lang: str) -> bool:
        return lang in self._made or self._can_hear(lang)

    def get(self, lang: str) -> Recognizer:
        with self._lock:
            recognizer = self._made.get(lang)
            if recognizer is None:
                recognizer = self._made[lang] = self._make(lang)
                self.loads += 1
            return recognizer


class VoiceListener:
    """`on_decision` hears every confirmation step (Ask: repeat the command and wait;
    Drop; Answer: a yes/no with nothing pending), so the daemon can speak or show them."""

    def __init__(self, recognizer: Recognizer | None, microphone: Microphone, clock: Clock,
                 gate: MuteGate | None = None, confirmer: Confirmer | None = None,
                 on_decision: Callable[[Decision], None] | None = None,
                 status: VoiceStatus | None = None, recognizers: Recognizers | None = None,
                 lang: str = "en") -> None:
        # None while nothing hears the game's language (no model, or one still loading).
        self.recognizer = recognizer
        self.recognizers = recognizers
        self.lang = lang
        self.loading: asyncio.Task[None] | None = None
        self.microphone = microphone
        self.gate = gate or MuteGate(clock)
        self.confirmer = confirmer or Confirmer(clock)
        self.on_decision = on_decision or (lambda _d: None)
        self.status = status or VoiceStatus()
        self._sink: Callable[[Action], None] | None = None

    def mute(self, on: bool) -> None:
        self.gate.set(on)

    def use_language(self, lang: str) -> None:
        """A game in `lang` begins (call on the loop): its recognizer hears from now on,
        loaded in the background the first time; until it is there, and when no model
        hears `lang`, nothing is heard (the status says so)."""
        if self.recognizers is None or lang == self.lang:
            return
        self.lang = lang
        self.recognizer = None  # the last game's language is not heard meanwhile
        heard = self.recognizers.can_hear(lang)
        self.status.set_language(lang, heard)
        if heard:
            self.loading = asyncio.get_running_loop().create_task(self._load(lang))

    async def _load(self, lang: str) -> None:
        assert self.recognizers is not None
        try:
            recognizer = await asyncio.to_thread(self.recognizers.get, lang)
        except Exception:
            log.exception("cannot load the recognizer for %r: voice commands are off", lang)
            if self.lang == lang:
                self.status.set_language(lang, False)
            return
        if self.lang == lang:  # not another game's language by now
            self.recognizer = recognizer

    def confirm_key(self) -> None:
        """The keypad's confirm key was pressed."""
        self._decide(self.confirmer.key())

    async def run(self, sink: Callable[[Action], None]) -> None:
        loop = asyncio.get_running_loop()
        stop = threading.Event()
        self._sink = sink

        def work() -> None:
            chunks = self.microphone.chunks(stop)
            for command in listen_switching(lambda: self.recognizer, chunks, self.gate):
                loop.call_soon_threadsafe(self.heard, command)

        if self.status.off in ("voice_off", "voice_mic_lost"):
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
