"""Pin maps: which Raspberry Pi pins (BCM numbering) the pads, LEDs and buttons use.

A pin map is a small YAML file (hardware/pins-10.yaml, hardware/pins-16.yaml). Every
problem is one PinMapError naming the file, the entry and what is wrong, e.g.
`pins.yaml: leds.pins[3]: GPIO 17 is already used by pads.pins[1]`.

The maps are checked against the 40-pin header as it is on a Pi 4 and a Pi 5: BCM 2-27
are GPIO; 0 and 1 belong to the HAT identification EEPROM. A bus a map uses (I2C for
the MCP23017, SPI for the LED chain) takes its pins away from everything else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from narrator.devices.keymap import HOST_BUTTON_KEYS, MATRIX_KEYS
from narrator.errors import PinMapError, SeatsNotWired
from narrator.yamlfile import parse_yaml, read_text

FIRST_GPIO, LAST_GPIO = 2, 27
MAX_SEATS = 16
DEFAULT_MATRIX_KEYS = ("1", "2", "3", "A", "4", "5", "6", "B", "7", "8", "9", "C",
                       "*", "0", "#", "D")

_BUS_PINS: dict[str, dict[int, str]] = {
    "i2c1": {2: "I2C SDA", 3: "I2C SCL"},
    "spi0": {7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"},
    # spi1 as the spi1-1cs overlay sets it up: one chip select.
    "spi1": {18: "SPI1 CE0", 19: "SPI1 MISO", 20: "SPI1 MOSI", 21: "SPI1 SCLK"},
}
_TOP = ("name", "board", "seats", "pads", "leds", "answer", "status", "host_buttons", "keypad")


@dataclass(frozen=True, slots=True)
class GpioPads:
    """One GPIO input per seat (a TTP223 module's output, or a button to ground)."""

    pins: tuple[int, ...]
    active_high: bool
    kind: str = "gpio"


@dataclass(frozen=True, slots=True)
class ExpanderPads:
    """Up to 16 pads on an MCP23017 I2C expander (GPA0-7 = seats 1-8, GPB0-7 = 9-16).

    Its INTA/INTB outputs (mirrored, open drain) go to one GPIO, so changes arrive as
    edges, not by polling the bus."""

    bus: int
    address: int
    interrupt: int
    active_high: bool
    kind: str = "mcp23017"


@dataclass(frozen=True, slots=True)
class GpioLeds:
    """One GPIO output per seat LED. `pwm`: dimmed seats glow (lgpio does software PWM)."""

    pins: tuple[int, ...]
    pwm: bool = True
    kind: str = "gpio"


@dataclass(frozen=True, slots=True)
class StripLeds:
    """A daisy chain of WS2812B pixels, one per seat, fed from an SPI MOSI pin."""

    spi_bus: int
    spi_device: int
    brightness: float
    color: tuple[int, int, int]
    kind: str = "ws2812"


@dataclass(frozen=True, slots=True)
class MatrixKeypadPins:
    """A membrane keypad: rows driven low one at a time, columns read with pull-ups."""

    rows: tuple[int, ...]
    cols: tuple[int, ...]
    keys: tuple[str, ...] = DEFAULT_MATRIX_KEYS


@dataclass(frozen=True, slots=True)
class PinMap:
    path: str
    name: str
    seats: int
    pads: GpioPads | ExpanderPads
    leds: GpioLeds | StripLeds
    answer_yes: int      # the green LED
    answer_no: int       # the red LED
    status: int | None = None
    host_buttons: tuple[tuple[str, int], ...] = ()
    keypad: MatrixKeypadPins | None = None
    # Every pin the map takes, with the entry (or bus) that takes it: for the diagram.
    uses: tuple[tuple[int, str], ...] = field(default=(), compare=False)

    def check_seats(self, n: int) -> None:
        """Raise PinMapError unless this map has a pad and an LED for each of n seats."""
        if n > self.seats:
            raise SeatsNotWired(self.path, "seats",
                                f"the map {self.name} wires {self.seats} seats; this game needs {n}",
                                self.seats)


def _whose(entry: str) -> str:
    """' (seat 3 pad)' for pads.pins[2]: a doubled pin is told by seat, as a builder counts."""
    m = re.fullmatch(r"(pads|leds)\.pins\[(\d+)\]", entry)
    if m is None:
        return ""
    return f" (seat {int(m.group(2)) + 1} {'pad' if m.group(1) == 'pads' else 'LED'})"


def default_pin_map_path() -> Path:
    return packaged_path("pins-10")


def packaged_path(name: str) -> Path:
    return Path(str(resources.files("narrator.devices") / f"{name}.yaml"))


def load_pin_map(path: str | Path | None = None) -> PinMap:
    """A pin map file; None gives the packaged 10-seat map, a bare name a packaged map."""
    if path is None:
        path = default_pin_map_path()
    text = str(path)
    if "/" not in text and not text.endswith((".yaml", ".yml")):
        known = sorted(p.name[:-5] for p in resources.files("narrator.devices").iterdir()
                       if p.name.startswith("pins-") and p.name.endswith(".yaml"))
        if text not in known:  # not is_file(): a 300-letter name is an OSError
            raise PinMapError(text, "", f"no such packaged pin map (known: {', '.join(known)})")
        path = packaged_path(text)
    return parse_pin_map(read_text(path, PinMapError), str(path))


def parse_pin_map(text: str, source: str, *, shared_pins: bool = False) -> PinMap:
    """`shared_pins`: a pin may serve two entries. Only for describing a table wired wrong
    (check-hardware's mock wiring), never for a map the box drives."""
    return _Reader(source, shared_pins).pin_map(parse_yaml(text, source, PinMapError))


class _Reader:
    def __init__(self, source: str, shared_pins: bool = False) -> None:
        self.source = source
        self.shared_pins = shared_pins
        self.uses: dict[int, str] = {}
        self.buses: dict[int, str] = {}

    def fail(self, where: str, problem: str) -> PinMapError:
        return PinMapError(self.source, where, problem)

    def mapping(self, value: Any, where: str, known: tuple[str, ...],
                required: tuple[str, ...] = ()) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where or "(top)", f"expected a mapping, got {value!r}")
        prefix = f"{where}." if where else ""
        for key in value:
            if isinstance(key, bool):
                raise self.fail(f"{prefix}{key}", "a key read as true/false: YAML takes yes, no, "
                                                  "on and off for true and false; quote it")
            if key not in known:
                raise self.fail(f"{prefix}{key}", f"unknown entry (known: {', '.join(known)})")
        for key in required:
            if key not in value:
                raise self.fail(f"{prefix}{key}", "missing")
        return value

    def integer(self, value: Any, where: str, low: int, high: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(where, f"expected a whole number, got {value!r}")
        if not low <= value <= high:
            raise self.fail(where, f"{value} is out of range {low}-{high}")
        return value

    def boolean(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, f"expected true or false, got {value!r}")
        return value

    def pin(self, value: Any, where: str) -> int:
        number: int | None = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str):
            m = re.fullmatch(r"(?:GPIO|BCM)(\d+)", value.strip().upper())
            if m:
                number = int(m.group(1))
        if number is None:
            raise self.fail(where, f"{value!r} is not a pin: use a BCM number like 17 or 'GPIO17'")
        if number in (0, 1):
            raise self.fail(where, f"GPIO {number} is reserved for the HAT ID EEPROM")
        if not FIRST_GPIO <= number <= LAST_GPIO:
            raise self.fail(where, f"{number} is not a GPIO pin (BCM {FIRST_GPIO}-{LAST_GPIO} "
                                   "on the 40-pin header)")
        if number in self.buses:
            raise self.fail(where, f"GPIO {number} is {self.buses[number]}, taken by the bus")
        if number in self.uses and not self.shared_pins:
            used = self.uses[number]
            raise self.fail(where, f"GPIO {number} is already used by {used}{_whose(used)}")
        self.uses[number] = where
        return number

    def pins(self, value: Any, where: str, count: int | None = None) -> tuple[int, ...]:
        if not isinstance(value, list):
            raise self.fail(where, f"expected a list of pins, got {value!r}")
        if count is not None and len(value) != count:
            raise self.fail(where, f"lists {len(value)} pins; expected {count}")
        return tuple(self.pin(v, f"{where}[{i}]") for i, v in enumerate(value))

    def take_bus(self, bus: str, where: str) -> None:
        for number, role in _BUS_PINS[bus].items():
            if number in self.uses:
                raise self.fail(self.uses[number],
                                f"GPIO {number} is {role}, needed by {where}")
            self.buses[number] = f"{role} ({where})"

    def active(self, value: Any, where: str) -> bool:
        if value not in ("high", "low"):
            raise self.fail(where, f"expected high (TTP223 module) or low (button to ground), "
                                   f"got {value!r}")
        return bool(value == "high")

    def pin_map(self, data: Any) -> PinMap:
        top = self.mapping(data, "", _TOP, ("seats", "pads", "leds", "answer"))
        name = top.get("name", Path(self.source).stem)
        if not isinstance(name, str):
            raise self.fail("name", f"expected text, got {name!r}")
        seats = self.integer(top["seats"], "seats", 1, MAX_SEATS)
        # Buses first, so a pin that a bus needs is reported where it is misused.
        pads_raw = self.mapping(top["pads"], "pads", ("kind", "pins", "active", "bus",
                                                      "address", "interrupt"))
        leds_raw = self.mapping(top["leds"], "leds", ("kind", "pins", "pwm", "spi",
                                                      "brightness", "color"))
        pads_kind = pads_raw.get("kind", "gpio")
        leds_kind = leds_raw.get("kind", "gpio")
        if pads_kind not in ("gpio", "mcp23017"):
            raise self.fail("pads.kind", f"unknown kind {pads_kind!r} (known: gpio, mcp23017)")
        if leds_kind not in ("gpio", "ws2812"):
            raise self.fail("leds.kind", f"unknown kind {leds_kind!r} (known: gpio, ws2812)")
        if pads_kind == "mcp23017":
            self.take_bus("i2c1", "pads")
        spi = (0, 0)
        if leds_kind == "ws2812":
            spi_raw = leds_raw.get("spi", [0, 0])
            if (not isinstance(spi_raw, list) or len(spi_raw) != 2
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in spi_raw)
                    or spi_raw[0] not in (0, 1) or spi_raw[1] not in (0, 1)):
                raise self.fail("leds.spi", f"expected [bus, device] with bus and device 0 or 1, "
                                            f"got {spi_raw!r}")
            spi = (spi_raw[0], spi_raw[1])
            self.take_bus(f"spi{spi[0]}", "leds")
        pads = self.pads(pads_raw, pads_kind, seats)
        leds = self.leds(leds_raw, leds_kind, seats, spi)
        answer = self.mapping(top["answer"], "answer", ("green", "red"), ("green", "red"))
        answer_yes = self.pin(answer["green"], "answer.green")
        answer_no = self.pin(answer["red"], "answer.red")
        status = self.pin(top["status"], "status") if top.get("status") is not None else None
        buttons: list[tuple[str, int]] = []
        raw_buttons = top.get("host_buttons") or {}
        self.mapping(raw_buttons, "host_buttons", tuple(HOST_BUTTON_KEYS))
        for key, value in raw_buttons.items():
            buttons.append((key, self.pin(value, f"host_buttons.{key}")))
        keypad = None
        if top.get("keypad") is not None:
            keypad = self.keypad(top["keypad"])
        return PinMap(path=self.source, name=name, seats=seats, pads=pads, leds=leds,
                      answer_yes=answer_yes, answer_no=answer_no, status=status,
                      host_buttons=tuple(buttons), keypad=keypad,
                      uses=tuple(sorted({**self.uses, **self.buses}.items())))

    def pads(self, raw: dict[str, Any], kind: str, seats: int) -> GpioPads | ExpanderPads:
        active_high = self.active(raw.get("active", "high"), "pads.active")
        if kind == "gpio":
            for key in ("bus", "address", "interrupt"):
                if key in raw:
                    raise self.fail(f"pads.{key}", "only for kind: mcp23017")
            if "pins" not in raw:
                raise self.fail("pads.pins", "missing")
            return GpioPads(self.pins(raw["pins"], "pads.pins", seats), active_high)
        if "pins" in raw:
            raise self.fail("pads.pins", "an MCP23017 takes seat n on its pin n-1; no pins here")
        if seats > 16:
            raise self.fail("seats", "one MCP23017 has 16 inputs")
        if "interrupt" not in raw:
            raise self.fail("pads.interrupt", "missing")
        bus = self.integer(raw.get("bus", 1), "pads.bus", 0, 10)
        if bus != 1:
            raise self.fail("pads.bus", "the 40-pin header's I2C bus is 1 (GPIO 2 and 3)")
        address = self.integer(raw.get("address", 0x20), "pads.address", 0x20, 0x27)
        return ExpanderPads(bus, address, self.pin(raw["interrupt"], "pads.interrupt"),
                            active_high)

    def leds(self, raw: dict[str, Any], kind: str, seats: int,
             spi: tuple[int, int]) -> GpioLeds | StripLeds:
        if kind == "gpio":
            for key in ("spi", "brightness", "color"):
                if key in raw:
                    raise self.fail(f"leds.{key}", "only for kind: ws2812")
            if "pins" not in raw:
                raise self.fail("leds.pins", "missing")
            pwm = self.boolean(raw.get("pwm", True), "leds.pwm")
            return GpioLeds(self.pins(raw["pins"], "leds.pins", seats), pwm)
        if "pins" in raw or "pwm" in raw:
            raise self.fail("leds.pins" if "pins" in raw else "leds.pwm",
                            "a WS2812 chain is addressed by position, seat 1 first; no pins here")
        brightness = raw.get("brightness", 0.3)
        if (not isinstance(brightness, int | float) or isinstance(brightness, bool)
                or not 0 < brightness <= 1):
            raise self.fail("leds.brightness", f"expected a number in (0, 1], got {brightness!r}")
        color = raw.get("color", [255, 255, 255])
        if (not isinstance(color, list) or len(color) != 3
                or not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255
                           for c in color)):
            raise self.fail("leds.color", f"expected [red, green, blue], each 0-255, got {color!r}")
        return StripLeds(spi[0], spi[1], float(brightness), (color[0], color[1], color[2]))

    def keypad(self, value: Any) -> MatrixKeypadPins:
        raw = self.mapping(value, "keypad", ("kind", "rows", "cols", "keys"), ("rows", "cols"))
        if raw.get("kind", "matrix") != "matrix":
            raise self.fail("keypad.kind", f"unknown kind {raw.get('kind')!r} (known: matrix; "
                                           "a USB keypad needs no pins)")
        rows = self.pins(raw["rows"], "keypad.rows", 4)
        cols_raw = raw["cols"]
        if not isinstance(cols_raw, list) or len(cols_raw) not in (3, 4):
            raise self.fail("keypad.cols", f"expected 3 or 4 pins, got {cols_raw!r}")
        cols = self.pins(cols_raw, "keypad.cols")
        keys: tuple[str, ...] = DEFAULT_MATRIX_KEYS
        if "keys" in raw:
            text = raw["keys"]
            if not isinstance(text, str) or len(text.split()) != len(rows) * len(cols):
                raise self.fail("keypad.keys", f"expected {len(rows) * len(cols)} key labels "
                                               "separated by spaces, row by row")
            keys = tuple(text.split())
        elif len(cols) == 3:
            keys = tuple(k for i, k in enumerate(DEFAULT_MATRIX_KEYS) if i % 4 != 3)
        for i, k in enumerate(keys):
            if k not in MATRIX_KEYS:
                raise self.fail(f"keypad.keys[{i}]", f"unknown key {k!r} "
                                                     f"(known: {' '.join(MATRIX_KEYS)})")
        return MatrixKeypadPins(rows, cols, keys)
