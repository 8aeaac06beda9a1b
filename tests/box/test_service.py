"""`narrator run`'s service on fake ports and a virtual clock: start-up, READY=1 to
systemd, whole games played on the pads and keypad, the next game on the host's Enter,
an unfinished game resumed with the table told where it stands, a failing keypad
restarted."""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from narrator.box.ports import Ports
from narrator.box.referee import Box
from narrator.box.service import Service
from narrator.boxconfig import load_settings
from narrator.clock import FakeClock
from narrator.devices.fake import FakeSeatPanel
from narrator.devices.keypads import FakeKeypad
from narrator.engine.deal import deal
from narrator.engine.tasks import Speech
from narrator.sdnotify import Notifier
from narrator.sim.driver import PadPlayers
from narrator.sim.players import Table
from narrator.voice.fake import FakeSpeaker


def make_service(tmp_path: Path, clock: FakeClock, keypad: FakeKeypad,
                 notify: str = "", asked: bool = True) -> tuple[Service, FakeSeatPanel, FakeSpeaker]:
    settings = load_settings(None, {"state_dir": str(tmp_path / "state"),
                                    "cache_dir": str(tmp_path / "cache"), "keypad": "none"})
    speaker = FakeSpeaker(clock)
    panel = FakeSeatPanel(10, clock)
    service = Service(settings, Ports(speaker, panel, [keypad]), clock, Notifier(notify))
    if asked:
        service.evening.next()  # the host asks for the game: nothing starts unasked
    service.on_box.append(lambda box: seat_players(box, panel, keypad, clock))
    return service, panel, speaker


def seat_players(box: Box, panel: FakeSeatPanel, keypad: FakeKeypad, clock: FakeClock) -> None:
    # The players' cards: any deal will do, the box learns it from their taps.
    rules = box.game.engine.rules
    table = Table(rules, 7, foul_rate=0.0, cards=deal(rules, 10, 7))

    def press(seat: int, down: bool) -> None:
        if down:
            panel.press(seat)
        else:
            panel.release(seat)

    PadPlayers(box, table, press, keypad, clock, 7)


async def start(service: Service, games: int = 1) -> asyncio.Task[None]:
    """`service.run` in a task, returned once the first game's box exists.

    Waited for by an event, not by stepping the virtual clock: while start-up works in a
    thread nothing waits on that clock, and a test that steps it would fail or not
    depending on how soon a busy machine runs the thread."""
    ready = asyncio.Event()
    service.on_box.append(lambda _box: ready.set())
    task = asyncio.get_running_loop().create_task(service.run(games=games))
    await asyncio.wait_for(ready.wait(), timeout=120)
    return task


async def drive(clock: FakeClock, until: asyncio.Task[None], limit: float = 20_000) -> None:
    """Run the virtual clock until the task is done (the service waits on the clock or on
    the keypad; a next game needs the host, so time is nudged when nobody waits)."""
    while not until.done():
        if not await clock.step():
            clock.advance(1.0)
        if clock.now() > limit:
            raise AssertionError("the service did not finish in time")


def test_start_up_says_ready_tells_systemd_and_plays_two_games(tmp_path: Path) -> None:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    address = str(tmp_path / "notify")
    server.bind(address)
    server.setblocking(False)

    async def main() -> Service:
        clock = FakeClock()
        keypad = FakeKeypad()
        service, panel, speaker = make_service(tmp_path, clock, keypad, address)
        keypad.attach(service.submit)
        task = await start(service, games=2)

        async def next_game() -> None:
            while service.games < 1:
                await clock.sleep(5)
            keypad.press("enter")  # the start key: nothing typed

        asyncio.get_running_loop().create_task(next_game())
        await drive(clock, task)
        await task
        texts = [text for _at, text in speaker.said]
        assert texts[0] == "The narrator is ready."
        assert texts.count("A new game begins.") == 2
        assert panel.level("status") > 0
        return service

    service = asyncio.run(main())
    assert service.games == 2
    messages = []
    while True:
        try:
            messages.append(server.recv(1024).decode())
        except BlockingIOError:
            break
    assert any("READY=1" in m for m in messages)
    protocols = list((tmp_path / "state" / "protocols").glob("*.json"))
    assert len([p for p in protocols if not p.name.endswith(".polemica.json")]) == 2


