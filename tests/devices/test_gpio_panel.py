"""GpioSeatPanel on gpiozero's MockFactory and a FakeClock."""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections.abc import Callable
from typing import Any

import pytest

from narrator.box.status import StatusLight
from narrator.clock import FakeClock
from narrator.devices.fake import FakeSeatPanel
from narrator.devices.gpio import GpioSeatPanel
from narrator.devices.pinmap import load_pin_map
from narrator.engine.actions import Action, EndSpeech, Hold, Pause, Resume, Tap
from narrator.engine.effects import SeatLights
from tests.devices.helpers import settle, tick

MAP = load_pin_map()  # the packaged 10-seat map


def pad(factory: Any, seat: int) -> Any:
    return factory.pin(MAP.pads.pins[seat - 1])  # type: ignore[union-attr]


def led(factory: Any, seat: int) -> Any:
    return factory.pin(MAP.leds.pins[seat - 1])  # type: ignore[union-attr]


def panel_run(factory: Any, body: Any) -> list[Action]:
    """Run `body(panel, clock, got)` with a started panel; returns what the sink got."""
    got: list[Action] = []

    async def main() -> None:
        clock = FakeClock()
        panel = GpioSeatPanel(MAP, pin_factory=factory, clock=clock)
        panel.start(got.append)
        try:
            await body(panel, clock, got)
        finally:
            panel.close()

    asyncio.run(main())
    return got


def test_a_chattering_pad_gives_exactly_one_tap(factory: Any) -> None:
    async def body(panel: GpioSeatPanel, clock: FakeClock, got: list[Action]) -> None:
        p = pad(factory, 4)
        for _ in range(4):      # contact bounce, all inside a few ms of the fake clock
            p.drive_high()
            await tick(clock, 0.002)
            p.drive_low()
            await tick(clock, 0.002)
        p.drive_high()
        await tick(clock, 0.2, step=0.01)
        assert got == []         # nothing until the finger lifts
        p.drive_low()
        await tick(clock, 0.002)
        p.drive_high()           # release bounce
        await tick(clock, 0.002)
        p.drive_low()
        await tick(clock, 2.0, step=0.01)

    assert panel_run(factory, body) == [Tap(4)]


def test_a_long_press_gives_one_hold_and_no_tap(factory: Any) -> None:
    async def body(panel: GpioSeatPanel, clock: FakeClock, got: list[Action]) -> None:
        pad(factory, 7).drive_high()
        await tick(clock, 0.99, step=0.01)
        assert got == []
        await tick(clock, 0.02)
        assert got == [Hold(7)]
        await tick(clock, 3.0, step=0.1)
        pad(factory, 7).drive_low()
        await tick(clock, 1.0, step=0.1)

    assert panel_run(factory, body) == [Hold(7)]


def test_taps_on_several_pads_each_count(factory: Any) -> None:
    async def body(panel: GpioSeatPanel, clock: FakeClock, got: list[Action]) -> None:
        for seat in (1, 10, 3):
            pad(factory, seat).drive_high()
            await tick(clock, 0.1)
            pad(factory, seat).drive_low()
            await tick(clock, 0.1)

    assert panel_run(factory, body) == [Tap(1), Tap(10), Tap(3)]


def test_edges_from_gpiozero_threads_reach_the_loop(factory: Any) -> None:
    async def body(panel: GpioSeatPanel, clock: FakeClock, got: list[Action]) -> None:
        loop_thread = threading.get_ident()
        seen: list[int] = []
        panel._sink = lambda a: (seen.append(threading.get_ident()), got.append(a))  # type: ignore[assignment,func-returns-value]

        def press() -> None:
            pad(factory, 2).drive_high()

        def release() -> None:
            pad(factory, 2).drive_low()

        t = threading.Thread(target=press)
        t.start()
        t.join()
        await tick(clock, 0.1)
        t = threading.Thread(target=release)
        t.start()
        t.join()
        await settle()
        assert seen == [loop_thread]

    assert panel_run(factory, body) == [Tap(2)]


def test_seat_lights_on_blink_dim_and_dark(factory: Any) -> None:
    async def body(panel: GpioSeatPanel, clock: FakeClock, got: list[Action]) -> None:
        panel.apply(SeatLights(on=(1,), blink=(2,), dim=(3,)))
        await settle()
        assert led(factory, 1).state == 1
        assert led(factory, 2).state == 1
        assert 0 < led(factory, 3).state < 0.2           # PWM: a faint glow
        assert all(led(factory, s).state == 0 for s in range(4, 11))
        # Blinking: half a second on, half off, on the clock.
        states = []
        for _ in range(4):
            await tick(clock, 0.5)
            states.append(led(factory, 2).state)
        assert states == [0, 1, 0, 1]
        assert led(factory, 1).state == 1
        panel.apply(SeatLights())                        # night: all dark
        await settle()
        assert all(led(factory, s).state == 0 for s in range(1, 11))
        await tick(clock, 2.0, step=0.25)
        assert all(led(factory, s).state == 0 for s in range(1, 11))

    panel_run(factory, body)


def test_the_answer_shows_for_its_time_then_goes_dark(factory: Any) -> None:
    async def body(panel: GpioSeatPanel, clock: FakeClock, got: list[Action]) -> None:
        green, red = factory.pin(MAP.answer_yes), factory.pin(MAP.answer_no)
        panel.show_answer("no", 3.0)
        await settle()
        assert (green.state, red.state) == (0, 1)
        await tick(clock, 2.9, step=0.1)
        assert red.state == 1
        await tick(clock, 0.2)
        assert (green.state, red.state) == (0, 0)
        panel.show_answer("yes", 3.0)
        await tick(clock, 1.0)
        assert (green.state, red.state) == (1, 0)
        with pytest.raises(ValueError):
            panel.show_answer("maybe", 1.0)

    panel_run(factory, body)


