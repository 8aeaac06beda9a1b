"""What `narrator check-hardware` found: one result per seat, box LED, host button, keypad
and the sound loop, and the short report printed at the end.

Only seat numbers, pins and levels appear: the check knows nothing about any game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from narrator.devices.sound_check import SoundFigures

Answer = Literal["tap", "hold"]


@dataclass
class SeatResult:
    seat: int
    pad: str                          # where its pad is read: "GPIO4", "MCP23017 GPA3"
    led: str                          # where its LED is driven: "GPIO14", "WS2812 pixel 4"
    led_set: bool = True              # the output took the level (read back)
    answer: Answer | None = None      # how its own pad answered while its LED was lit
    came_as: int | None = None        # the seat whose input answered instead (crossed)
    came_as_where: str = ""
    stuck: bool = False               # active before anyone touched it

    def problem(self) -> str | None:
        if self.stuck:
            return ("pad active before anyone touched it: stuck, touched while the box "
                    "started, or `pads.active` in the map is wrong")
        if self.came_as is not None:
            dark = "; its LED was dark too" if self.answer == "hold" else ""
            return (f"crossed: its touch came in as seat {self.came_as} "
                    f"({self.came_as_where}){dark}")
        if self.answer is None:
            return "no answer: pad dead or unplugged, or its wire is on no input"
        if not self.led_set:
            return f"the LED output ({self.led}) did not take the level"
        if self.answer == "hold":
            return "LED dark: the pad works, the LED did not light (backwards, broken or its wire)"
        return None


@dataclass
class BoxLedResult:
    label: str                  # "answer LED green"
    where: str
    led_set: bool = True
    answer: Answer | None = None

    def problem(self) -> str | None:
        if self.answer is None:
            return "no answer (nobody touched a pad)"
        if not self.led_set:
            return f"the output ({self.where}) did not take the level"
        if self.answer == "hold":
            return "not seen: dark, or the wrong colour (green and red swapped?)"
        return None


@dataclass
class ButtonResult:
    name: str
    where: str
    answered: bool = False
    others: list[str] = field(default_factory=list)

    def problem(self) -> str | None:
        if not self.answered:
            return "no answer"
        if self.others:
            return f"meanwhile: {', '.join(self.others)}"
        return None


@dataclass
class KeypadResult:
    label: str                                  # "USB keypad", "4x4 keypad (GPIO)"
    expected: tuple[str, ...] = ()              # key labels, as printed on the keys
    got: set[str] = field(default_factory=set)
    skipped: str | None = None                  # why it was not checked (not a fault)
    error: str | None = None                    # could not be opened

    @property
    def missing(self) -> list[str]:
        return [k for k in self.expected if k not in self.got]

    def problem(self) -> str | None:
        if self.skipped is not None:
            return None
        if self.error is not None:
            return self.error
        if self.missing:
            return f"keys never seen: {' '.join(self.missing)}"
        return None


@dataclass
class SoundResult:
    where: str
    figures: SoundFigures | None = None
    error: str | None = None
    skipped: str | None = None

    def problems(self) -> list[str]:
        if self.skipped is not None:
            return []
        if self.error is not None:
            return [self.error]
        assert self.figures is not None
        return self.figures.problems()


@dataclass
class Report:
    seats: list[SeatResult] = field(default_factory=list)
    box: list[BoxLedResult] = field(default_factory=list)
    buttons: list[ButtonResult] = field(default_factory=list)
    keypads: list[KeypadResult] = field(default_factory=list)
    sound: SoundResult | None = None
    notes: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        """Every fault, each naming its seat, LED, button, keypad or the sound."""
        out = [f"seat {r.seat}: {p}" for r in self.seats if (p := r.problem())]
        out += [f"{r.label}: {p}" for r in self.box if (p := r.problem())]
        out += [f"host button {r.name}: {p}" for r in self.buttons if (p := r.problem())]
        out += [f"{r.label}: {p}" for r in self.keypads if (p := r.problem())]
        if self.sound is not None:
            out += [f"sound: {p}" for p in self.sound.problems()]
        return out

    @property
    def ok(self) -> bool:
        return not self.problems()

    def lines(self) -> list[str]:
        out = ["", "Report"]
        if self.seats:
            out.append("  seats (LED lit, pad touched):")
            for r in self.seats:
                out.append(f"    seat {r.seat:<3} pad {r.pad:<15}  LED {r.led:<15}  "
                           f"{r.problem() or 'ok'}")
        for led in self.box:
            out.append(f"  {led.label:<18} {led.where:<10} {led.problem() or 'ok'}")
        for b in self.buttons:
            out.append(f"  host button {b.name:<6} {b.where:<10} {b.problem() or 'ok'}")
        for k in self.keypads:
            state = k.skipped or k.problem() or f"all {len(k.expected)} keys"
            out.append(f"  {k.label}: {state}")
        if self.sound is not None:
            s = self.sound
            if s.skipped is not None:
                out.append(f"  sound: {s.skipped}")
            elif s.error is not None:
                out.append(f"  sound ({s.where}): {s.error}")
            else:
                assert s.figures is not None
                verdict = "; ".join(s.figures.problems() + s.figures.warnings()) or "ok"
                out.append(f"  sound ({s.where}): {s.figures.line()}: {verdict}")
        out += [f"  note: {n}" for n in self.notes]
        problems = self.problems()
        if problems:
            out.append(f"{len(problems)} problem{'s' if len(problems) > 1 else ''}:")
            out += [f"  - {p}" for p in problems]
        else:
            out.append("Everything answered.")
        return out