def test_an_unfinished_game_resumes_and_the_table_hears_where_it_stands(tmp_path: Path) -> None:
    async def first_part() -> int:
        clock = FakeClock()
        keypad = FakeKeypad()
        service, _panel, _speaker = make_service(tmp_path, clock, keypad)
        task = await start(service)
        while service.box is None or service.box.game.state.number < 2:
            assert await clock.step(), "the game stopped waiting for anything"
        windows = service.box.game.state.windows
        task.cancel()  # the power cord is kicked
        with pytest.raises(asyncio.CancelledError):
            await task
        return windows

    async def second_part() -> tuple[list[str], int, bool]:
        clock = FakeClock()
        keypad = FakeKeypad()
        service, _panel, speaker = make_service(tmp_path, clock, keypad)
        task = await start(service)
        await drive(clock, task)
        await task
        assert service.box is not None
        state = service.box.game.state
        return [text for _at, text in speaker.said], state.windows, service.box.game.over

    windows_before = asyncio.run(first_part())
    said, windows_after, over = asyncio.run(second_part())
    assert said[0] == "The narrator is ready."
    assert said[2].startswith("We continue the game:")
    assert "A new game begins." not in said
    assert windows_after > windows_before and over


class BrokenKeypad(FakeKeypad):
    def __init__(self) -> None:
        super().__init__()
        self.starts = 0

    async def run(self, sink: object) -> None:
        self.starts += 1
        raise OSError("the USB keypad was pulled out")


def test_a_failing_device_is_restarted_and_the_game_goes_on(tmp_path: Path) -> None:
    async def main() -> tuple[int, bool]:
        clock = FakeClock()
        keypad = FakeKeypad()
        broken = BrokenKeypad()
        service, _panel, _speaker = make_service(tmp_path, clock, keypad)
        service.ports.keypads.append(broken)
        keypad.attach(service.submit)
        task = await start(service)
        await drive(clock, task)
        await task
        return broken.starts, service.box is not None and service.box.game.over

    starts, over = asyncio.run(main())
    assert over
    assert starts > 3


def test_between_games_enter_asks_for_the_next_and_other_keys_do_not(tmp_path: Path) -> None:
    clock = FakeClock()
    keypad = FakeKeypad()
    service, _panel, _speaker = make_service(tmp_path, clock, keypad, asked=False)
    keypad.attach(service.submit)
    keypad.on_key = service._key  # as the running service wires it
    keypad.press("/", "3", "enter")
    keypad.press("0", "enter")  # an entry ("nobody"), not the start key
    keypad.press(".")
    assert not service.evening.starting
    keypad.press("enter")
    assert service.evening.starting


def test_a_failing_rule_hook_drops_the_action_and_the_game_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from narrator.engine.actions import Nominate
    from narrator.engine.registry import REGISTRY

    clock = FakeClock()
    service, _panel, _speaker = make_service(tmp_path, clock, FakeKeypad())

    def broken(*_args: object) -> None:
        raise ZeroDivisionError("a bug in a rule hook")

    async def main() -> None:
        task = await start(service)
        while service.box is None or not isinstance(service.box.game.state.current, Speech):
            assert await clock.step()
        box = service.box
        before = box.game.state.to_json()
        # The speech's hook, as the engine finds it (by the task's type in the registry).
        monkeypatch.setattr(REGISTRY.tasks[Speech], "act", broken)
        with caplog.at_level(logging.ERROR):
            assert box.handle(Nominate(3)) is None
        assert "the engine failed on nominate" in caplog.text
        assert box.game.state.to_json() == before
        monkeypatch.undo()
        await drive(clock, task)
        assert box.game.over

    asyncio.run(main())


