"""The numbers of the build guide, worked out from build.yaml, parts.yaml and the pin maps:
cable runs round a table, voltage drop and interference on a long run, the answer hood's
viewing cone, the power budget and the cost of each build.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from narrator.errors import InputFileError
from workshop.guide.data import Build, Parts, Spec, counts, evaluate, pin_map_of

# --- cable runs ------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    seat: int
    metres: float    # socket to pod, with slack
    stock: float     # the shortest patch cable that reaches


def seat_sides(seats: int) -> tuple[int, int]:
    """Seats on the host's left side, then on the right (seat 1 at the host's left)."""
    left = (seats + 1) // 2
    return left, seats - left


def runs(spec: Spec, table: Spec, stock: list[float]) -> list[Run]:
    """Seat 1 sits at the host's left, numbers go clockwise: up the left side, back down
    the right. Each seat's socket is on the box wall facing it, in the same order."""
    seats = int(table.num("seats"))
    length, width = table.num("length_m"), table.num("width_m")
    inset, slack = spec.num("pod_inset_m"), spec.num("cable_slack_m")
    box_w = spec.nums("box.enclosure")[0] / 1000
    pitch = spec.num("box.socket.pitch") / 1000
    out = []
    for side, count, first in ((-1, seat_sides(seats)[0], 1),
                               (1, seat_sides(seats)[1], seat_sides(seats)[0] + 1)):
        for j in range(count):
            # Along the table from the host's end (y) and across it (x); the right side
            # is numbered back towards the host.
            k = j if side < 0 else count - 1 - j
            y_pod = -length / 2 + length * (k + 0.5) / count
            y_socket = (k - (count - 1) / 2) * pitch
            x_pod = side * (width / 2 - inset)
            x_socket = side * box_w / 2
            metres = math.hypot(y_pod - y_socket, x_pod - x_socket) + slack
            fit = next((s for s in sorted(stock) if s >= metres), max(stock))
            out.append(Run(first + j, metres, fit))
    return sorted(out, key=lambda r: r.seat)


# --- a long run, worked out ------------------------------------------------------------


@dataclass(frozen=True)
class LongRun:
    metres: float
    conductor_ohm: float
    loop_ohm: float
    led_ma: float
    led_drop_mv: float
    led_change_pct: float
    pad_ua: float
    pad_drop_mv: float
    pad_high_v: float
    high_margin_v: float
    low_margin_v: float
    supply_drop_uv: float
    pair_pf: float
    coupling_pf: float
    spike_v: float
    spike_ns: float
    debounce_ratio: float
    mains_ua: float
    mains_driven_mv: float
    mains_open_mv: float
    finger_share_pct: tuple[float, float]
    pixel_rise_ns: float
    pixel_drop_mv: float


def long_run(spec: Spec) -> LongRun:
    e = "electrical."
    m = spec.num("cable.run_m")
    r = spec.num("cable.ohm_per_m") * m
    loop = 2 * r
    v, vf = spec.num(e + "supply_v"), spec.num(e + "led_vf")
    r_led = spec.num(e + "led_resistor")
    led = (v - vf) / r_led
    led_with_wire = (v - vf) / (r_led + loop)
    pad_current = v / spec.num(e + "pull_down_ohm")
    pad_drop = pad_current * (spec.num(e + "pad_resistor") + r)
    pair = spec.num("cable.pair_pf_per_m") * m
    coupling = spec.num("cable.crosstalk_pf_per_m") * m
    spike = v * coupling / (coupling + pair)
    tau = spec.num(e + "ttp223_output_ohm") * (coupling + pair) * 1e-12
    mains = (2 * math.pi * spec.num(e + "mains_hz") * spec.num(e + "mains_pf") * 1e-12
             * spec.num(e + "mains_v"))
    finger = spec.nums(e + "finger_pf")
    pixel_tau = spec.num(e + "pixel_data_resistor") * pair * 1e-12
    return LongRun(
        metres=m, conductor_ohm=r, loop_ohm=loop, led_ma=led * 1000,
        led_drop_mv=led_with_wire * loop * 1000,
        led_change_pct=(led - led_with_wire) / led * 100,
        pad_ua=pad_current * 1e6, pad_drop_mv=pad_drop * 1000, pad_high_v=v - pad_drop,
        high_margin_v=v - pad_drop - spec.num(e + "input_high_v"),
        low_margin_v=spec.num(e + "input_low_v"),
        supply_drop_uv=spec.num(e + "ttp223_current_ua") * r,
        pair_pf=pair, coupling_pf=coupling, spike_v=spike, spike_ns=tau * 1e9,
        debounce_ratio=spec.num(e + "debounce_ms") * 1e-3 / tau,
        mains_ua=mains * 1e6, mains_driven_mv=mains * spec.num(e + "ttp223_output_ohm") * 1000,
        mains_open_mv=mains * spec.num(e + "pull_down_ohm") * 1000,
        finger_share_pct=(finger[0] / (finger[0] + pair) * 100,
                          finger[1] / (finger[1] + pair) * 100),
        pixel_rise_ns=2.2 * pixel_tau * 1e9,
        pixel_drop_mv=spec.num(e + "pixel_full_ma") / 1000 * loop * 1000,
    )


