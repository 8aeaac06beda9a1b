"""Words between games, when no game's performer is there to say them (in order, never
over each other), the speaker of each language, and what is said once an evening: the
page's address (`announce`) and why voice commands are off."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from narrator.box.playing import Playing
from narrator.box.ports import Ports
from narrator.box.referee import Box
from narrator.box.states import Announcement, ToldOnce
from narrator.engine.effects import Effect, Say
from narrator.errors import DeviceError
from narrator.phrases.book import PhraseBook
from narrator.voice.speaker import Speaker
from narrator.voice.voice_status import VoiceStatus, install_hint

log = logging.getLogger("narrator.service")


class Announcer:
    def __init__(self, ports: Ports, lang: str, playing: Playing,
                 default_lang: Callable[[], str]) -> None:
        self.ports = ports
        self.playing = playing
        self.default_lang = default_lang  # the evening's set-up's language
        self.announce: list[Effect] = []  # said once after "ready" (the page's address)
        self.announcement = Announcement()
        self.voice_told = ToldOnce()  # (why voice is off, language) said
        self.speakers: dict[str, Speaker] = {lang: ports.speaker}
        self.on_speaker: list[Callable[[Speaker], None]] = []  # hears of each new speaker
        self._saying: asyncio.Task[None] | None = None

    def speaker(self, lang: str) -> Speaker:
        if lang not in self.speakers:
            make = self.ports.speakers
            self.speakers[lang] = make(lang) if make is not None else self.ports.speaker
            for hear in self.on_speaker:
                hear(self.speakers[lang])
        return self.speakers[lang]

    async def say_now(self, cue: str, lang: str | None = None) -> None:
        """A word between games, when no game's performer is there to say it."""
        await self.say_all([Say(cue, {})], lang)

    async def say_all(self, cues: list[Effect], lang: str | None = None) -> None:
        lang = lang or self.default_lang()
        book = PhraseBook.load(lang).for_input(self.playing.input_method)
        for cue in cues:
            if not isinstance(cue, Say):
                continue
            try:
                text = book.render(cue.cue, cue.params)
                log.info("say: %s", text)  # as the performer logs what it says
                await self.speaker(lang).say(text)
            except DeviceError as exc:
                log.error("cannot say %s: %s", cue.cue, exc)

    def say_soon(self, cues: list[Effect], lang: str | None = None) -> None:
        """Say these after whatever is being said between games (in order, never over it)."""
        before = self._saying

        async def say() -> None:
            if before is not None:
                with contextlib.suppress(Exception):
                    await before
            await self.say_all(cues, lang)

        self._saying = asyncio.get_running_loop().create_task(say())

    def heard(self, box: Box) -> None:
        """Whether the ended game's box said the page's address (all of `announce`)."""
        cues = {e.cue for e in self.announce if isinstance(e, Say)}
        if cues <= {s.cue for s in box.performer.spoken}:
            self.announcement.done()

    def page_address(self) -> list[Effect]:
        """Once an evening, but said: a game abandoned before its box got to it carries it
        over to the next game's opening."""
        return [] if self.announcement.said else list(self.announce)

    def voice_for(self, lang: str, status: VoiceStatus) -> list[Effect]:
        """A game in `lang` begins: voice commands in its language (the recognizer the
        config picks for it, loaded the first time). Why they are off, said once an evening
        (once per language when no model hears it)."""
        if self.ports.voice is not None:
            self.ports.voice.use_language(lang)
        off = status.off
        if off is None:
            return []
        if not self.voice_told.first(off, lang if off == "voice_no_model" else ""):
            return []
        if off == "voice_no_model":
            log.warning("voice commands are off: no speech model for %r (install one: %s)",
                        lang, install_hint(lang))
        return [Say(off, {})]
