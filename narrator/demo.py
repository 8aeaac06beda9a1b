"""The demo: a whole game at a table of simulated players, on mock pins and a fake keypad.

The box learns the roles from the players' taps at night zero, as at a real table, and
everything the players do goes through the pads and the keypad. The voice is the real
one: through the speakers, or into a WAV file where there is no sound device. `fast`
runs it all on a virtual clock.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from narrator.box.build import build
from narrator.box.referee import Box
from narrator.box.session import Session, Unrecorded
from narrator.clock import Clock, FakeClock, MonotonicClock
from narrator.devices.keypads import FakeKeypad
from narrator.devices.sound_devices import has_output
from narrator.engine.actions import Action
from narrator.engine.deal import deal
from narrator.engine.effects import Effect
from narrator.engine.game import Game
from narrator.engine.ruleset import RuleSet
from narrator.errors import NarratorError
from narrator.phrases.book import PhraseBook
from narrator.records.journal import GameHeader
from narrator.records.session import GameSession, ProtocolFiles
from narrator.sim.driver import PadPlayers, table_panel
from narrator.sim.players import Table
from narrator.voice.fake import FakeSpeaker
from narrator.voice.recording import RecordingSpeaker
from narrator.voice.speaker import Speaker
from narrator.voice.voice_config import VoiceSettings

log = logging.getLogger("narrator.demo")


@dataclass(frozen=True)
class DemoOptions:
    rules: RuleSet
    seats: int
    seed: int = 1
    lang: str = "en"
    fast: bool = False
    out: Path | None = None  # a WAV to speak into (None: the sound device, if any)
    voice: VoiceSettings | None = None
    state_dir: Path | None = None  # journal and protocols; an unfinished game there resumes
    rules_spec: str = ""  # how to load the rules again on a resume (default: the name)
    settings: Mapping[str, Any] = field(default_factory=dict)  # the rule-set settings given
    foul_rate: float = 0.02  # how often the simulated host gives a foul at a moment
    names: tuple[str, ...] = ()  # the players' names by seat (checked by the caller)
    keypad_only: bool = False  # the players use the keypad alone (`--input keypad`)


@dataclass
class DemoResult:
    box: Box
    cards: list[str]
    wav: Path | None = None
    resumed: bool = False
    files: ProtocolFiles | None = None

    def protocol(self) -> dict[str, Any]:
        st = self.box.game.state
        return {
            "winner": st.outcome.winner if st.outcome else None,
            "eliminations": [{"seat": e.seat, "phase": e.phase, "number": e.number, "how": e.how}
                             for e in st.eliminations],
            "timeline": [s.to_json() for s in self.box.performer.spoken],
            "inputs": dict(self.box.inputs),  # accepted inputs by device
            "night_inputs": dict(self.box.night_inputs),  # of them, those given at night
        }


def choose_mode(options: DemoOptions) -> DemoOptions:
    """Where there is no sound device nobody hears the game live: play it on the virtual
    clock and keep its audio in a WAV file instead."""
    if options.out is None and not options.fast and not has_output():
        out = (options.state_dir or Path(".")) / "narrator-demo.wav"
        log.warning("no sound device: the demo runs on a virtual clock and speaks into %s", out)
        return replace(options, fast=True, out=out)
    return options


async def play_demo(options: DemoOptions,
                    on_effects: Callable[[float, Action | None, list[Effect]], None] | None = None,
                    ) -> DemoResult:
    clock: Clock = FakeClock() if options.fast else MonotonicClock()
    session, opening, resumed = _session(options)
    lang = session.header.lang if session.header is not None else options.lang
    # The players are told to give their inputs the way this table does.
    book = PhraseBook.load(lang).for_rules(session.game.engine.rules.name).for_input(
        "keypad" if options.keypad_only else "pads")
    voice = options.voice or VoiceSettings(language=lang)
    speaker: Speaker
    recording: RecordingSpeaker | None = None
    out = options.out
    if out is not None:
        recording = RecordingSpeaker(voice, clock, out)
        speaker = recording
    elif options.fast:
        speaker = FakeSpeaker(clock, lang, voice.rate)
    else:
        from narrator.voice.pyttsx3_speaker import Pyttsx3Speaker

        speaker = Pyttsx3Speaker(voice, clock)
    game = session.game
    rules = game.engine.rules
    seats, seed = game.state.seats, _seed_of(session, options)
    cards = deal(rules, seats, seed)  # the players' cards: the box learns them at night zero
    panel, press = table_panel(seats, clock)
    keypad = FakeKeypad()
    box = build(session, speaker, book, clock, panel=panel, on_pause=[keypad.set_paused])
    result = DemoResult(box, cards, out, resumed)
    if on_effects is not None:
        box.listeners.append(lambda action, effects: on_effects(clock.now(), action, effects))
    table = Table(rules, seed, foul_rate=options.foul_rate, cards=cards)
    PadPlayers(box, table, press, keypad, clock, seed, keypad_only=options.keypad_only)
    panel.start(partial(box.submit, source="pads"))
    box.spawn("keypad", lambda: keypad.run(partial(box.submit, source="keypad")), restart=True)
    box.start(opening)
    try:
        if isinstance(clock, FakeClock):
            over = asyncio.get_running_loop().create_task(box.wait_over())
            while not over.done():
                await clock.run_until_idle(done=over.done)
                await asyncio.sleep(0)
                if not over.done() and clock.next_deadline() is None:
                    raise NarratorError(f"the demo is stuck at {game.state.phase_label()}")
            await over
        else:
            await box.wait_over()
    finally:
        await box.stop()
        keypad.close()
        panel.close()
    if recording is not None:
        result.wav = recording.write()
    result.files = session.files
    return result


def _session(options: DemoOptions) -> tuple[Session, list[Effect], bool]:
    """A new game, or the unfinished one in the state folder (then its header wins)."""
    if options.state_dir is None:
        game = Game(options.rules, options.seats, options.seed)
        return Unrecorded(game), list(game.opening), False
    found = GameSession.resume(options.state_dir)
    if found is not None:
        session, opening = found
        log.warning("resuming the unfinished game %s", session.header.game_id)
        return session, opening, True
    from narrator.rules.settings import resolved

    # Every setting's value (options.rules already plays by the given ones, so applying
    # them again changes nothing): the journal replays exactly this game.
    header = GameHeader(rules=options.rules_spec or options.rules.name, seats=options.seats,
                        seed=options.seed, lang=options.lang,
                        settings=resolved(options.rules, options.settings), names=options.names,
                        input="keypad" if options.keypad_only else "pads")
    session, opening = GameSession.start(options.state_dir, header)
    return session, opening, False


def _seed_of(session: Session, options: DemoOptions) -> int:
    return session.header.seed if session.header is not None else options.seed
