"""Everything scripts/make-hardware writes: the SVGs in hardware/ and the generated blocks
of hardware/README.md, as {path relative to the repository: text}.

A block in the README sits between `<!-- make-hardware: NAME -->` and
`<!-- /make-hardware: NAME -->`; the text between is replaced, the rest of the README is
written by hand.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from pathlib import Path

from workshop.guide import box, pod, wiring
from workshop.guide.connectors import (
    SOUND_TABLE,
    box_table,
    keypad_table,
    seat_cable_table,
    sockets_table,
)
from workshop.guide.data import ROOT, Parts, Spec, load_build, load_parts, pin_map_of
from workshop.guide.tables import (
    cost_summary,
    cost_table,
    long_run_table,
    parts_table,
    placement_table,
    power_table,
    runs_table,
)
from workshop.guide.wiring import ohms

README = "hardware/README.md"
_BLOCK = re.compile(r"(<!-- make-hardware: (?P<name>[\w-]+) -->\n)(?P<body>.*?)"
                    r"(<!-- /make-hardware: (?P=name) -->)", re.S)


class ReadmeError(ValueError):
    pass


def blocks(parts: Parts, spec: Spec) -> dict[str, str]:
    e = "electrical."
    led_r, pad_r = ohms(spec.num(e + "led_resistor")), ohms(spec.num(e + "pad_resistor"))
    data_r, row_r = ohms(spec.num(e + "pixel_data_resistor")), ohms(spec.num(e + "keypad_row_resistor"))
    pull_r = ohms(spec.num(e + "expander_pull_down"))
    out: dict[str, Callable[[], str]] = {
        "prices": lambda: (f"Prices are estimates in euros, as of {parts.priced}: typical "
                           "European retail with VAT, written down without looking anything "
                           "up. Check before you order."),
        "parts": lambda: parts_table(parts, spec),
        "cost": lambda: cost_table(parts, spec),
        "cost-summary": lambda: cost_summary(parts, spec),
        "power": lambda: power_table(parts, spec),
        "runs": lambda: runs_table(parts, spec),
        "long-run": lambda: long_run_table(spec),
        "placement": lambda: placement_table(parts, spec),
        "seat-cable": seat_cable_table,
        "sound": lambda: SOUND_TABLE,
    }
    for build in parts.builds:
        pm = pin_map_of(build)
        out[f"sockets-{build.pins}"] = partial(sockets_table, pm, led_r, pad_r, data_r, pull_r)
        out[f"box-{build.pins}"] = partial(box_table, pm, led_r)
        if pm.keypad is not None:
            out[f"keypad-{build.pins}"] = partial(keypad_table, pm, row_r)
    return {name: make() for name, make in out.items()}


def splice(text: str, made: dict[str, str], source: str = README) -> str:
    found = {m.group("name") for m in _BLOCK.finditer(text)}
    unknown = found - set(made)
    if unknown:
        raise ReadmeError(f"{source}: block {sorted(unknown)[0]!r} is made by nothing "
                          f"(known: {', '.join(made)})")
    missing = set(made) - found
    if missing:
        raise ReadmeError(f"{source}: no block for {sorted(missing)[0]!r}: add "
                          f"<!-- make-hardware: {sorted(missing)[0]} --> and its end marker")
    return _BLOCK.sub(lambda m: f"{m.group(1)}{made[m.group('name')]}\n{m.group(4)}", text)


def outputs(root: Path = ROOT) -> dict[str, str]:
    parts = load_parts(root / "hardware" / "parts.yaml")
    spec = load_build(root / "hardware" / "build.yaml")
    files: dict[str, str] = {}
    for build in parts.builds:
        pm = pin_map_of(build)
        suffix = "" if build.pins == "pins-10" else f"-{build.pins.removeprefix('pins-')}"
        files[f"hardware/wiring{suffix}.svg"] = wiring.draw(pm, spec)
        files[f"hardware/box{suffix}.svg"] = box.draw(pm, spec)
    files["hardware/pod.svg"] = pod.draw(spec)
    readme = (root / README).read_text(encoding="utf-8")
    files[README] = splice(readme, blocks(parts, spec))
    return files
