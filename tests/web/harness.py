"""A box on a virtual clock with the organiser's page in front of it, for the web tests.

`Table` holds one game (journalled in a temporary state folder) played by the Box on a
FakeClock with a FakeSpeaker; `TableHost` is what the WebServer asks for the game. A
test moves the clock with `step()` and acts like players and the organiser would.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from narrator.boxconfig import Settings, load_settings
from narrator.clock import FakeClock
from narrator.daemon import Box
from narrator.engine.actions import Action
from narrator.engine.state import State
from narrator.performer import Performer
from narrator.phrases.book import PhraseBook
from narrator.records.journal import GameHeader
from narrator.records.session import GameSession
from narrator.voice.fake import FakeSpeaker
from narrator.web.auth import PinGate
from narrator.web.site import make_server
from narrator.windows import WindowTimers

PIN = "2468"
Client = TestClient[web.Request, web.Application]
# The `served` fixture's type (tests/web/conftest.py).
Served = Callable[..., AbstractAsyncContextManager[tuple["Table", Client]]]


class TableHost:
    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._box: Box | None = None
        self._on_box: list[Callable[[Box], None]] = []

    @property
    def box(self) -> Box | None:
        return self._box

    @property
    def settings(self) -> Settings:
        return self._settings

    @property
    def on_box(self) -> list[Callable[[Box], None]]:
        return self._on_box

    def set_box(self, box: Box) -> None:
        self._box = box
        for hook in self._on_box:
            hook(box)


class Table:
    def __init__(self, state_dir: Path, rules: str = "sport", seats: int = 10, seed: int = 5,
                 roles: Sequence[str] | None = None, lang: str = "en", game_id: str = "g1",
                 clock: FakeClock | None = None, input: str = "", deal: str = "cards",
                 judge: bool = False, names: Sequence[str] = ()) -> None:
        self.clock = clock or FakeClock()
        self.settings = load_settings(None, {"state_dir": str(state_dir), "keypad": "none",
                                             "cache_dir": str(state_dir / "cache")})
        self.host = TableHost(self.settings)
        self.gate = PinGate(PIN, self.clock.now)
        self.server = make_server(self.host, self.gate, self.clock)
        self.speaker = FakeSpeaker(self.clock, lang)
        header = GameHeader(rules=rules, seats=seats, seed=seed, lang=lang,
                            roles=tuple(roles) if roles else None, game_id=game_id,
                            started="2025-01-01T20:00:00", input=input, deal=deal, judge=judge,
                            names=tuple(names))
        self.session, opening = GameSession.start(state_dir, header, wall=lambda: 1.7e9)
        boxes: list[Box] = []
        timers = WindowTimers(self.clock, on_expire=lambda w: boxes[0].window_expired(w))
        performer = Performer(self.speaker, PhraseBook.load(lang).for_rules(rules), timers)
        self.box = Box(self.session, performer, self.clock)
        boxes.append(self.box)
        self.host.set_box(self.box)
        self.box.start(opening)

    @property
    def state(self) -> State:
        return self.box.game.state

    def window_running(self) -> bool:
        st = self.state
        return bool(st.window) and self.box.performer.timers.is_open(st.window)

    async def step(self) -> bool:
        return await self.clock.step()

    async def until(self, done: Callable[[], bool], limit: int = 20_000) -> None:
        for _ in range(limit):
            if done():
                return
            if not await self.step():
                raise AssertionError(f"the game stopped at {self.state.phase_label()}")
        raise AssertionError("the game did not get there")

    def act(self, action: Action) -> None:
        self.box.apply_now(action)


def seat_players(table: Table, seed: int = 7) -> None:
    """Simulated players at pads and a keypad, who know their cards and play along."""
    from narrator.devices.fake import FakeSeatPanel
    from narrator.devices.keypads import FakeKeypad
    from narrator.sim.driver import PadPlayers
    from narrator.sim.players import Table as Players

    box = table.box
    rules = box.game.engine.rules
    st = box.game.state
    panel = FakeSeatPanel(st.seats, table.clock)
    keypad = FakeKeypad()
    cards = list(st.roles[1:]) if all(st.roles[1:]) else None
    players = Players(rules, seed, foul_rate=0.0, cards=cards)

    def press(seat: int, down: bool) -> None:
        if down:
            panel.press(seat)
        else:
            panel.release(seat)

    PadPlayers(box, players, press, keypad, table.clock, seed)
    panel.start(box.submit)
    box.spawn("keypad", lambda: keypad.run(box.submit))


@asynccontextmanager
async def serve_table(tmp: Path, **table: Any) -> AsyncIterator[tuple[Table, Client]]:
    """A Table (`table`: its arguments) and a client of its page's server, both started;
    both closed after, whatever the test did (tests/web/conftest.py: `served`)."""
    played = Table(tmp, **table)
    client: Client = TestClient(TestServer(played.server.app))
    await client.start_server()
    try:
        yield played, client
    finally:
        await client.close()
        await played.box.stop()


@asynccontextmanager
async def serve_service(service: Any, clock: FakeClock, gate: PinGate | None = None,
                        pin: str = PIN) -> AsyncIterator[Client]:
    """`narrator run`'s service (narrator.service.Service) running, its page served with
    its evening, and a client started; the service stopped and the client closed after."""
    import asyncio

    server = make_server(service, gate or PinGate(pin, clock.now), clock, service.evening)
    client: Client = TestClient(TestServer(server.app))
    await client.start_server()
    task = asyncio.get_running_loop().create_task(service.run())
    try:
        yield client
    finally:
        task.cancel()
        await client.close()
