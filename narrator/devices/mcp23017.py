"""Up to 16 seat pads on an MCP23017 I2C I/O expander, read with smbus2.

gpiozero drives the Pi's own pins but has no I2C expander support, so the chip is
driven here, register by register, through smbus2 (a small, maintained, pure-Python
SMBus library). The expander's interrupt output (INTA and INTB mirrored, open drain)
goes to one Pi GPIO, read with gpiozero: a pad change pulls it low, the change is read
from the GPIO registers (which also clears the interrupt).

FakeMcp23017 emulates the registers and the interrupt line on gpiozero mock pins.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from typing import Any, Protocol

from narrator.devices.pinmap import ExpanderPads
from narrator.errors import DeviceError

# Register addresses with IOCON.BANK = 0 (A and B interleaved).
IODIRA, IPOLA, GPINTENA, DEFVALA, INTCONA, IOCON, GPPUA, INTFA, INTCAPA, GPIOA, OLATA = (
    0x00, 0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x14)
IOCON_MIRROR, IOCON_ODR = 0x40, 0x04


class SMBusLike(Protocol):
    def read_byte_data(self, i2c_addr: int, register: int) -> int: ...

    def write_byte_data(self, i2c_addr: int, register: int, value: int) -> None: ...

    def read_word_data(self, i2c_addr: int, register: int) -> int: ...

    def close(self) -> None: ...


class Mcp23017Pads:
    """A PadSource: pad n (0-15) is expander pin GPA0-7 then GPB0-7."""

    def __init__(self, spec: ExpanderPads, count: int, factory: Any,
                 bus: SMBusLike | None = None, fake: bool = False) -> None:
        from gpiozero import DigitalInputDevice

        self.spec = spec
        self.count = count
        self.mask = (1 << count) - 1
        if bus is None:
            bus = FakeMcp23017(factory, spec.interrupt, spec.address) if fake else _open_bus(spec)
        self.bus = bus
        self._edge: Callable[[int, bool], None] | None = None
        self._last = 0
        self._lock = threading.Lock()
        try:
            self._setup()
            # INT is open drain, active low: the Pi's pull-up holds it high.
            self.interrupt = DigitalInputDevice(spec.interrupt, pull_up=True, pin_factory=factory)
        except OSError as exc:
            raise DeviceError(f"MCP23017 at 0x{spec.address:02x} on I2C bus {spec.bus} "
                              f"does not answer: {exc}") from None

    def _write_pair(self, register: int, value: int) -> None:
        self.bus.write_byte_data(self.spec.address, register, value & 0xFF)
        self.bus.write_byte_data(self.spec.address, register + 1, (value >> 8) & 0xFF)

    def _setup(self) -> None:
        a = self.spec.address
        self.bus.write_byte_data(a, IOCON, IOCON_MIRROR | IOCON_ODR)
        self._write_pair(IODIRA, 0xFFFF)
        self._write_pair(IPOLA, 0x0000)
        # A TTP223 drives its output; buttons to ground need the chip's 100k pull-ups.
        self._write_pair(GPPUA, 0x0000 if self.spec.active_high else 0xFFFF)
        self._write_pair(INTCONA, 0x0000)          # interrupt on any change
        self._write_pair(GPINTENA, self.mask)

    def _read(self) -> int:
        raw = self.bus.read_word_data(self.spec.address, GPIOA) & self.mask
        return raw if self.spec.active_high else ~raw & self.mask

    def attach(self, edge: Callable[[int, bool], None]) -> None:
        self._edge = edge
        self.interrupt.when_activated = self._service
        self._service()

    def _service(self) -> None:
        # A change between our read and the end of the interrupt keeps INT low with no
        # new edge, so read until it lets go.
        for _ in range(8):
            with self._lock:
                now = self._read()
                changed, self._last = now ^ self._last, now
            edge = self._edge
            if edge is not None:
                for i in range(self.count):
                    if changed >> i & 1:
                        edge(i, bool(now >> i & 1))
            if not self.interrupt.is_active:
                return

    def close(self) -> None:
        self._edge = None
        self.interrupt.close()
        self.bus.close()


def _open_bus(spec: ExpanderPads) -> SMBusLike:
    try:
        smbus2 = importlib.import_module("smbus2")
    except ImportError:
        raise DeviceError("the 16-seat map needs smbus2: pip install 'narrator[pi16]'") from None
    try:
        bus: SMBusLike = smbus2.SMBus(spec.bus)
    except OSError as exc:
        raise DeviceError(f"cannot open I2C bus {spec.bus} (enable I2C in raspi-config): "
                          f"{exc}") from None
    return bus


class FakeMcp23017:
    """An MCP23017 and its interrupt wire, for tests and mock pins.

    `set_input(n, level)` changes the electrical level on GPA0..GPB7; the INT mock pin
    goes low as the chip's would and is released when the GPIO registers are read.
    """

    def __init__(self, factory: Any, interrupt_pin: int, address: int = 0x20) -> None:
        self.address = address
        self.regs = [0] * 0x16
        self.regs[IODIRA] = self.regs[IODIRA + 1] = 0xFF
        self.inputs = 0
        self.reads = 0
        self.factory = factory
        self.interrupt_pin = interrupt_pin

    def _pair(self, register: int) -> int:
        return self.regs[register] | self.regs[register + 1] << 8

    def _check(self, i2c_addr: int, register: int) -> None:
        if i2c_addr != self.address:
            raise OSError(121, "Remote I/O error")  # what smbus2 raises on a missing chip
        if not 0 <= register < len(self.regs):
            raise OSError(22, "Invalid argument")

    def read_byte_data(self, i2c_addr: int, register: int) -> int:
        return self.read_word_data(i2c_addr, register) & 0xFF

    def read_word_data(self, i2c_addr: int, register: int) -> int:
        self._check(i2c_addr, register)
        base = register & ~1
        if base in (GPIOA, INTCAPA):
            self.reads += 1
            value = self._levels() if base == GPIOA else self._pair(INTCAPA)
            self.regs[INTFA] = self.regs[INTFA + 1] = 0
            self._int_line(False)
            return value >> 8 if register & 1 else value
        value = self._pair(base)
        return value >> 8 if register & 1 else value

    def write_byte_data(self, i2c_addr: int, register: int, value: int) -> None:
        self._check(i2c_addr, register)
        self.regs[register] = value & 0xFF

    def close(self) -> None:
        pass

    def _levels(self) -> int:
        return (self.inputs ^ self._pair(IPOLA)) & self._pair(IODIRA)

    def set_input(self, index: int, level: bool) -> None:
        before = self.inputs
        self.inputs = (before | 1 << index) if level else (before & ~(1 << index))
        if before != self.inputs and self._pair(GPINTENA) >> index & 1:
            flag = 1 << index
            self.regs[INTFA] |= flag & 0xFF
            self.regs[INTFA + 1] |= flag >> 8
            cap = self._levels()
            self.regs[INTCAPA], self.regs[INTCAPA + 1] = cap & 0xFF, cap >> 8
            self._int_line(True)

    def _int_line(self, asserted: bool) -> None:
        pin = self.factory.pin(self.interrupt_pin)
        if pin.function != "input":
            return
        # Open drain, active low.
        if asserted:
            pin.drive_low()
        else:
            pin.drive_high()
