"""FakeSeatPanel: the SeatPanel port without hardware, for tests, the demo and laptops.

It is a BoardPanel over in-memory pads and LEDs, so the debounce, hold and light
patterns are the real ones; `tap()` and `hold()` skip the debounce and hand the event
straight to the sink, `press()`/`release()` go through it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from narrator.clock import Clock, FakeClock
from narrator.devices.pads import DEBOUNCE_S, HOLD_S
from narrator.devices.panel import BoardPanel, Status, seat_led
from narrator.engine.effects import SeatLights


class MemoryOutputs:
    def __init__(self, names: Iterable[str], dimmable: bool = True) -> None:
        self.levels = {name: 0.0 for name in names}
        self.dimmable = dimmable
        self.changes: list[tuple[str, float]] = []
        self.flushes = 0

    def names(self) -> list[str]:
        return list(self.levels)

    def can_dim(self, name: str) -> bool:
        return self.dimmable

    def set(self, name: str, level: float) -> None:
        self.levels[name] = level
        self.changes.append((name, level))

    def flush(self) -> None:
        self.flushes += 1

    def level(self, name: str) -> float:
        return self.levels[name]


class FakePads:
    def __init__(self, count: int) -> None:
        self.count = count
        self._edge: Callable[[int, bool], None] | None = None

    def attach(self, edge: Callable[[int, bool], None]) -> None:
        self._edge = edge

    def set(self, index: int, active: bool) -> None:
        if self._edge is not None:
            self._edge(index, active)

    def close(self) -> None:
        self._edge = None


class FakeSeatPanel(BoardPanel):
    def __init__(self, seats: int = 10, clock: Clock | None = None, *,
                 host_buttons: Iterable[str] = (), dimmable: bool = True,
                 debounce: float = DEBOUNCE_S, hold: float = HOLD_S) -> None:
        names = [seat_led(s) for s in range(1, seats + 1)] + ["yes", "no", "status"]
        self.memory = MemoryOutputs(names, dimmable)
        hosts = tuple(host_buttons)
        self.fake_pads = FakePads(seats + len(hosts))
        super().__init__(seats, self.fake_pads, self.memory, clock or FakeClock(),
                         host_pads=hosts, debounce=debounce, hold=hold)
        self.applied: list[SeatLights] = []
        self.answers: list[tuple[str, float]] = []
        self.status: Status = "off"

    def press(self, seat: int) -> None:
        self.fake_pads.set(seat - 1, True)

    def release(self, seat: int) -> None:
        self.fake_pads.set(seat - 1, False)

    def apply(self, lights: SeatLights) -> None:
        self.applied.append(lights)
        super().apply(lights)

    def show_answer(self, answer: str, seconds: float, code: int = 0) -> None:
        self.answers.append((answer, seconds))
        super().show_answer(answer, seconds, code)

    def set_status(self, status: Status) -> None:
        self.status = status
        super().set_status(status)

    def level(self, name: str) -> float:
        return self.memory.levels[name]
