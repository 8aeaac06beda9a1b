"""The real devices named by the settings, for `narrator run` (tests give fakes)."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING

from narrator.box.ports import Ports, VoiceInput
from narrator.boxconfig import Settings
from narrator.clock import Clock
from narrator.devices.keypads import Keypad
from narrator.devices.sound_devices import has_input
from narrator.errors import DeviceError
from narrator.keypad_kinds import Wiring, keypad_kind
from narrator.voice.speaker import Speaker
from narrator.voice.voice_status import VoiceStatus

if TYPE_CHECKING:
    from narrator.voice.recognizer import Recognizer

log = logging.getLogger("narrator.service")


def build_ports(settings: Settings, clock: Clock) -> Ports:
    """The real devices named by the settings. A device that can't be opened is logged
    and left out: the game runs on whatever is there."""
    from narrator.boards import read_board
    from narrator.phrases.numbers import LANGUAGES
    from narrator.voice.proof import choose
    from narrator.voice.pyttsx3_speaker import Pyttsx3Speaker

    # The named voice if it renders, else the best one that renders and fits the board.
    allowed = read_board().voices(settings.recognizer.for_language(settings.game.lang).engine)
    voice_settings, fallback = choose(settings.voice, allowed)
    speaker = Pyttsx3Speaker(voice_settings, clock)
    # The other languages' voices are proven now, before READY: a proof is a render (a
    # neural voice's start takes seconds), never to be waited for inside the event loop.
    others = {lang: choose(replace(settings.voice, language=lang, voice=None), allowed)[0]
              for lang in LANGUAGES if lang != voice_settings.language}

    def speakers(lang: str) -> Speaker:
        return Pyttsx3Speaker(others.get(lang) or replace(settings.voice, language=lang, voice=None),
                              clock)
    from narrator.devices.gpio import GpioSeatPanel
    from narrator.devices.pinmap import load_pin_map

    pin_map = load_pin_map(settings.pins)  # a wrong pin map stops start-up: exit 2
    panel: GpioSeatPanel | None = None
    try:
        panel = GpioSeatPanel(pin_map, clock=clock)
    except DeviceError as exc:
        log.error("no seat pads: %s", exc)
    wiring = Wiring(settings.keypad.device, pin_map, panel.factory if panel else None, clock,
                    settings.game.lang)
    keypad = keypad_kind(settings.keypad.kind).build(wiring)
    keypads: list[Keypad] = [keypad] if keypad is not None else []
    voice, status = _voice_input(settings, clock)
    return Ports(speaker, panel, keypads, voice, speakers, status, seat_check=pin_map.check_seats,
                 voice_fallback=fallback)


def _voice_input(settings: Settings, clock: Clock) -> tuple[VoiceInput | None, VoiceStatus]:
    """Voice commands from the microphone, or None when there is none to listen to (the
    status says why; the game then runs on the pads, the keypad and the page). Each game's
    language gets the recognizer the config picks for it, made the first time a game in
    that language begins; a language with no model has voice commands off (the status says
    so). Any other recognizer the config can't give is a ConfigError: exit 2 at start-up."""
    from narrator.boards import front_end_for, read_board
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
        front = chosen.front_end if chosen.front_end != "auto" else \
            front_end_for(read_board())
        return make_recognizer(chosen.engine, lang, chosen.model_dir, chosen.wake_word,
                               chosen.adaptation, front)

    heard = can_hear(lang)
    if not heard:  # logged with the install command when the game begins (Announcer.voice_for)
        status.turn_off("voice_no_model")
    if not has_input(rs.device):
        if heard:
            log.warning("no microphone: voice commands are off")
            status.turn_off("voice_off")
        return None, status
    recognizers = Recognizers(can_hear, make)
    recognizer = recognizers.get(lang) if heard else None  # the box's language: at start-up
    return VoiceListener(recognizer, Microphone(rs.device), clock, status=status,
                         recognizers=recognizers, lang=lang), status

