"""A small SVG writer for the build drawings: text, lines, boxes, circles, arrows, and the
few circuit symbols the wiring uses. Coordinates are written rounded, so a drawing is
the same text on every machine (the test compares it byte for byte)."""

from __future__ import annotations

from html import escape

FONT = "DejaVu Sans, Arial, sans-serif"


def _n(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


class Svg:
    def __init__(self, width: float) -> None:
        self.width = width
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(self, x: float, y: float, s: str, size: float = 13, anchor: str = "start",
             color: str = "#222", weight: str = "normal", italic: bool = False) -> None:
        style = ' font-style="italic"' if italic else ""
        self.add(f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" text-anchor="{anchor}" '
                 f'fill="{color}" font-weight="{weight}"{style}>{escape(s)}</text>')

    def line(self, x1: float, y1: float, x2: float, y2: float, color: str = "#222",
             width: float = 2.5, dash: str | None = None) -> None:
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
                 f'stroke="{color}" stroke-width="{_n(width)}" stroke-linecap="round"{extra}/>')

    def rect(self, x: float, y: float, w: float, h: float, fill: str, stroke: str = "#222",
             rx: float = 4, width: float = 1.5, dash: str | None = None) -> None:
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="{_n(rx)}" '
                 f'fill="{fill}" stroke="{stroke}" stroke-width="{_n(width)}"{extra}/>')

    def circle(self, x: float, y: float, r: float, fill: str, stroke: str = "#222",
               width: float = 1.5, dash: str | None = None) -> None:
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{fill}" stroke="{stroke}" '
                 f'stroke-width="{_n(width)}"{extra}/>')

    def arrow(self, x1: float, y1: float, x2: float, y2: float, color: str = "#555") -> None:
        """A thin leader line with a dot where it points (label at x1, y1)."""
        self.line(x1, y1, x2, y2, color, 1)
        self.circle(x2, y2, 2, color, color, 1)

    def dimension(self, x1: float, y1: float, x2: float, y2: float, label: str,
                  offset: float = 14) -> None:
        """A dimension line between two points, its label beside the middle."""
        horizontal = abs(y2 - y1) < abs(x2 - x1)
        self.line(x1, y1, x2, y2, "#777", 1)
        for x, y in ((x1, y1), (x2, y2)):
            if horizontal:
                self.line(x, y - 4, x, y + 4, "#777", 1)
            else:
                self.line(x - 4, y, x + 4, y, "#777", 1)
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        if horizontal:
            self.text(mx, my - offset / 2, label, 11, "middle", "#555")
        else:
            self.text(mx + offset / 2, my + 4, label, 11, "start", "#555")

    def resistor(self, x: float, y: float) -> None:
        """A resistor lying along a wire from x to x+40."""
        self.rect(x + 8, y - 6, 24, 12, "#fff")

    def led(self, x: float, y: float, color: str) -> None:
        """An LED pointing right, anode at x, cathode at x+24."""
        self.add(f'<polygon points="{_n(x)},{_n(y - 9)} {_n(x)},{_n(y + 9)} {_n(x + 16)},{_n(y)}" '
                 f'fill="{color}" stroke="#222" stroke-width="1.5"/>')
        self.line(x + 16, y - 9, x + 16, y + 9, "#222", 2)
        self.line(x + 16, y, x + 24, y, "#222", 2)

    def ground(self, x: float, y: float) -> None:
        self.line(x, y, x, y + 8, "#222", 2)
        for i, half in enumerate((10, 6, 2)):
            self.line(x - half, y + 8 + 4 * i, x + half, y + 8 + 4 * i, "#222", 2)

    def done(self, height: float) -> str:
        w, h = _n(self.width), _n(height)
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                f'viewBox="0 0 {w} {h}" font-family="{FONT}">')
        return "\n".join([head, f'<rect width="{w}" height="{h}" fill="#fbfbf7"/>',
                          *self.parts, "</svg>\n"])
