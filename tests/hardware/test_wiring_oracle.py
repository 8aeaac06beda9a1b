"""An oracle for the wiring drawings that does not trust the code that draws them.

It reads the committed SVG in hardware/ as geometry (header pins are circles, each with
its number beside it; a wire runs from a pin to a label), reads the pin map with plain
yaml.safe_load rather than the project's parser, and places each BCM number on the
header with its own table, copied from the Raspberry Pi pinout. Then every pin the map
uses must be wired to a label naming that exact seat, LED or button and that GPIO, and
nothing else may claim it.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
NS = "{http://www.w3.org/2000/svg}"

# The 40-pin header of a Raspberry Pi 4 / 5: physical pin -> BCM GPIO (power, ground and
# the HAT EEPROM pins are absent). From the board's printed pinout, not from narrator.
PHYSICAL_TO_BCM = {
    3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10,
    21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19, 36: 16,
    37: 26, 38: 20, 40: 21,
}
POWER_3V3, POWER_5V = {1, 17}, {2, 4}
GROUND = {6, 9, 14, 20, 25, 30, 34, 39}


@dataclass
class Text:
    x: float
    y: float
    anchor: str
    text: str


@dataclass
class Pin:
    physical: int
    x: float
    y: float
    label: str | None   # the text at the far end of its wire; None: no wire


def _f(el: ET.Element, key: str) -> float:
    return float(el.attrib[key])


def read_header(svg: Path) -> dict[int, Pin]:
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    circles = [(_f(c, "cx"), _f(c, "cy")) for c in root.iter(f"{NS}circle")
               if _f(c, "r") == 7]
    texts = [Text(_f(t, "x"), _f(t, "y"), t.attrib.get("text-anchor", "start"), t.text or "")
             for t in root.iter(f"{NS}text")]
    lines = [(_f(ln, "x1"), _f(ln, "y1"), _f(ln, "x2"), _f(ln, "y2"))
             for ln in root.iter(f"{NS}line")]
    pins: dict[int, Pin] = {}
    for cx, cy in circles:
        # The pin's number: the small digits printed next to the circle.
        near = [t for t in texts if t.text.isdigit() and math.hypot(t.x - cx, t.y - cy) < 20]
        assert len(near) == 1, (cx, cy, near)
        number = int(near[0].text)
        label = None
        for x1, y1, x2, y2 in lines:
            if not (abs(y1 - cy) < 1 and abs(y2 - cy) < 1):
                continue
            ends = sorted((x1, x2), key=lambda x: abs(x - cx))
            if abs(ends[0] - cx) > 12:
                continue   # a wire starts at the pin's edge
            far = ends[1]
            found = [t for t in texts if abs(t.y - 4 - cy) < 1 and abs(t.x - far) < 15
                     and not t.text.isdigit()]
            assert len(found) == 1, (number, found)
            label = found[0].text
        pins[number] = Pin(number, cx, cy, label)
    return pins


def expected(pin_map: dict[str, Any]) -> dict[int, str]:
    """BCM pin -> a pattern its label must match, from the map file itself."""
    want: dict[int, str] = {}
    pads, leds = pin_map["pads"], pin_map["leds"]
    for i, pin in enumerate(pads.get("pins", [])):
        want[pin] = rf"^Seat {i + 1} pad\b"
    for i, pin in enumerate(leds.get("pins", [])):
        want[pin] = rf"^Seat {i + 1} LED\b"
    if pads.get("kind") == "mcp23017":
        want[pads["interrupt"]] = r"MCP23017 INTA"
        want[2], want[3] = r"MCP23017 SDA", r"MCP23017 SCL"
    if leds.get("kind") == "ws2812":
        assert leds["spi"] == [0, 0]
        want[10] = r"^LED chain data"
    want[pin_map["answer"]["green"]] = r"^Answer LED green"
    want[pin_map["answer"]["red"]] = r"^Answer LED red"
    if pin_map.get("status") is not None:
        want[pin_map["status"]] = r"^Status LED"
    for name, pin in (pin_map.get("host_buttons") or {}).items():
        want[pin] = rf"^Host button '{name}'"
    keypad = pin_map.get("keypad")
    if keypad:
        for i, pin in enumerate(keypad["rows"]):
            want[pin] = rf"^Keypad row {i + 1}\b"
        for i, pin in enumerate(keypad["cols"]):
            want[pin] = rf"^Keypad column {i + 1}\b"
    return want


@pytest.mark.parametrize(("pins", "svg"), [("pins-10.yaml", "wiring.svg"),
                                           ("pins-16.yaml", "wiring-16.svg")])
def test_every_pin_of_the_map_is_wired_to_its_label(pins: str, svg: str) -> None:
    pin_map = yaml.safe_load((REPO / "hardware" / pins).read_text(encoding="utf-8"))
    header = read_header(REPO / "hardware" / svg)
    assert sorted(header) == list(range(1, 41))   # all forty pins drawn, once each
    # Odd pins in the left column, even in the right, pin 1 at the top.
    assert len({p.x for n, p in header.items() if n % 2}) == 1
    assert len({p.x for n, p in header.items() if not n % 2}) == 1
    assert [header[n].y for n in range(1, 41, 2)] == sorted(header[n].y for n in range(1, 41, 2))
    want = expected(pin_map)
    for physical, bcm in PHYSICAL_TO_BCM.items():
        label = header[physical].label
        if bcm not in want:
            # A pin the map leaves free carries nothing a builder could wire to.
            assert label is None or "leave free" in label, (physical, label)
            continue
        assert label is not None, f"GPIO{bcm} (pin {physical}) has no wire"
        core = label.replace(f"· GPIO{bcm}", "").replace(f"GPIO{bcm} ·", "").strip()
        assert re.search(rf"\bGPIO{bcm}\b", label), (physical, label)
        assert re.search(want[bcm], core), (physical, bcm, label, want[bcm])
    # No seat, LED or button is claimed twice.
    claims = [re.match(r"^(Seat \d+ (pad|LED)|Host button '\w+'|Answer LED \w+|Status LED)",
                       (p.label or "").split("· ")[-1]) for p in header.values()]
    names = [m.group(1) for m in claims if m]
    assert len(names) == len(set(names))
    for n in POWER_3V3:
        assert (header[n].label or "").startswith("3.3 V")
    for n in GROUND:
        assert header[n].label == "ground"


def test_the_oracle_catches_a_wrong_drawing(tmp_path: Path) -> None:
    """Swap two seats' labels in a copy of the drawing: the oracle must refuse it."""
    text = (REPO / "hardware" / "wiring.svg").read_text(encoding="utf-8")
    bad = text.replace("Seat 4 pad:", "Seat @ pad:").replace("Seat 5 pad:", "Seat 4 pad:") \
              .replace("Seat @ pad:", "Seat 5 pad:")
    assert bad != text
    copy = tmp_path / "wiring.svg"
    copy.write_text(bad, encoding="utf-8")
    header = read_header(copy)
    want = expected(yaml.safe_load((REPO / "hardware" / "pins-10.yaml").read_text()))
    labels = {n: header[n].label or "" for n in PHYSICAL_TO_BCM}
    wrong = [n for n, bcm in PHYSICAL_TO_BCM.items() if bcm in want
             and not re.search(want[bcm], labels[n].replace(f"· GPIO{bcm}", "")
                               .replace(f"GPIO{bcm} ·", "").strip())]
    assert wrong == [15, 19]   # GPIO22 (seat 4's pad) and GPIO10 (seat 5's)
