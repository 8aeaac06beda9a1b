"""Seat LEDs as a WS2812B chain (one pixel per seat) fed from the Pi's SPI MOSI pin.

Sixteen seats with a pad and an LED each need more signals than the Pi has; a WS2812B
chain needs one data pin for every LED around the table, and it dims natively.
gpiozero does not drive WS2812s; the chain is driven through spidev (the kernel's SPI
device, on a Pi 4 and a Pi 5 alike) with the encoding the Adafruit NeoPixel-SPI driver
uses: at 6.4 MHz each data bit is one SPI byte, 0b11110000 for a one and 0b11000000 for
a zero, and a low gap of more than 280 us latches the colours.
"""

from __future__ import annotations

import importlib
from typing import Protocol

from narrator.devices.pinmap import StripLeds
from narrator.errors import DeviceError

SPI_HZ = 6_400_000
ONE, ZERO = 0b11110000, 0b11000000
RESET_BYTES = 240  # 300 us of low at 6.4 MHz


class SpiLike(Protocol):
    def writebytes2(self, data: bytes) -> None: ...

    def close(self) -> None: ...


def encode(colors: list[tuple[int, int, int]]) -> bytes:
    """(red, green, blue) per pixel -> the SPI bytes (WS2812 wants green, red, blue)."""
    out = bytearray([0])  # MOSI low before the first bit
    for r, g, b in colors:
        for byte in (g, r, b):
            for bit in range(7, -1, -1):
                out.append(ONE if byte >> bit & 1 else ZERO)
    out.extend(bytes(RESET_BYTES))
    return bytes(out)


def decode(data: bytes) -> list[tuple[int, int, int]]:
    """The colours a chain would show for these SPI bytes (what a pixel's input sees)."""
    bits = [b == ONE for b in data if b in (ONE, ZERO)]
    pixels = []
    for i in range(0, len(bits) - len(bits) % 24, 24):
        chunk = bits[i:i + 24]
        g, r, b = (sum(1 << (7 - k) for k, bit in enumerate(chunk[j:j + 8]) if bit)
                   for j in (0, 8, 16))
        pixels.append((r, g, b))
    return pixels


class Ws2812Chain:
    def __init__(self, count: int, spec: StripLeds, spi: SpiLike | None = None,
                 fake: bool = False) -> None:
        self.count = count
        self.spec = spec
        if spi is None:
            spi = FakeSpi() if fake else _open_spi(spec)
        self.spi = spi
        self._levels = [0.0] * count
        self.show()

    def set(self, index: int, level: float) -> None:
        self._levels[index] = min(1.0, max(0.0, level))

    def level(self, index: int) -> float:
        return self._levels[index]

    def colors(self) -> list[tuple[int, int, int]]:
        scale = self.spec.brightness
        r, g, b = self.spec.color
        return [(round(r * v * scale), round(g * v * scale), round(b * v * scale))
                for v in self._levels]

    def show(self) -> None:
        try:
            self.spi.writebytes2(encode(self.colors()))
        except OSError as exc:
            raise DeviceError(f"writing the LED chain failed: {exc}") from None

    def close(self) -> None:
        self._levels = [0.0] * self.count
        try:
            self.show()
        finally:
            self.spi.close()


def _open_spi(spec: StripLeds) -> SpiLike:
    try:
        spidev = importlib.import_module("spidev")
    except ImportError:
        raise DeviceError("the 16-seat map needs spidev: pip install 'narrator[pi16]'") from None
    dev = spidev.SpiDev()
    try:
        dev.open(spec.spi_bus, spec.spi_device)
    except OSError as exc:
        raise DeviceError(f"cannot open /dev/spidev{spec.spi_bus}.{spec.spi_device} "
                          f"(enable SPI in raspi-config): {exc}") from None
    dev.max_speed_hz = SPI_HZ
    dev.mode = 0
    spi: SpiLike = dev
    return spi


class FakeSpi:
    """Records what would go down the wire; `pixels()` decodes the last frame."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []
        self.closed = False

    def writebytes2(self, data: bytes) -> None:
        if self.closed:
            raise OSError(9, "Bad file descriptor")
        self.frames.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def pixels(self) -> list[tuple[int, int, int]]:
        return decode(self.frames[-1]) if self.frames else []
