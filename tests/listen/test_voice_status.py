"""Voice commands off, and why: a Russian game without a Vosk model (said once at
start-up, shown on the page), and a microphone that goes away mid-game (voice stops, the
status LED and the page say so, the game goes on)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from narrator.box.ports import Ports
from narrator.box.service import Service
from narrator.box.wiring import _voice_input
from narrator.boxconfig import load_settings
from narrator.clock import FakeClock
from narrator.devices.fake import FakeSeatPanel
from narrator.devices.keypads import FakeKeypad
from narrator.engine.actions import Foul
from narrator.errors import DeviceError
from narrator.sdnotify import Notifier
from narrator.voice.fake import FakeSpeaker
from narrator.voice.listener import VoiceListener
from narrator.voice.recognizer import FakeRecognizer
from narrator.voice.voice_status import VoiceStatus
from tests.web.harness import serve_table


class LosingMicrophone:
    """Two chunks of audio, then the device is gone (as sounddevice reports an unplug)."""

    def __init__(self) -> None:
        self.opened = 0

    def chunks(self, stop: threading.Event | None = None) -> Iterator[bytes]:
        self.opened += 1
        yield bytes(3200)
        yield bytes(3200)
        raise DeviceError("microphone default lost: Stream is stopped")


def test_russian_without_a_model_turns_voice_off(tmp_path: Path,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    """The table hears plain words (voice commands are off; the keypad and the page work);
    the install command is for whoever sets the box up: on the page and in the log."""
    settings = load_settings(None, {"state_dir": str(tmp_path / "state"), "keypad": "none",
                                    "game": {"lang": "ru"}})
    assert settings.recognizer.engine == "vosk"  # the default config: vosk for Russian
    voice, status = _voice_input(settings, FakeClock())
    assert voice is None and status.off == "voice_no_model" and status.lang == "ru"

    clock = FakeClock()
    speaker = FakeSpeaker(clock, "ru")
    service = Service(settings, Ports(speaker, FakeSeatPanel(10, clock), [FakeKeypad()],
                                      None, voice_status=status), clock, Notifier(""))
    service.evening.next()  # the host asks for the game: nothing starts unasked

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(service.run(games=1))
        for _ in range(50):
            await clock.step()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    said = [text for _at, text in speaker.said]
    plain = ("Голосовые команды выключены. Пользуйтесь кнопками и клавиатурой. "
             "Страница организатора тоже работает.")
    assert said.count(plain) == 1  # once, at start-up
    assert not [t for t in said if any(w in t.lower() for w in ("install", "vosk", "scripts", "--"))]
    assert "scripts/install-pi --vosk-model ru=DIR" in caplog.text

    async def page() -> str:
        async with serve_table(tmp_path / "page", lang="ru") as (table, client):
            table.host.voice_status = status  # type: ignore[attr-defined]
            return await (await client.get("/game")).text()

    html = asyncio.run(page())
    assert "не установлена речевая модель" in html and "scripts/install-pi --vosk-model ru=DIR" in html


def test_a_lost_microphone_stops_voice_and_the_game_goes_on(tmp_path: Path) -> None:
    clock = FakeClock()
    settings = load_settings(None, {"state_dir": str(tmp_path / "state"), "keypad": "none"})
    mic = LosingMicrophone()
    listener = VoiceListener(FakeRecognizer([]), mic, clock)  # type: ignore[arg-type]
    speaker = FakeSpeaker(clock)
    panel = FakeSeatPanel(10, clock)
    service = Service(settings, Ports(speaker, panel, [FakeKeypad()], listener), clock,
                      Notifier(""))
    service.evening.next()  # the host asks for the game: nothing starts unasked
    assert service.voice_status.on

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(service.run(games=1))
        for _ in range(300):
            if not service.voice_status.on and service.box is not None:
                break
            await clock.step()
            await asyncio.sleep(0)
        for _ in range(2000):  # the supervisor's back-off passes: it must not reopen the mic
            if any(t.startswith("The microphone is gone.") for _at, t in speaker.said):
                break
            if not await clock.step():
                clock.advance(1.0)
            await asyncio.sleep(0)
        assert service.box is not None
        service.submit(Foul(3))
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert service.voice_status.off == "voice_mic_lost"
    assert panel.status == "error" and mic.opened == 1
    said = [text for _at, text in speaker.said]
    assert any(t.startswith("The microphone is gone.") for t in said), said
    assert service.box is not None and service.box.game.state.fouls[3] == 1


def test_the_page_shows_why_voice_is_off(tmp_path: Path) -> None:
    async def main() -> None:
        async with serve_table(tmp_path) as (table, client):
            table.host.voice_status = VoiceStatus("voice_mic_lost")  # type: ignore[attr-defined]
            page = await (await client.get("/game")).text()
            assert "Voice commands are off: the microphone was lost." in page
            state = json.loads(await (await client.get("/api/state")).text())
            assert state["voice"] == {"on": False, "off": "voice_mic_lost", "lang": "en"}

    asyncio.run(main())
