"""What players touch: seat pads and LEDs (the SeatPanel port) and the host's keypad
(the Keypad port), each with its real adapters and a fake beside them.

Only this package (and voice/) imports device libraries: gpiozero, evdev, smbus2, spidev.
gpiozero and evdev are imported inside the adapters, so importing this package is cheap.
"""

from narrator.devices.fake import FakeSeatPanel
from narrator.devices.gpio import GpioSeatPanel, make_pin_factory
from narrator.devices.keymap import KeypadDecoder
from narrator.devices.keypads import (
    EvdevKeypad,
    FakeEvdevDevice,
    FakeKeypad,
    Keypad,
    TerminalKeypad,
)
from narrator.devices.matrix import FakeKeyMatrix, MatrixKeypad
from narrator.devices.panel import BoardPanel, SeatPanel, Status
from narrator.devices.pinmap import PinMap, load_pin_map

__all__ = [
    "BoardPanel", "EvdevKeypad", "FakeEvdevDevice", "FakeKeyMatrix", "FakeKeypad",
    "FakeSeatPanel", "GpioSeatPanel", "Keypad", "KeypadDecoder", "MatrixKeypad", "PinMap",
    "SeatPanel", "Status", "TerminalKeypad", "load_pin_map", "make_pin_factory",
]
