"""`narrator run` as the browser tests see it: the real Service (evening, games one after
another) on fake devices and a virtual clock, with its page on a free port, and simulated
players at pads and a keypad for every game it starts. It runs on a loop thread (see
tests/web/browser.py); the test moves the clock with `until`."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from narrator.box.ports import Ports
from narrator.box.referee import Box
from narrator.box.service import Service
from narrator.boxconfig import load_settings
from narrator.clock import FakeClock
from narrator.devices.fake import FakeSeatPanel
from narrator.devices.keypads import FakeKeypad
from narrator.engine.deal import deal
from narrator.sim.driver import PadPlayers
from narrator.sim.players import Table as Players
from narrator.voice.fake import FakeSpeaker
from narrator.web.server import WebServer
from narrator.web.site import serve
from tests.web.browser import LoopThread

PIN = "1357"


class NightKeypadPlayers(PadPlayers):
    """Simulated players who give the night's choices on the keypad and leave the day
    alone: the organiser's page runs it (tests/web/test_day_page.py)."""

    async def _act(self, window: int) -> None:
        if self.box.game.state.phase == "night":
            await super()._act(window)


class EveningBox:
    def __init__(self, tmp: Path, port: int = 0, night_keypad: bool = False,
                 asked: bool = True) -> None:
        """`port`: the page's port (0: a free one); a restarted box takes its old one, so
        a page left open finds it again. `night_keypad`: the players give the night on the
        keypad and do nothing in the day (the test runs it from the page). `asked`: the
        host asks for a game at once (nothing starts unasked; a box restarted between games
        is not asked)."""
        self.asked = asked
        self.loop = LoopThread()
        self.tmp = tmp
        self.port = port
        self.night_keypad = night_keypad
        self.service, self.server, self.clock = self.loop.call(self._start())
        self.url = f"http://127.0.0.1:{self.server.port}"

    async def _start(self) -> tuple[Service, WebServer, FakeClock]:
        clock = FakeClock()
        settings = load_settings(None, {"state_dir": str(self.tmp / "state"), "keypad": "none",
                                        "cache_dir": str(self.tmp / "cache"),
                                        "web.listen": f"127.0.0.1:{self.port}", "web.pin": PIN})
        speaker = FakeSpeaker(clock)
        panel = FakeSeatPanel(10, clock)
        keypad = FakeKeypad()
        service = Service(settings, Ports(speaker, panel, [keypad]), clock)
        if self.asked:
            service.evening.next()  # the host asks for the game: nothing starts unasked
        keypad.attach(service.submit)

        def seat_players(box: Box) -> None:
            rules = box.game.engine.rules
            st = box.game.state
            # Cards dealt by hand: the box learns them from the players' taps at night zero.
            cards = list(st.roles[1:]) if all(st.roles[1:]) else deal(rules, st.seats, 7)
            players = Players(rules, 7, foul_rate=0.0, cards=cards)

            def press(seat: int, down: bool) -> None:
                if down:
                    panel.press(seat)
                else:
                    panel.release(seat)

            if self.night_keypad:
                NightKeypadPlayers(box, players, press, keypad, clock, 7, keypad_only=True)
            else:
                PadPlayers(box, players, press, keypad, clock, 7)

        service.on_box.append(seat_players)
        server = await serve(service, settings, clock, service.announce, service.evening)
        assert server is not None
        self.task = asyncio.get_running_loop().create_task(service.run())
        return service, server, clock

    def until(self, done: Callable[[], bool], limit: float = 50_000) -> None:
        async def drive() -> None:
            start = self.clock.now()
            while not done():
                if not await self.clock.step():
                    self.clock.advance(1.0)  # between games nobody waits on the clock
                if self.clock.now() - start > limit:
                    raise AssertionError("the box did not get there in time")

        self.loop.call(drive())

    def settle(self) -> None:
        """Let the loop run what is ready, without moving the clock."""
        async def settle() -> None:
            for _ in range(50):
                await asyncio.sleep(0)

        self.loop.call(settle())

    @property
    def box(self) -> Box | None:
        return self.service.box

    def close(self) -> None:
        async def stop() -> None:
            self.task.cancel()
            await self.server.stop()
            if self.service.box is not None:
                await self.service.box.stop()

        self.loop.call(stop())
        self.loop.close()
