"""The demo: a whole game at a table of simulated players, on mock pins and a fake keypad.

The box learns the roles from the players' taps at night zero, as at a real table, and
everything the players do goes through the pads and the keypad. The voice is the real
one: through the speakers, or into a WAV file where there is no sound device. `fast`
runs it all on a virtual clock.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from narrator.clock import Clock, FakeClock, MonotonicClock
from narrator.daemon import Box
from narrator.devices.fake import FakeSeatPanel
from narrator.devices.gpio import GpioSeatPanel, mock_pin_factory
from narrator.devices.keypads import FakeKeypad
from narrator.devices.panel import BoardPanel
from narrator.devices.pinmap import GpioPads, load_pin_map
from narrator.engine.actions import Action
from narrator.engine.effects import Effect
from narrator.engine.game import Game
from narrator.engine.ruleset import RuleSet
from narrator.errors import NarratorError
from narrator.performer import Performer
from narrator.phrases.book import PhraseBook
from narrator.sim.driver import PadPlayers, Press
from narrator.sim.players import Table
from narrator.sim.selfplay import deal
from narrator.voice.fake import FakeSpeaker
from narrator.voice.recording import RecordingSpeaker
from narrator.voice.settings import VoiceSettings
from narrator.voice.speaker import Speaker
from narrator.windows import WindowTimers

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


@dataclass
class DemoResult:
    box: Box
    cards: list[str]
    wav: Path | None = None
    log: list[str] = field(default_factory=list)

    def protocol(self) -> dict[str, Any]:
        st = self.box.game.state
        return {
            "winner": st.outcome[1] if st.outcome else None,
            "eliminations": [{"seat": s, "phase": p, "number": n, "how": h}
                             for s, h, p, n in st.eliminations],
            "timeline": [s.to_json() for s in self.box.performer.spoken],
        }


def has_sound_device() -> bool:
    try:
        import sounddevice

        sounddevice.query_devices(kind="output")
    except Exception:
        return False
    return True


def _table_panel(seats: int, clock: Clock) -> tuple[BoardPanel, Press]:
    """Mock GPIO pins when the packaged pin map fits the table, else the fake panel."""
    pin_map = load_pin_map()
    if pin_map.seats == seats and isinstance(pin_map.pads, GpioPads):
        factory = mock_pin_factory()
        panel = GpioSeatPanel(pin_map, pin_factory=factory, clock=clock)
        pads = pin_map.pads

        def press(seat: int, down: bool) -> None:
            pin = factory.pin(pads.pins[seat - 1])
            if down == pads.active_high:
                pin.drive_high()
            else:
                pin.drive_low()

        return panel, press
    fake = FakeSeatPanel(seats, clock)
    return fake, lambda seat, down: fake.press(seat) if down else fake.release(seat)


def choose_mode(options: DemoOptions) -> DemoOptions:
    """Where there is no sound device nobody hears the game live: play it on the virtual
    clock and keep its audio in a WAV file instead."""
    if options.out is None and not options.fast and not has_sound_device():
        out = Path("narrator-demo.wav")
        log.warning("no sound device: the demo runs on a virtual clock and speaks into %s", out)
        return replace(options, fast=True, out=out)
    return options


async def play_demo(options: DemoOptions,
                    on_effects: Callable[[float, Action | None, list[Effect]], None] | None = None,
                    ) -> DemoResult:
    clock: Clock = FakeClock() if options.fast else MonotonicClock()
    rules = options.rules
    book = PhraseBook.load(options.lang)
    voice = options.voice or VoiceSettings(language=options.lang)
    speaker: Speaker
    recording: RecordingSpeaker | None = None
    out = options.out
    if out is not None:
        recording = RecordingSpeaker(voice, clock, out)
        speaker = recording
    elif options.fast:
        speaker = FakeSpeaker(clock, options.lang, voice.rate)
    else:
        from narrator.voice.pyttsx3_speaker import Pyttsx3Speaker

        speaker = Pyttsx3Speaker(voice, clock)
    cards = deal(rules, options.seats, options.seed)
    game = Game(rules, options.seats, options.seed)
    panel, press = _table_panel(options.seats, clock)
    keypad = FakeKeypad()
    boxes: list[Box] = []
    timers = WindowTimers(clock, on_expire=lambda w: boxes[0].window_expired(w))
    performer = Performer(speaker, book, timers, panel)
    box = Box(game, performer, clock)
    boxes.append(box)
    result = DemoResult(box, cards, out)
    if on_effects is not None:
        box.listeners.append(lambda action, effects: on_effects(clock.now(), action, effects))
    PadPlayers(box, Table(rules, options.seed, cards=cards), press, keypad, clock, options.seed)
    panel.start(box.submit)
    box.spawn("keypad", lambda: keypad.run(box.submit), restart=True)
    box.start(game.opening)
    try:
        if isinstance(clock, FakeClock):
            over = asyncio.get_running_loop().create_task(box.wait_over())
            while not over.done():
                await clock.run_until_idle()
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
    return result
