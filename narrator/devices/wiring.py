"""The wiring diagram (SVG) drawn from a pin map: scripts/make-wiring writes hardware/*.svg.

The Pi's 40-pin header sits in the middle, drawn as on every pinout card: odd pins on
the left, pin 1 at the top. Each used pin gets a straight wire to a label on its side
saying what to connect there; below come the small circuits repeated at every seat.
"""

from __future__ import annotations

from html import escape

from narrator.devices.pinmap import ExpanderPads, GpioLeds, PinMap, StripLeds

# Physical pin -> what it is on a Raspberry Pi 4 / 5 (BCM numbers as ints).
HEADER: dict[int, int | str] = {
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND",
    21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: "ID_SD", 28: "ID_SC", 29: 5, 30: "GND",
    31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21,
}
COLORS = {
    "pad": "#1f6fd1", "led": "#e07b00", "green": "#1a9b3c", "red": "#d12a2a",
    "status": "#8a3fd1", "button": "#555555", "bus": "#0f8f8f", "keypad": "#8b5a2b",
    "power": "#c0392b", "ground": "#222222", "spare": "#b0b0b0",
}
PITCH = 30
TOP = 150
LEFT_X, RIGHT_X = 560, 620          # the two pin columns
WIDTH = 1180


def describe(entry: str, pm: PinMap) -> tuple[str, str]:
    """(label, colour key) for a pin map entry such as 'pads.pins[3]'."""
    if entry.startswith("pads.pins["):
        seat = int(entry[10:-1]) + 1
        part = "TTP223 I/O" if pm.pads.active_high else "button (other leg to GND)"
        return f"Seat {seat} pad: {part}", "pad"
    if entry.startswith("leds.pins["):
        seat = int(entry[10:-1]) + 1
        return f"Seat {seat} LED: 330 Ω, LED, GND", "led"
    if entry == "answer.green":
        return "Answer LED green (yes): 330 Ω, LED, GND", "green"
    if entry == "answer.red":
        return "Answer LED red (no): 330 Ω, LED, GND", "red"
    if entry == "status":
        return "Status LED: 330 Ω, LED, GND", "status"
    if entry.startswith("host_buttons."):
        return f"Host button '{entry[13:]}': button to GND", "button"
    if entry.startswith("keypad.rows["):
        return f"Keypad row {int(entry[12:-1]) + 1}: 330 Ω to the row", "keypad"
    if entry.startswith("keypad.cols["):
        return f"Keypad column {int(entry[12:-1]) + 1}", "keypad"
    if entry == "pads.interrupt":
        return "MCP23017 INTA (pin 20)", "bus"
    if "I2C SDA" in entry:
        return "MCP23017 SDA (pin 13)", "bus"
    if "I2C SCL" in entry:
        return "MCP23017 SCL (pin 12)", "bus"
    if "MOSI" in entry:
        return "LED chain data: to 74AHCT125 1A", "bus"
    if "SPI" in entry:
        return f"{entry.split(' (')[0]}: taken by SPI, leave free", "spare"
    return entry, "spare"


