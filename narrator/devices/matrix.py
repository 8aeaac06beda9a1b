"""A 4x4 (or 4x3) membrane keypad on GPIO pins, scanned on the Clock port.

Rows are outputs, driven low one at a time; columns are inputs with pull-ups, so a
pressed key pulls its column low while its row is driven. A scan every 10 ms; a key
counts as down after two scans that agree (that is the debounce) and gives its key
once, when it goes down. 330 ohm resistors in the row lines keep two keys pressed in one
column from shorting two outputs (see hardware/README.md).

FakeKeyMatrix wires the keys on gpiozero mock pins: a held key connects its row pin to
its column pin, electrically, for the scan to find.
"""

from __future__ import annotations

import asyncio
from typing import Any

from narrator.clock import Clock, MonotonicClock
from narrator.devices.gpio import make_pin_factory
from narrator.devices.keymap import MATRIX_KEYS
from narrator.devices.keypads import Sink, _Decoding
from narrator.devices.pinmap import MatrixKeypadPins
from narrator.devices.timing import current_task_or_none
from narrator.errors import DeviceError

SCAN_S = 0.01
AGREE_SCANS = 2


class MatrixKeypad(_Decoding):
    kind = "matrix"

    def __init__(self, spec: MatrixKeypadPins, *, pin_factory: Any = None,
                 clock: Clock | None = None, scan: float = SCAN_S) -> None:
        from gpiozero import DigitalInputDevice, DigitalOutputDevice

        super().__init__()
        self.spec = spec
        self.clock = clock or MonotonicClock()
        self.scan_s = scan
        factory = make_pin_factory(pin_factory)
        made: list[Any] = []
        try:
            # active_high=False: "on" drives the row low; idle rows sit high.
            self.rows = [DigitalOutputDevice(p, active_high=False, initial_value=False,
                                             pin_factory=factory) for p in spec.rows]
            made += self.rows
            self.cols = [DigitalInputDevice(p, pull_up=True, pin_factory=factory)
                         for p in spec.cols]
            made += self.cols
        except Exception as exc:
            for d in made:
                d.close()
            raise DeviceError(f"cannot set up the keypad pins: {exc}") from None
        self._hits: dict[str, int] = {}    # key -> scans in a row that saw it down
        self._misses: dict[str, int] = {}  # down key -> scans in a row that missed it
        self._down: set[str] = set()
        self._runner: asyncio.Task[object] | None = None

    def label(self, row: int, col: int) -> str:
        return self.spec.keys[row * len(self.cols) + col]

    def scan(self) -> set[str]:
        """The keys down right now (one pass over the rows)."""
        found: set[str] = set()
        for r, row in enumerate(self.rows):
            row.on()
            try:
                for c, col in enumerate(self.cols):
                    if col.is_active:
                        found.add(self.label(r, c))
            finally:
                row.off()
        return found

    def step(self, sink: Sink) -> None:
        """One scan: a key seen in AGREE_SCANS scans in a row is down (its key is pressed
        once); a down key missed in AGREE_SCANS scans in a row is up again."""
        found = self.scan()
        for label in set(self._hits) | found | self._down:
            if label in found:
                self._hits[label] = self._hits.get(label, 0) + 1
                self._misses.pop(label, None)
                if self._hits[label] >= AGREE_SCANS and label not in self._down:
                    self._down.add(label)
                    self._key(MATRIX_KEYS[label], sink)
            else:
                self._hits.pop(label, None)
                if label in self._down:
                    self._misses[label] = self._misses.get(label, 0) + 1
                    if self._misses[label] >= AGREE_SCANS:
                        self._down.discard(label)
                        del self._misses[label]

    async def run(self, sink: Sink) -> None:
        self._runner = asyncio.current_task()
        try:
            while not self.closed:
                self.step(sink)
                await self.clock.sleep(self.scan_s)
        except asyncio.CancelledError:
            if not self.closed:  # cancelled by someone else, not by close()
                raise
        finally:
            self._runner = None

    def close(self) -> None:
        self.closed = True
        runner, self._runner = self._runner, None
        if runner is not None and runner is not current_task_or_none():
            runner.cancel()
        for d in (*self.rows, *self.cols):
            d.close()


class FakeKeyMatrix:
    """The keypad's wires on mock pins. Create it before the MatrixKeypad (it claims the
    row pins with a pin class that connects held keys to their columns)."""

    def __init__(self, factory: Any, spec: MatrixKeypadPins) -> None:
        self.factory = factory
        self.spec = spec
        self.held: set[tuple[int, int]] = set()
        self.row_pins: list[Any] = []
        matrix = self

        class RowPin(factory.pin_class):  # type: ignore[misc]
            def _change_state(self, value: bool) -> bool:
                changed: bool = super()._change_state(value)
                if changed:
                    matrix._settle()
                return changed

        for pin in spec.rows:
            self.row_pins.append(factory.pin(f"GPIO{pin}", pin_class=RowPin))

    def _where(self, label: str) -> tuple[int, int]:
        width = len(self.spec.cols)
        index = self.spec.keys.index(label)
        return index // width, index % width

    def hold(self, label: str) -> None:
        self.held.add(self._where(label))
        self._settle()

    def let_go(self, label: str) -> None:
        self.held.discard(self._where(label))
        self._settle()

    def _settle(self) -> None:
        for c, pin in enumerate(self.spec.cols):
            col = self.factory.pin(f"GPIO{pin}")
            if col.function != "input":
                continue
            low = any(self.row_pins[r].function == "output" and not self.row_pins[r].state
                      for r, cc in self.held if cc == c)
            if low:
                col.drive_low()
            elif col.pull == "up":
                col.drive_high()
