"""The wiring diagrams are drawn from the pin maps and kept in step with them."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from narrator.devices.pinmap import load_pin_map
from narrator.devices.wiring import HEADER, draw

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("name", "svg"), [("pins-10", "wiring.svg"),
                                           ("pins-16", "wiring-16.svg")])
def test_the_diagram_shows_every_pin_of_the_map(name: str, svg: str) -> None:
    pm = load_pin_map(name)
    text = draw(pm)
    root = ET.fromstring(text)
    labels = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    for pin, _entry in pm.uses:
        assert sum(s.startswith(f"GPIO{pin} ·") or s.endswith(f"· GPIO{pin}")
                   for s in labels) == 1, pin
    for seat in range(1, pm.seats + 1):
        if name == "pins-10":
            assert any(s.startswith(f"Seat {seat} pad") for s in labels)
            assert any(f"Seat {seat} LED" in s for s in labels)
    # Every header pin is drawn.
    assert [s for s in labels if s.isdigit() and int(s) in HEADER] == \
        [str(n) for n in HEADER]
    # The committed picture is the one the map draws (run scripts/make-wiring after edits).
    assert (REPO / "hardware" / svg).read_text(encoding="utf-8") == text