class _Svg:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(self, x: float, y: float, s: str, size: int = 13, anchor: str = "start",
             color: str = "#222", weight: str = "normal") -> None:
        self.add(f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" text-anchor="{anchor}" '
                 f'fill="{color}" font-weight="{weight}">{escape(s)}</text>')

    def line(self, x1: float, y1: float, x2: float, y2: float, color: str,
             width: float = 2.5) -> None:
        self.add(f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" '
                 f'stroke="{color}" stroke-width="{width}" stroke-linecap="round"/>')

    def rect(self, x: float, y: float, w: float, h: float, fill: str, stroke: str = "#222",
             rx: float = 4) -> None:
        self.add(f'<rect x="{x:.0f}" y="{y:.0f}" width="{w:.0f}" height="{h:.0f}" rx="{rx}" '
                 f'fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>')

    def circle(self, x: float, y: float, r: float, fill: str, stroke: str = "#222") -> None:
        self.add(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{r}" fill="{fill}" stroke="{stroke}" '
                 f'stroke-width="1.5"/>')

    def resistor(self, x: float, y: float) -> None:
        """A resistor lying along a wire from x to x+40."""
        self.rect(x + 8, y - 6, 24, 12, "#fff")

    def led(self, x: float, y: float, color: str) -> None:
        """An LED pointing right, anode at x, cathode at x+24."""
        self.add(f'<polygon points="{x:.0f},{y - 9:.0f} {x:.0f},{y + 9:.0f} {x + 16:.0f},{y:.0f}" '
                 f'fill="{color}" stroke="#222" stroke-width="1.5"/>')
        self.line(x + 16, y - 9, x + 16, y + 9, "#222", 2)
        self.line(x + 16, y, x + 24, y, "#222", 2)

    def ground(self, x: float, y: float) -> None:
        self.line(x, y, x, y + 8, "#222", 2)
        for i, half in enumerate((10, 6, 2)):
            self.line(x - half, y + 8 + 4 * i, x + half, y + 8 + 4 * i, "#222", 2)

    def done(self, height: int) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
                f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, Arial, sans-serif">')
        return "\n".join([head, f'<rect width="{WIDTH}" height="{height}" fill="#fbfbf7"/>',
                          *self.parts, "</svg>\n"])


def draw(pm: PinMap) -> str:
    svg = _Svg()
    uses = dict(pm.uses)
    svg.text(WIDTH / 2, 40, f"Narrator wiring: {pm.name} ({pm.seats} seats)", 22, "middle",
             weight="bold")
    svg.text(WIDTH / 2, 66, "Raspberry Pi 4 / 5, 40-pin header seen from above, pin 1 at the "
                            "top left (the corner with the square pad). BCM numbers.",
             13, "middle")
    svg.text(WIDTH / 2, 86, "Generated by scripts/make-wiring from the pin map: "
                            "edit the map, not this picture.", 12, "middle", "#666")
    svg.rect(LEFT_X - 30, TOP - 25, RIGHT_X - LEFT_X + 60, 20 * PITCH + 20, "#2d6a3e")
    for phys, what in HEADER.items():
        row = (phys - 1) // 2
        left = phys % 2 == 1
        x = LEFT_X if left else RIGHT_X
        y = TOP + row * PITCH
        if isinstance(what, int):
            label, key = describe(uses[what], pm) if what in uses else ("spare", "spare")
            label = f"{label}  · GPIO{what}" if left else f"GPIO{what} ·  {label}"
        else:
            label, key = {"3V3": ("3.3 V: TTP223 VCC", "power"), "5V": ("5 V", "power"),
                          "GND": ("ground", "ground")}.get(what, ("HAT EEPROM: leave free",
                                                                   "spare"))
        color = COLORS[key]
        pin_fill = "#f5c542" if phys == 1 else "#ddd"
        # The pin's own name on the board, its wire and what goes at the end of it.
        svg.text(x + (-14 if left else 14), y - 8, str(phys), 9, "middle", "#fff")
        if left:
            if key != "spare" or what in uses:
                svg.line(20 + 400, y, x - 9, y, color)
            svg.text(410, y + 4, label, 13, "end", color,
                     "bold" if key not in ("spare", "ground", "power") else "normal")
        else:
            if key != "spare" or what in uses:
                svg.line(x + 9, y, WIDTH - 420, y, color)
            svg.text(WIDTH - 410, y + 4, label, 13, "start", color,
                     "bold" if key not in ("spare", "ground", "power") else "normal")
        svg.circle(x, y, 7, pin_fill)
    bottom = _circuits(svg, pm, TOP + 20 * PITCH + 40)
    return svg.done(int(bottom + 30))


