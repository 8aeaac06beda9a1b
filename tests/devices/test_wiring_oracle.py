"""The wiring drawings checked by reading the SVG as a picture, for every pin of the map.

An oracle independent of narrator.devices.wiring: the Raspberry Pi header is written out
here from the official pinout, and the test finds things in the committed SVG the way a
reader would: the 40 pin circles (two columns, pin 1 at the top left), the number printed
at each, the wire leaving each pin and the label at the wire's far end. Every GPIO the pin
map uses must have a wire, and its label must name that GPIO and what the map puts on it;
a GPIO the map does not use has no wire.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from narrator.devices.pinmap import ExpanderPads, load_pin_map

REPO = Path(__file__).resolve().parents[2]
NS = "{http://www.w3.org/2000/svg}"

# The Raspberry Pi 40-pin header (physical pin -> BCM GPIO); the rest is power, ground or
# the HAT EEPROM's pins.
PINOUT = {3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24,
          19: 10, 21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19,
          36: 16, 37: 26, 38: 20, 40: 21}


@dataclass(frozen=True)
class Pin:
    physical: int
    x: float
    y: float


def _expected(entry: str) -> str:
    """The words a label must hold for a pin map entry."""
    patterns: list[tuple[str, Callable[[re.Match[str]], str]]] = [
        (r"pads\.pins\[(\d+)\]", lambda m: f"Seat {int(m[1]) + 1} pad"),
        (r"leds\.pins\[(\d+)\]", lambda m: f"Seat {int(m[1]) + 1} LED"),
        (r"keypad\.rows\[(\d+)\]", lambda m: f"Keypad row {int(m[1]) + 1}"),
        (r"keypad\.cols\[(\d+)\]", lambda m: f"Keypad column {int(m[1]) + 1}"),
        (r"host_buttons\.(\w+)", lambda m: f"Host button '{m[1]}'"),
        (r"answer\.green", lambda m: "Answer LED green"),
        (r"answer\.red", lambda m: "Answer LED red"),
        (r"status", lambda m: "Status LED"),
        (r"pads\.interrupt", lambda m: "INTA"),
        (r"I2C SDA", lambda m: "SDA"),
        (r"I2C SCL", lambda m: "SCL"),
        (r"SPI0 MOSI", lambda m: "LED chain data"),
        (r"SPI0 \w+", lambda m: "SPI"),
    ]
    for pattern, words in patterns:
        m = re.fullmatch(pattern + r"( \(\w+\))?", entry)
        if m:
            return words(m)
    raise AssertionError(f"no expectation for {entry!r}")


def _read(svg: Path) -> tuple[list[Pin], list[dict[str, float]], list[tuple[float, float, str]]]:
    root = ET.parse(svg).getroot()
    circles = [(float(c.get("cx", 0)), float(c.get("cy", 0))) for c in root.iter(f"{NS}circle")]
    xs = sorted({x for x, _y in circles})
    assert len(circles) == 40 and len(xs) == 2, "the header: 40 pins in two columns"
    pins = []
    for x, y in circles:
        row = sorted({cy for _cx, cy in circles}).index(y)
        pins.append(Pin(2 * row + (1 if x == xs[0] else 2), x, y))
    lines = [{k: float(line.get(k, 0)) for k in ("x1", "y1", "x2", "y2")} for line in root.iter(f"{NS}line")]
    texts = [(float(t.get("x", 0)), float(t.get("y", 0)), t.text or "") for t in root.iter(f"{NS}text")]
    return pins, lines, texts


def _wire(pin: Pin, lines: list[dict[str, float]]) -> float | None:
    """The far end (x) of the straight wire that leaves this pin's circle, if any."""
    for line in lines:
        if line["y1"] == line["y2"] == pin.y:
            ends = sorted((line["x1"], line["x2"]), key=lambda x: abs(x - pin.x))
            if abs(ends[0] - pin.x) <= 10:
                return ends[1]
    return None


def _label(pin: Pin, end: float, texts: list[tuple[float, float, str]]) -> str:
    near = [s for x, y, s in texts if abs(y - pin.y) <= 6 and abs(x - end) <= 15]
    assert len(near) == 1, f"pin {pin.physical}: labels at the wire's end: {near}"
    return near[0]


@pytest.mark.parametrize(("name", "svg"), [("pins-10", "wiring.svg"), ("pins-16", "wiring-16.svg")])
def test_every_pin_of_the_map_has_its_wire_and_label(name: str, svg: str) -> None:
    pm = load_pin_map(name)
    pins, lines, texts = _read(REPO / "hardware" / svg)
    by_physical = {p.physical: p for p in pins}
    # The number printed at each pin is the pin's own (pin 1 top left, 2 top right ...).
    for pin in pins:
        numbers = [s for x, y, s in texts if s.isdigit() and abs(y - (pin.y - 8)) <= 2
                   and abs(x - pin.x) <= 20]
        assert numbers == [str(pin.physical)], f"pin at ({pin.x}, {pin.y}): {numbers}"
    used = dict(pm.uses)
    physical_of = {bcm: phys for phys, bcm in PINOUT.items()}
    for bcm, entry in used.items():
        pin = by_physical[physical_of[bcm]]
        end = _wire(pin, lines)
        assert end is not None, f"GPIO{bcm} ({entry}) has no wire"
        label = _label(pin, end, texts)
        assert f"GPIO{bcm} " in label + " ", f"GPIO{bcm}: {label!r}"
        assert _expected(entry) in label, f"GPIO{bcm} ({entry}): {label!r}"
    for phys, bcm in PINOUT.items():
        if bcm not in used:
            assert _wire(by_physical[phys], lines) is None, f"GPIO{bcm} is not in the map but wired"
    if isinstance(pm.pads, ExpanderPads):
        # Pads on the expander: every seat's pad is named on its GPA/GPB pins.
        words = " ".join(s for _x, _y, s in texts)
        assert re.search(r"GPA0-GPA7 \(21-28\)\W+(pads of )?seats 1-8", words), words
        assert re.search(rf"GPB0-GPB7 \(1-8\)\W+(pads of )?seats 9-{pm.seats}", words), words
        assert f"INTA (20) → GPIO{pm.pads.interrupt}" in words
