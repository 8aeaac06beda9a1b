"""Seats bench: window timer drift and pad-to-LED latency, on the real clock.

- timer_drift_ms: how late (or early) a window timer (WindowTimers on MonotonicClock)
  fires against time.perf_counter. 60 s in the full run, 2 s with --quick. The pad
  samples below run meanwhile, so the loop is busy as at a table.
- pad_to_led_ms_p99: the path a vote takes at the table. A thread presses a pad on
  gpiozero's mock pins (as lgpio's callback thread would) and releases it; from the
  release edge (the moment a tap is complete) through gpiozero's callback,
  call_soon_threadsafe, the panel's debounce, the engine (a `sport` ballot: the tap is
  a vote) and its SeatLights effect to the voter's PWMLED pin changing state.
"""

from __future__ import annotations

import asyncio
import statistics
import threading
import time
from typing import Any

from narrator.box.windows import WindowTimers
from narrator.clock import MonotonicClock
from narrator.devices.gpio import GpioSeatPanel
from narrator.devices.pinmap import GpioPads, load_pin_map
from narrator.engine.actions import Action, Nominate, Tap, WindowClosed
from narrator.engine.effects import SeatLights
from narrator.engine.game import Game
from narrator.engine.tasks import Speech, Task, VoteOn
from narrator.rules.loader import load_bundled

ROLES = ("civilian", "mafia", "sheriff", "mafia", "civilian", "civilian", "don", "civilian",
         "civilian", "civilian")
PRESS_S = 0.04    # longer than the 30 ms debounce
SETTLE_S = 0.05   # the pad settles after a release before the next press
PATH = ("mock pin release -> gpiozero callback thread -> loop -> debounce -> "
        "Engine (sport ballot vote) -> SeatLights -> PWMLED -> mock pin")


def _timed_factory() -> Any:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    class TimedPin(MockPWMPin):  # type: ignore[misc]
        changed_at = 0.0

        def _change_state(self, value: float) -> bool:
            changed: bool = super()._change_state(value)
            if changed:
                self.changed_at = time.perf_counter()
            return changed

    return MockFactory(revision="d04170", pin_class=TimedPin)


def ballot_game() -> Game:
    """A sport game at day 1's first ballot: a tap there is a vote and lights the voter."""
    game = Game(load_bundled("sport"), seed=0, roles=ROLES)

    def until(wanted: Task) -> None:
        for _ in range(10_000):
            cur = game.state.current
            if cur == wanted or (isinstance(wanted, VoteOn) and isinstance(cur, VoteOn)):
                return
            game.apply(WindowClosed(game.state.window))
        raise RuntimeError(f"the game never reached {wanted}")

    until(Speech(1))
    game.apply(Nominate(5))
    until(Speech(2))
    game.apply(Nominate(6))
    until(VoteOn(0))  # any ballot
    return game


async def _pad_to_led(samples: int) -> list[float]:
    factory = _timed_factory()
    pin_map = load_pin_map()
    assert isinstance(pin_map.pads, GpioPads)
    pads = pin_map.pads.pins
    leds = pin_map.leds.pins  # type: ignore[union-attr]
    game = ballot_game()
    start_state = game.state.clone()
    voters = [s for s in range(1, 11) if s not in (5, 6)]
    clock = MonotonicClock()
    panel = GpioSeatPanel(pin_map, pin_factory=factory, clock=clock)
    loop = asyncio.get_running_loop()
    ready = threading.Event()
    released: list[float] = []
    latencies: list[float] = []
    done: asyncio.Future[None] = loop.create_future()
    seats: list[int] = []
    resets: set[asyncio.Task[None]] = set()

    def sink(action: Action) -> None:
        if not isinstance(action, Tap):
            return
        for effect in game.apply(action):
            if isinstance(effect, SeatLights):
                panel.apply(effect)
        led = factory.pin(leds[action.seat - 1])
        latencies.append((led.changed_at - released[-1]) * 1000)
        resets.add(task := loop.create_task(reset()))
        task.add_done_callback(resets.discard)

    async def reset() -> None:
        game.state = start_state.clone()
        panel.apply(SeatLights())
        await clock.sleep(SETTLE_S)
        if len(latencies) >= samples:
            done.set_result(None)
        else:
            ready.set()

    def hands() -> None:
        for i in range(samples):
            if not ready.wait(10.0):
                return
            ready.clear()
            seat = voters[i % len(voters)]
            seats.append(seat)
            pin = factory.pin(pads[seat - 1])
            pin.drive_high()
            time.sleep(PRESS_S)
            released.append(time.perf_counter())
            pin.drive_low()

    panel.start(sink)
    thread = threading.Thread(target=hands, name="bench-hands", daemon=True)
    thread.start()
    ready.set()
    try:
        await asyncio.wait_for(done, timeout=samples * 1.0 + 10)
    finally:
        panel.close()
        thread.join(1.0)
        factory.reset()
    return latencies


async def _bench(window_s: float, samples: int) -> dict[str, float | int | str]:
    loop = asyncio.get_running_loop()
    fired: asyncio.Future[float] = loop.create_future()
    timers = WindowTimers(MonotonicClock(), lambda w: fired.set_result(time.perf_counter()))
    opened = time.perf_counter()
    timers.open(1, window_s)
    latencies = await _pad_to_led(samples)
    drift_ms = (await fired - opened - window_s) * 1000
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return {
        "timer_drift_ms": round(drift_ms, 3),
        "timer_window_s": window_s,
        "pad_to_led_ms_p99": round(p99, 3),
        "pad_to_led_ms_median": round(statistics.median(latencies), 3),
        "pad_to_led_samples": len(latencies),
        "pad_to_led_path": PATH,
    }


def run(quick: bool) -> dict[str, float | int | str]:
    return asyncio.run(_bench(2.0 if quick else 60.0, 20 if quick else 300))