def _circuits(svg: _Svg, pm: PinMap, y: float) -> float:
    svg.text(40, y, "Repeated for every seat", 17, weight="bold")
    y += 40
    # The pad.
    if pm.pads.active_high:
        svg.rect(60, y - 20, 90, 60, "#e8f0fb", COLORS["pad"])
        svg.text(105, y - 2, "TTP223", 12, "middle", weight="bold")
        for i, pin in enumerate(("VCC → 3V3", "I/O → GPIO", "GND → GND")):
            svg.text(160, y - 8 + 18 * i, pin, 12, color=COLORS["pad"])
        svg.text(60, y + 60, "Touch pad: silent. Pad side up under the table cloth,", 12)
        svg.text(60, y + 76, "jumper A open (output high on touch), B open (momentary).", 12)
    else:
        svg.text(60, y, "Soft silicone button: one leg to the seat's GPIO, the other to GND.", 12)
    svg.text(60, y + 92, "Where a pad is on the MCP23017, I/O goes to its GPAn / GPBn pin."
             if isinstance(pm.pads, ExpanderPads) else "I/O goes to the seat's GPIO above.", 12)
    # The LED.
    x = 520
    if isinstance(pm.leds, GpioLeds):
        svg.text(x, y - 8, "GPIO", 12, color=COLORS["led"])
        svg.line(x + 36, y - 12, x + 60, y - 12, "#222", 2)
        svg.resistor(x + 60, y - 12)
        svg.line(x + 100, y - 12, x + 120, y - 12, "#222", 2)
        svg.led(x + 120, y - 12, "#ffd27a")
        svg.line(x + 144, y - 12, x + 170, y - 12, "#222", 2)
        svg.ground(x + 170, y - 12)
        svg.text(x, y + 30, "Seat, answer and status LEDs: GPIO → 330 Ω → LED (long leg)", 12)
        svg.text(x, y + 46, "→ short leg → GND. About 5 mA: well within a GPIO's limit.", 12)
    if isinstance(pm.leds, StripLeds):
        svg.text(x, y - 8, "WS2812B chain, one pixel at each seat, seat 1 first:", 12,
                 color=COLORS["bus"], weight="bold")
        for i in range(5):
            svg.rect(x + i * 80, y + 4, 50, 26, "#fff", COLORS["bus"])
            svg.text(x + 25 + i * 80, y + 22, "seat " + (str(i + 1) if i < 4 else "…"), 11,
                     "middle")
            if i < 4:
                svg.line(x + 50 + i * 80, y + 17, x + 80 + i * 80, y + 17, COLORS["bus"], 2)
        svg.text(x, y + 48, "GPIO10 (MOSI) → 74AHCT125 1A; 1Y → 330 Ω → DIN of pixel 1;", 12)
        svg.text(x, y + 64, "DOUT → DIN of the next. 5 V and GND along the chain, 1000 µF", 12)
        svg.text(x, y + 80, "across 5 V/GND at its start. 74AHCT125: 1OE to GND, VCC 5 V.", 12)
    y += 150
    if isinstance(pm.pads, ExpanderPads):
        svg.text(40, y, "MCP23017 (I2C address "
                        f"0x{pm.pads.address:02x})", 17, weight="bold")
        y += 26
        lines = [
            "VDD (9) → 3V3, VSS (10) → GND, RESET (18) → 3V3, A0 A1 A2 (15-17) → GND",
            "SCL (12) → GPIO3, SDA (13) → GPIO2, INTA (20) → "
            f"GPIO{pm.pads.interrupt} (open drain; the Pi's pull-up is used)",
            "GPA0-GPA7 (21-28) → pads of seats 1-8, GPB0-GPB7 (1-8) → pads of seats 9-16",
        ]
        for line in lines:
            svg.text(60, y, line, 12)
            y += 18
        y += 10
    if pm.keypad is not None:
        svg.text(40, y, "4x4 membrane keypad", 17, weight="bold")
        y += 26
        svg.text(60, y, "Its 8-pin ribbon: the 4 row wires (through 330 Ω each), then the 4 "
                        "column wires, to the GPIOs marked 'Keypad' above.", 12)
        y += 18
        svg.text(60, y, "Keys: " + " ".join(pm.keypad.keys) + "  (# = Enter, A = / "
                        "(foul, vote), B = - (pause), C = + (add time), D = . (next speaker))", 12)
        y += 28
    return y
