"""The build guide's tables, as Markdown: parts and cost, power, cable runs, the worked
numbers of a long run and of the box's placement. Each is one block of README.md."""

from __future__ import annotations

from workshop.guide.connectors import md
from workshop.guide.data import Parts, Spec
from workshop.guide.figures import (
    CostRow,
    cost,
    long_run,
    placement,
    power,
    runs,
    table_of,
)
from workshop.guide.wiring import ohms


def euros(value: float) -> str:
    return f"€{value:,.2f}"


def _names(parts: Parts, per_build: list[list[CostRow]]) -> list[str]:
    """Every part some build needs, in parts.yaml's order, then the cables by length."""
    needed = {r.part for rows in per_build for r in rows}
    names = [p.part for p in parts.parts if p.part in needed]
    cables = sorted({r.part for rows in per_build for r in rows if r.part not in names},
                    key=lambda n: float(n.rsplit(", ", 1)[1].split()[0]))
    return names + cables


def parts_table(parts: Parts, spec: Spec) -> str:
    """Every part with its count in each build (the bill of materials)."""
    per_build = [{r.part: r for r in cost(parts, spec, b)} for b in parts.builds]
    names = _names(parts, [list(rows.values()) for rows in per_build])
    notes = {p.part: p.note for p in parts.parts}
    groups = {p.part: p.group for p in parts.parts}
    out = []
    for group, title in (("box", "box"), ("pod", "pod"), ("cable", "cable")):
        for name in names:
            if groups.get(name, "cable") != group:
                continue
            counts = [str(rows[name].count) if name in rows else "–" for rows in per_build]
            out.append([title, name, *counts, notes.get(name, "")])
    return md(["for the", "part", *[f"{b.name}" for b in parts.builds], "notes"], out)


def cost_table(parts: Parts, spec: Spec) -> str:
    per_build = [cost(parts, spec, b) for b in parts.builds]
    rows: list[list[str]] = []
    names = _names(parts, per_build)
    for name in names:
        row = [name]
        for build_rows in per_build:
            found = next((r for r in build_rows if r.part == name), None)
            if found is None:
                row += ["–", ""]
            else:
                packs = f" ({found.packs} × {found.pack})" if found.pack > 1 else ""
                row += [f"{found.count}{packs}", euros(found.cost)]
        rows.append(row)
    total = ["**total**"]
    for build_rows in per_build:
        total += ["", f"**{euros(sum(r.cost for r in build_rows))}**"]
    rows.append(total)
    header = ["part"]
    for b in parts.builds:
        header += [f"{b.name}: to buy", "€"]
    return md(header, rows)


def cost_summary(parts: Parts, spec: Spec) -> str:
    lines = []
    for b in parts.builds:
        rows = cost(parts, spec, b)
        group = {g: euros(sum(r.cost for r in rows if r.group == g)) for g in ("box", "pod", "cable")}
        lines.append(f"- **{b.name}: {euros(sum(r.cost for r in rows))}**: the box {group['box']}, "
                     f"the pods {group['pod']}, cables and sundries {group['cable']}")
    return "\n".join(lines)


def runs_table(parts: Parts, spec: Spec) -> str:
    stock = sorted(parts.cable_prices)
    rows = []
    for t in spec.items("tables"):
        rs = runs(spec, t, stock)
        seats = len(rs)
        left = (seats + 1) // 2
        lengths: dict[float, int] = {}
        for r in rs:
            lengths[r.stock] = lengths.get(r.stock, 0) + 1
        buy = ", ".join(f"{n} × {m:g} m" for m, n in sorted(lengths.items()))
        rows.append([t.text("name"), f"{t.num('length_m'):g} × {t.num('width_m'):g} m",
                     f"{seats} ({left} + {seats - left})",
                     f"{min(r.metres for r in rs):.2f}–{max(r.metres for r in rs):.2f} m", buy])
    return md(["table", "size", "seats (left + right)", "runs, socket to pod", "patch cables"],
              rows)


