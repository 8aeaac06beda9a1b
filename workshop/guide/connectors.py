"""The connectors and which wire is which: the seat cable's RJ45 (both builds), the seat
sockets against the Pi's pins (from a pin map), the sound wiring and the 4x4 keypad.

A seat cable is a ready-made Cat5e patch cable: four twisted pairs, each signal twisted
with a ground (or a supply) of its own, so a signal and its return run together.
"""

from __future__ import annotations

from narrator.devices.pinmap import ExpanderPads, GpioLeds, GpioPads, PinMap

# RJ45 pin -> signal (both builds agree on 2-6; 1, 7 and 8 differ).
SEAT_PINS = {"led": 1, "led_gnd": 2, "pad": 3, "3v3": 4, "gnd": 5, "pad_gnd": 6, "dout": 7,
             "5v": 8}
T568B = {1: "white-orange", 2: "orange", 3: "white-green", 4: "blue", 5: "white-blue",
         6: "green", 7: "white-brown", 8: "brown"}
PAIRS = {1: 1, 2: 1, 3: 2, 6: 2, 4: 3, 5: 3, 7: 4, 8: 4}
# (10 seats: LED on a GPIO, 16 seats: WS2812 pixel, pod end)
SEAT_CABLE: dict[int, tuple[str, str, str]] = {
    1: ("LED + (from its resistor in the box)", "pixel DIN (data in)", "LED long leg / DIN"),
    2: ("GND: the LED's return", "GND", "LED short leg / pixel GND"),
    3: ("pad signal (TTP223 I/O)", "pad signal (TTP223 I/O)", "TTP223 I/O"),
    4: ("3.3 V", "3.3 V", "TTP223 VCC"),
    5: ("GND", "GND", "joined to pin 6 in the pod"),
    6: ("GND: the pad's return", "GND: the pad's return", "TTP223 GND"),
    7: ("not connected", "pixel DOUT, back to the box", "— / pixel DOUT"),
    8: ("not connected", "5 V for the pixel", "— / pixel 5 V"),
}

# Physical header pin of each BCM GPIO on a Pi 4 / 5.
BCM_TO_HEADER = {2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16,
                 24: 18, 10: 19, 9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 5: 29, 6: 31, 12: 32,
                 13: 33, 19: 35, 16: 36, 26: 37, 20: 38, 21: 40}


def md(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def seat_cable_table() -> str:
    rows = [[str(pin), T568B[pin], str(PAIRS[pin]), *SEAT_CABLE[pin]] for pin in range(1, 9)]
    return md(["RJ45 pin", "colour (T568B)", "pair", "10 seats", "16 seats", "in the pod"], rows)


def gpio(pin: int) -> str:
    return f"GPIO{pin} (header {BCM_TO_HEADER[pin]})"


def expander_pin(seat: int) -> str:
    bank, bit = ("A", seat - 1) if seat <= 8 else ("B", seat - 9)
    chip_pin = 21 + bit if bank == "A" else 1 + bit
    return f"MCP23017 GP{bank}{bit} (chip pin {chip_pin})"


def sockets_table(pm: PinMap, led_r: str, pad_r: str, data_r: str, pull_r: str) -> str:
    """Seat n's socket in the box: what its pins 1, 3 (and 7) meet inside."""
    rows = []
    for seat in range(1, pm.seats + 1):
        if isinstance(pm.leds, GpioLeds):
            led = f"{led_r} ← {gpio(pm.leds.pins[seat - 1])}"
        else:
            led = (f"{data_r} ← 74AHCT125 1Y" if seat == 1 else f"socket {seat - 1} pin 7")
        if isinstance(pm.pads, GpioPads):
            pad = f"{pad_r} → {gpio(pm.pads.pins[seat - 1])}"
        else:
            assert isinstance(pm.pads, ExpanderPads)
            pad = f"{pad_r} → {expander_pin(seat)}, {pull_r} from there to GND"
        row = [str(seat), led, pad]
        if not isinstance(pm.leds, GpioLeds):
            row.append(f"socket {seat + 1} pin 1" if seat < pm.seats else "not connected")
        rows.append(row)
    header = ["seat", "socket pin 1", "socket pin 3"]
    if not isinstance(pm.leds, GpioLeds):
        header.append("socket pin 7")
    return md(header, rows)


def box_table(pm: PinMap, led_r: str) -> str:
    """The LEDs and buttons inside the box itself."""
    rows = [["answer LED green (yes)", gpio(pm.answer_yes), f"{led_r}, LED, GND", "in the hood"],
            ["answer LED red (no)", gpio(pm.answer_no), f"{led_r}, LED, GND", "in the hood"]]
    if pm.status is not None:
        rows.append(["status LED", gpio(pm.status), f"{led_r}, LED, GND", "front wall"])
    for name, pin in pm.host_buttons:
        rows.append([f"host button '{name}'", gpio(pin), "button to GND", "front wall"])
    return md(["what", "pin", "circuit", "where"], rows)


def keypad_table(pm: PinMap, row_r: str) -> str:
    assert pm.keypad is not None
    k = pm.keypad
    rows = [[str(i + 1), f"row {i + 1}", f"{row_r} → {gpio(p)}"] for i, p in enumerate(k.rows)]
    rows += [[str(len(k.rows) + i + 1), f"column {i + 1}", gpio(p)] for i, p in enumerate(k.cols)]
    return md(["ribbon pin (from the left, keys facing you)", "line", "to"], rows)


SOUND_TABLE = md(
    ["from", "to", "why"],
    [["sound card's green jack (3.5 mm): tip (left)", "PAM8403 input L", "mono: one channel is enough"],
     ["the jack's sleeve (ground)", "PAM8403 input ⊥", "the audio ground, not the power GND pad"],
     ["the jack's ring (right)", "not connected", ""],
     ["PAM8403 L+ and L−", "speaker + and −", "bridged outputs: neither is ground; never join L− to GND"],
     ["PAM8403 5V and GND", "Pi header pin 4 (5 V) and pin 6 (GND)", "a short twisted pair"],
     ["clip microphone's plug", "sound card's pink jack", "the card powers the electret"]],
)