def test_the_pause_key_pauses_and_then_resumes(tmp_path: Path) -> None:
    clock = FakeClock()
    keypad = FakeKeypad()
    service, panel, speaker = make_service(tmp_path, clock, keypad)
    keypad.attach(service.submit)

    async def main() -> None:
        task = await start(service)
        while service.box is None or not isinstance(service.box.game.state.current, Speech):
            assert await clock.step()
        box = service.box

        async def status_becomes(name: str) -> None:
            # The LED follows when the performer reaches the change (after a cue).
            for _ in range(200):
                await asyncio.sleep(0)
                if panel.status == name:
                    return
                await clock.step()
            raise AssertionError(f"status LED {panel.status}, not {name}")

        await status_becomes("game")
        keypad.press("-")
        for _ in range(50):
            await asyncio.sleep(0)
        assert box.game.state.paused
        await status_becomes("paused")
        # A fault beats a pause on the status LED, and each clears on its own.
        box.disk_failed(OSError(28, "No space left on device"))
        await status_becomes("error")
        box.disk_recovered()
        await status_becomes("paused")
        paused_at = clock.now()
        remaining = box.performer.timers.remaining(box.game.state.window)
        clock.advance(120)  # a long pause: the speech's time stands still
        assert box.performer.timers.remaining(box.game.state.window) == remaining
        keypad.press("-")
        for _ in range(50):
            await asyncio.sleep(0)
        assert not box.game.state.paused
        assert clock.now() >= paused_at + 120
        await status_becomes("game")
        await drive(clock, task)
        assert box.game.over
        await status_becomes("ready")  # the game is over: ready for the next
        said = [text for _at, text in speaker.said]
        assert "Pause." in said

    asyncio.run(main())


class SilentMicrophone:
    """A microphone whose stream ends at once: the fake recognizer's script then comes
    out when the stream is flushed."""

    def chunks(self, stop: object = None) -> Iterator[bytes]:
        return iter(())


def test_a_voice_foul_is_repeated_and_acts_only_after_yes(tmp_path: Path) -> None:
    from narrator.voice.commands import Command
    from narrator.voice.listener import VoiceListener
    from narrator.voice.recognizer import FakeRecognizer

    class Listener(VoiceListener):
        """Tells the test when the recognizer's thread has handed over every command."""

        def __init__(self, *args: Any, expect: int) -> None:
            super().__init__(*args)
            self.expect = expect
            self.all_heard = asyncio.Event()

        def heard(self, command: Command) -> None:
            super().heard(command)
            self.expect -= 1
            if self.expect == 0:
                self.all_heard.set()

    clock = FakeClock()
    keypad = FakeKeypad()
    script = [Command("foul", seat=3, text="foul seat three", at=0.5),
              Command("yes", text="yes", at=1.0)]
    listener = Listener(FakeRecognizer(script), SilentMicrophone(), clock, expect=len(script))
    settings = load_settings(None, {"state_dir": str(tmp_path / "state"), "keypad": "none"})
    speaker = FakeSpeaker(clock)
    panel = FakeSeatPanel(10, clock)
    service = Service(settings, Ports(speaker, panel, [keypad], listener), clock, Notifier(""))
    service.evening.next()  # the host asks for the game: nothing starts unasked

    async def main() -> None:
        task = await start(service)
        # The commands come from the recognizer's thread: virtual time stands still
        # until it has handed them over, however late a busy machine runs it.
        await asyncio.wait_for(listener.all_heard.wait(), timeout=120)
        ask = "A foul to player number three? Say yes to confirm."
        for _ in range(200):
            said = [text for _at, text in speaker.said]
            if any(text.startswith("Player number three, first foul") for text in said):
                break
            assert await clock.step()
        foul = next(i for i, text in enumerate(said) if text.startswith("Player number three, first foul"))
        assert ask in said[:foul]  # repeated to the table before it acts
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert service.box is not None and service.box.game.state.fouls[3] == 1