def long_run_table(spec: Spec) -> str:
    f = long_run(spec)
    e = "electrical."
    m = f"{f.metres:g} m"
    led_r, pad_r = spec.num(e + "led_resistor"), spec.num(e + "pad_resistor")
    rows = [
        ["resistance of one conductor", f"{spec.num('cable.ohm_per_m'):g} Ω/m × {m}",
         f"{f.conductor_ohm:.2f} Ω (out and back {f.loop_ohm:.2f} Ω)"],
        ["LED current", f"(3.3 V − {spec.num(e + 'led_vf'):g} V) / {ohms(led_r)}",
         f"{f.led_ma:.2f} mA"],
        ["LED: drop in the cable", f"{f.led_ma:.2f} mA × {f.loop_ohm:.2f} Ω",
         f"{f.led_drop_mv:.1f} mV: {f.led_change_pct:.2f} % less current, not visible"],
        ["pad: current into the input", f"3.3 V / {spec.num(e + 'pull_down_ohm') / 1000:g} kΩ "
                                        "pull-down", f"{f.pad_ua:.0f} µA"],
        ["pad: drop to the input", f"{f.pad_ua:.0f} µA × ({ohms(pad_r)} + {f.conductor_ohm:.2f} Ω)",
         f"{f.pad_drop_mv:.0f} mV: the Pi sees {f.pad_high_v:.2f} V"],
        ["pad: margins", f"high above {spec.num(e + 'input_high_v'):g} V, "
                         f"low below {spec.num(e + 'input_low_v'):g} V",
         f"{f.high_margin_v:.2f} V and {f.low_margin_v:.2f} V to spare"],
        ["TTP223 supply drop", f"{spec.num(e + 'ttp223_current_ua'):g} µA × "
                               f"{f.conductor_ohm:.2f} Ω", f"{f.supply_drop_uv:.1f} µV"],
        ["capacitance of the pad's pair", f"{spec.num('cable.pair_pf_per_m'):g} pF/m × {m}",
         f"{f.pair_pf:.0f} pF"],
        ["LED line to pad line (crosstalk)", f"{spec.num('cable.crosstalk_pf_per_m'):g} pF/m "
                                             f"× {m}", f"{f.coupling_pf:.0f} pF"],
        ["spike on the pad line per LED edge", f"3.3 V × {f.coupling_pf:.0f} / "
                                               f"({f.coupling_pf:.0f} + {f.pair_pf:.0f}) pF",
         f"{f.spike_v:.2f} V for {f.spike_ns:.0f} ns: under the 0.8 V threshold, "
         f"{float(f'{f.debounce_ratio:.2g}'):,.0f} times shorter than the {spec.num(e + 'debounce_ms'):g} ms "
         "debounce"],
        ["mains hum, 20 pF to a 230 V cord", "2π × 50 Hz × 20 pF × 230 V",
         f"{f.mains_ua:.2f} µA: {f.mains_driven_mv:.1f} mV on a driven line, "
         f"{f.mains_open_mv:.0f} mV on an unplugged one (held by the pull-down)"],
        ["the touch electrode on the cable instead", f"finger {spec.nums(e + 'finger_pf')[0]:g}-"
                                                    f"{spec.nums(e + 'finger_pf')[1]:g} pF "
                                                    f"against {f.pair_pf:.0f} pF of cable",
         f"{f.finger_share_pct[0]:.0f}-{f.finger_share_pct[1]:.0f} % of the load, and over the "
         f"{spec.num(e + 'sensitivity_pf'):g} pF the TTP223 calibrates on: it would not work"],
        ["16 seats: pixel data edge", f"2.2 × {spec.num(e + 'pixel_data_resistor'):g} Ω × "
                                      f"{f.pair_pf:.0f} pF",
         f"{f.pixel_rise_ns:.0f} ns rise, inside the ±{spec.num(e + 'pixel_tolerance_ns'):g} ns "
         "the WS2812B allows"],
        ["16 seats: pixel 5 V drop", f"{spec.num(e + 'pixel_full_ma'):g} mA (full white) × "
                                     f"{f.loop_ohm:.2f} Ω", f"{f.pixel_drop_mv:.0f} mV"],
    ]
    return md(["what", "worked out", f"on a {m} run"], rows)


def placement_table(parts: Parts, spec: Spec) -> str:
    narrowest = min(table_of(spec, parts, b).num("width_m") for b in parts.builds)
    p = placement(spec, narrowest)
    rows = [
        ["answer hood", f"bore {spec.num('box.answer_hood.bore'):g} mm, "
                        f"{spec.num('box.answer_hood.height'):g} mm tall",
         f"the LEDs are seen within {p.hood_half_angle:.0f}° of straight up"],
        ["nearest seated eyes", f"{p.nearest_eye_m:.2f} m across, {p.eye_height_m:.2f} m above "
                                f"the table ({narrowest:g} m table)",
         f"{p.nearest_eye_angle:.0f}° from straight up: outside the cone"],
        ["to see the answer", f"eyes {p.eye_height_m:.2f} m above the box",
         f"within {p.lean_m * 100:.0f} cm of the hood's axis: lean over the box"],
        ["microphone to speaker", f"{p.mic_speaker_mm:.0f} mm apart on the lid",
         f"{p.mic_drop_db:.0f} dB less of the speaker's direct sound than at 25 mm"],
    ]
    return md(["what", "figure", "so"], rows)


def power_table(parts: Parts, spec: Spec) -> str:
    out = []
    for b in parts.builds:
        rows, supplies, usb = power(spec, b)
        table = [[r.part, str(r.count), f"{r.typical_ma:,.0f}" if r.typical_ma >= 1
                  else f"{r.typical_ma:.2f}", f"{r.peak_ma:,.0f}" if r.peak_ma >= 1
                  else f"{r.peak_ma:.2f}", r.source] for r in rows]
        for s in supplies:
            table.append([f"**{s.name}**", "", f"**{s.typical_ma:,.0f}**",
                          f"**{s.peak_ma:,.0f}** of {s.amps * 1000:,.0f} "
                          f"({s.peak_ma / (s.amps * 1000) * 100:.0f} %)", ""])
        limit = spec.num("usb_limit_ma")
        table.append(["USB ports together", "", "", f"{usb:,.0f} of {limit:,.0f}", "pi-usb"])
        out.append(f"**{b.name}** (mA; the 3.3 V parts counted as if at 5 V, a little over)\n\n" +
                   md(["part", "count", "typical", "peak", "fed from"], table))
    return "\n\n".join(out)