def test_a_card_is_shown_as_its_code_in_green_blinks(factory: Any) -> None:
    """The boxed commissar learns a role: the card's place in the announced list of roles
    (here the 4th), counted in green blinks within the answer window; red stays dark."""
    async def body(panel: GpioSeatPanel, clock: FakeClock, got: list[Action]) -> None:
        green, red = factory.pin(MAP.answer_yes), factory.pin(MAP.answer_no)
        await tick(clock, 0.17)  # the code starts with a whole blink wherever the clock is
        panel.show_answer("mafia", 8.0, code=4)
        levels = []
        for _ in range(80):
            await tick(clock, 0.1)
            levels.append(green.state)
            assert red.state == 0
        rises = sum(1 for a, b in zip([0, *levels], levels, strict=False) if not a and b)
        assert rises == 4
        assert levels[-40:] == [0] * 40  # the code is over well before the window ends
        with pytest.raises(ValueError):
            panel.show_answer("mafia", 8.0)  # a card without its code

    panel_run(factory, body)


def test_status_led_patterns(factory: Any) -> None:
    async def body(panel: GpioSeatPanel, clock: FakeClock, got: list[Action]) -> None:
        status = factory.pin(MAP.status)
        panel.set_status("ready")
        await settle()
        assert status.state == 1
        panel.set_status("paused")
        seen = set()
        for _ in range(4):
            await tick(clock, 1.0)
            seen.add(status.state)
        assert seen == {0, 1}
        panel.set_status("off")
        await tick(clock, 3.0, step=0.5)
        assert status.state == 0

    panel_run(factory, body)


def test_host_buttons_give_host_actions(factory: Any) -> None:
    async def body(panel: GpioSeatPanel, clock: FakeClock, got: list[Action]) -> None:
        pins = dict(MAP.host_buttons)
        for name in ("next", "pause", "pause"):
            b = factory.pin(pins[name])
            b.drive_low()            # buttons to ground
            await tick(clock, 0.1)
            b.drive_high()
            await tick(clock, 0.1)
        panel.set_paused(False)      # the daemon saw a Resume from elsewhere
        factory.pin(pins["pause"]).drive_low()
        await tick(clock, 0.1)
        factory.pin(pins["pause"]).drive_high()
        await tick(clock, 0.1)

    assert panel_run(factory, body) == [EndSpeech(), Pause(), Resume(), Pause()]


def test_closing_frees_the_pins(factory: Any) -> None:
    async def main() -> None:
        for _ in range(2):
            panel = GpioSeatPanel(MAP, pin_factory=factory, clock=FakeClock())
            panel.start(lambda a: None)
            panel.close()

    asyncio.run(main())


def test_one_millisecond_chatter_gives_one_tap_per_touch(factory: Any) -> None:
    """Pads that toggle every millisecond for 20 ms when touched and when let go (a worn
    contact, a capacitive pad on the edge): three touches are three taps, no more."""
    async def body(panel: GpioSeatPanel, clock: FakeClock, got: list[Action]) -> None:
        p = pad(factory, 6)
        for _touch in range(3):
            for i in range(20):
                (p.drive_high if i % 2 == 0 else p.drive_low)()
                await tick(clock, 0.001)
            p.drive_high()
            await tick(clock, 0.3, step=0.01)
            for i in range(20):
                (p.drive_low if i % 2 == 0 else p.drive_high)()
                await tick(clock, 0.001)
            p.drive_low()
            await tick(clock, 0.3, step=0.01)

    assert panel_run(factory, body) == [Tap(6)] * 3


def test_the_status_led_shows_ready_game_pause_and_error_apart() -> None:
    """Each state's LED over 6 s on the fake clock: four patterns a glance tells apart."""

    async def main() -> dict[str, list[float]]:
        clock = FakeClock()
        panel = FakeSeatPanel(10, clock)
        panel.start(lambda _a: None)
        light = StatusLight(panel.set_status)
        seen: dict[str, list[float]] = {}
        steps: list[tuple[str, Callable[[], None]]] = [
            ("ready", lambda: light.set_game(False)),
            ("game", lambda: light.set_game(True)),
            ("paused", lambda: light.set_paused(True)),
            ("error", lambda: light.set_fault("journal", True)),
        ]
        for name, change in steps:
            change()
            assert light.state == name and panel.status == name
            levels = []
            for _ in range(60):  # every 0.1 s for 6 s
                await settle()
                levels.append(panel.level("status"))
                clock.advance(0.1)
            seen[name] = levels
        light.set_fault("journal", False)
        assert panel.status == "paused"
        panel.close()
        return seen

    seen = asyncio.run(main())
    lit = {name: sum(1 for v in levels if v) for name, levels in seen.items()}
    changes = {name: sum(1 for a, b in itertools.pairwise(levels) if a != b)
               for name, levels in seen.items()}
    assert lit["ready"] == 60 and changes["ready"] == 0  # steady
    assert 2 <= lit["game"] <= 6  # a short pulse every 3 s
    assert 25 <= lit["paused"] <= 35 and 4 <= changes["paused"] <= 6  # 1 s on, 1 s off
    assert changes["error"] > 20  # 8 blinks a second
    assert len({tuple(v) for v in seen.values()}) == 4
