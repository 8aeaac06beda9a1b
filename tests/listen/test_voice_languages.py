"""Each game's language gets its own recognizer: a Russian box hears an English game
started from the page (and the reverse), each recognizer loaded once an evening, the first
time a game in its language begins; a language with no model has voice commands off,
said once and shown on the page."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

from narrator.box.ports import Ports
from narrator.box.referee import Box
from narrator.box.service import Service
from narrator.boxconfig import load_settings
from narrator.clock import FakeClock
from narrator.devices.fake import FakeSeatPanel
from narrator.devices.keypads import FakeKeypad
from narrator.evening import GameSetup
from narrator.sdnotify import Notifier
from narrator.voice.fake import FakeSpeaker
from narrator.voice.listener import Recognizers, VoiceListener, listen_switching
from narrator.voice.recognizer import FakeRecognizer, Recognizer
from narrator.voice.voice_status import VoiceStatus
from narrator.web.auth import PinGate
from narrator.web.server import WebServer

NO_MODEL_RU = "Голосовые команды выключены: для этого языка"  # the page's note
NO_MODEL_EN = "Voice commands are off: no speech model for this language"
SAID_RU = "Страница организатора тоже работает."  # the end of what the table hears


class SilentMicrophone:
    def chunks(self, stop: object = None) -> Iterator[bytes]:
        return iter(())


def test_the_config_picks_each_languages_recognizer(tmp_path: Path) -> None:
    settings = load_settings(None, {"state_dir": str(tmp_path), "game.lang": "ru"})
    rs = settings.recognizer
    assert (rs.engine, rs.model_dir) == ("vosk", tmp_path / "models" / "ru")
    en = rs.for_language("en")
    assert (en.engine, en.model_dir, en.lang) == ("pocketsphinx", None, "en")
    assert rs.for_language("en").for_language("ru") == rs.for_language("ru")
    one = load_settings(None, {"state_dir": str(tmp_path), "recognizer.engine": "vosk"})
    assert one.recognizer.for_language("ru").model_dir == tmp_path / "models" / "ru"


def test_a_recognizer_is_made_once_per_language() -> None:
    made: list[str] = []

    def make(lang: str) -> Recognizer:
        made.append(lang)
        return FakeRecognizer([])

    recognizers = Recognizers(lambda lang: lang == "en", make)
    first = recognizers.get("en")
    assert recognizers.get("en") is first and made == ["en"] and recognizers.loads == 1
    assert recognizers.can_hear("en") and not recognizers.can_hear("ru")


def test_a_switch_drops_the_half_heard_utterance_and_skips_when_nothing_hears() -> None:
    from narrator.voice.commands import Command

    en = FakeRecognizer([Command("pause", text="pause", at=0.05)])
    current: list[Recognizer | None] = [None]
    chunk = bytes(3200)  # 0.1 s

    def chunks() -> Iterator[bytes]:
        yield chunk  # nothing hears it
        current[0] = en
        yield chunk
        yield chunk

    heard = list(listen_switching(lambda: current[0], chunks()))
    assert [c.command for c in heard] == ["pause"]


def test_a_russian_box_hears_an_english_game_and_says_once_when_russian_has_no_model(
        tmp_path: Path) -> None:
    made: list[str] = []

    def make(lang: str) -> Recognizer:
        made.append(lang)
        return FakeRecognizer([])

    recognizers = Recognizers(lambda lang: lang == "en", make)
    status = VoiceStatus("voice_no_model", "ru")
    clock = FakeClock()
    listener = VoiceListener(None, SilentMicrophone(), clock,  # type: ignore[arg-type]
                             status=status, recognizers=recognizers, lang="ru")
    settings = load_settings(None, {"state_dir": str(tmp_path / "state"), "keypad": "none",
                                    "game.lang": "ru"})
    speaker = FakeSpeaker(clock, "ru")
    service = Service(settings, Ports(speaker, FakeSeatPanel(10, clock), [FakeKeypad()],
                                      listener), clock, Notifier(""))
    service.evening.next()  # the host asks for the game: nothing starts unasked
    boxes: list[Box] = []
    service.on_box.append(boxes.append)
    page = WebServer(service, PinGate("1234", clock.now), clock, service.evening)
    seen: list[tuple[str | None, str, bool]] = []
    notes: list[str] = []

    async def greeted(games: int) -> None:
        # The game's opening words are said before the next is asked for.
        for _ in range(20_000):
            said = [text for _at, text in speaker.said]
            if said.count("A new game begins.") + said.count("Начинаем новую игру.") >= games:
                return
            if not await clock.step():
                await asyncio.sleep(0)
        raise AssertionError("the game's opening was not said")

    async def next_game(lang: str) -> None:
        count = len(boxes)
        await greeted(count)
        service.evening.abandon()
        service.evening.start(GameSetup(lang=lang))
        for _ in range(20_000):
            if len(boxes) > count:
                break
            if not await clock.step():
                await asyncio.sleep(0)
        assert len(boxes) > count, "the next game did not begin"
        if listener.loading is not None:
            await listener.loading
        seen.append((status.off, status.lang, listener.recognizer is not None))
        notes.append(page.voice_note(page.text()))

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(service.run(games=5))
        for _ in range(20_000):
            if boxes:
                break
            if not await clock.step():
                await asyncio.sleep(0)
        seen.append((status.off, status.lang, listener.recognizer is not None))
        notes.append(page.voice_note(page.text()))
        await next_game("en")
        await next_game("ru")
        await next_game("en")
        for _ in range(200):
            await clock.step()
        task.cancel()

    asyncio.run(main())
    assert seen == [("voice_no_model", "ru", False), (None, "en", True),
                    ("voice_no_model", "ru", False), (None, "en", True)]
    assert made == ["en"]  # loaded once, for the first English game
    said = [text for _at, text in speaker.said]
    assert len([t for t in said if t.endswith(SAID_RU)]) == 1, said
    # The page says why, in the game's language, while a Russian game is played.
    assert [NO_MODEL_RU in n for n in notes] == [True, False, True, False]
    assert not any(NO_MODEL_EN in n for n in notes)