# --- the answer hood and the microphone ------------------------------------------------


@dataclass(frozen=True)
class Placement:
    hood_half_angle: float     # degrees from straight up
    eye_height_m: float
    nearest_eye_m: float       # the closest seated player's eyes, across the table
    nearest_eye_angle: float   # degrees from straight up, seen from the hood
    lean_m: float              # how close over the box an eye must come to see in
    mic_speaker_mm: float
    mic_drop_db: float         # the speaker's direct sound at the mic, against 25 mm away


EYE_HEIGHT_M = 0.45   # a seated player's eyes above the table top
EYE_BEHIND_EDGE_M = 0.2


def placement(spec: Spec, width_m: float) -> Placement:
    bore, height = spec.num("box.answer_hood.bore"), spec.num("box.answer_hood.height")
    half = math.degrees(math.atan(bore / height))
    nearest = width_m / 2 + EYE_BEHIND_EDGE_M
    dist = math.hypot(spec.num("box.speaker.x") - spec.num("box.microphone.x"),
                      spec.num("box.speaker.y") - spec.num("box.microphone.y"))
    return Placement(half, EYE_HEIGHT_M, nearest,
                     math.degrees(math.atan(nearest / EYE_HEIGHT_M)),
                     EYE_HEIGHT_M * math.tan(math.radians(half)), dist,
                     20 * math.log10(dist / 25))


# --- power -----------------------------------------------------------------------------


@dataclass(frozen=True)
class PowerRow:
    part: str
    count: int
    typical_ma: float
    peak_ma: float
    source: str


@dataclass(frozen=True)
class Supply:
    name: str
    amps: float
    typical_ma: float
    peak_ma: float


def power(spec: Spec, build: Build) -> tuple[list[PowerRow], list[Supply], float]:
    """(rows, supplies used, USB peak mA) for one build."""
    names = counts(pin_map_of(build))
    rows = []
    for i, item in enumerate(spec.items("power")):
        n = evaluate(item.text("count"), names, spec.source, f"power[{i}].count")
        if n:
            rows.append(PowerRow(item.text("part"), n, n * item.num("typical_ma"),
                                 n * item.num("peak_ma"), item.text("from")))
    supplies = []
    for key in ("pi", "pixels"):
        feeds = spec.raw(f"supplies.{key}.feeds")
        mine = [r for r in rows if r.source in feeds]
        if mine:
            supplies.append(Supply(spec.text(f"supplies.{key}.name"),
                                   spec.num(f"supplies.{key}.amps"),
                                   sum(r.typical_ma for r in mine), sum(r.peak_ma for r in mine)))
    usb = sum(r.peak_ma for r in rows if r.source == "pi-usb")
    return rows, supplies, usb


def table_of(spec: Spec, parts: Parts, build: Build) -> Spec:
    """The table a build's cables are cut for."""
    for t in spec.items("tables"):
        if t.text("name") == build.table:
            return t
    i = parts.builds.index(build)
    raise InputFileError(parts.source, f"builds[{i}].table",
                         f"no table {build.table!r} in {spec.source}'s tables")


# --- cost ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CostRow:
    part: str
    group: str
    count: int
    packs: int
    pack: int
    price: float     # per pack

    @property
    def cost(self) -> float:
        return self.packs * self.price


def cost(parts: Parts, spec: Spec, build: Build) -> list[CostRow]:
    names = counts(pin_map_of(build))
    rows = []
    for i, p in enumerate(parts.parts):
        n = evaluate(p.count, names, parts.source, f"parts[{i}].count")
        if n:
            rows.append(CostRow(p.part, p.group, n, math.ceil(n / p.pack), p.pack, p.price))
    table = table_of(spec, parts, build)
    stock = sorted(parts.cable_prices)
    lengths: dict[float, int] = {}
    for run in runs(spec, table, stock):
        lengths[run.stock] = lengths.get(run.stock, 0) + 1
    for metres, n in sorted(lengths.items()):
        rows.append(CostRow(f"{parts.cable_name}, {metres:g} m", "cable", n, n, 1,
                            parts.cable_prices[metres]))
    return rows
