"""hardware/build.yaml and hardware/parts.yaml, read into plain values.

A wrong file is one InputFileError naming the file, the key and the problem, like every
other file the project reads. Part counts are small formulas over counts taken from a
pin map ("gpio_leds + box_leds", "4 * seats", "min(pixels, 1)"), evaluated on a
whitelist of syntax, never with eval().
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from narrator.devices.pinmap import ExpanderPads, GpioLeds, GpioPads, PinMap, load_pin_map
from narrator.errors import InputFileError
from narrator.yamlfile import parse_yaml, read_text

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"


@dataclass(frozen=True)
class Part:
    part: str
    count: str
    price: float
    pack: int
    group: str
    note: str


@dataclass(frozen=True)
class Build:
    name: str
    pins: str
    table: str


@dataclass(frozen=True)
class Parts:
    source: str
    priced: str
    currency: str
    builds: tuple[Build, ...]
    cable_name: str
    cable_prices: dict[float, float]
    parts: tuple[Part, ...]


def counts(pm: PinMap) -> dict[str, int]:
    """The part counts a pin map implies."""
    return {
        "seats": pm.seats,
        "gpio_pads": pm.seats if isinstance(pm.pads, GpioPads) else 0,
        "gpio_leds": pm.seats if isinstance(pm.leds, GpioLeds) else 0,
        "pixels": 0 if isinstance(pm.leds, GpioLeds) else pm.seats,
        "box_leds": 2 + (pm.status is not None),
        "host_buttons": len(pm.host_buttons),
        "matrix_keypads": int(pm.keypad is not None),
        "expanders": int(isinstance(pm.pads, ExpanderPads)),
    }


_FUNCTIONS = {"min": min, "max": max}


def evaluate(formula: str, names: dict[str, int], source: str, where: str) -> int:
    """A count formula: numbers, names, + - *, min() and max()."""
    try:
        tree = ast.parse(formula, mode="eval")
    except SyntaxError:
        raise InputFileError(source, where, f"not a count formula: {formula!r}") from None

    def value(node: ast.AST) -> int:
        if isinstance(node, ast.Expression):
            return value(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in names:
                raise InputFileError(source, where, f"unknown count {node.id!r} "
                                                    f"(known: {', '.join(names)})")
            return names[node.id]
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult):
            a, b = value(node.left), value(node.right)
            if isinstance(node.op, ast.Add):
                return a + b
            return a - b if isinstance(node.op, ast.Sub) else a * b
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in _FUNCTIONS and not node.keywords):
            return int(_FUNCTIONS[node.func.id](*(value(a) for a in node.args)))
        raise InputFileError(source, where, f"not a count formula: {formula!r} (numbers, "
                                            "counts, + - *, min, max)")

    result = value(tree)
    if result < 0:
        raise InputFileError(source, where, f"{formula!r} comes to {result}")
    return result


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, problem: str) -> InputFileError:
        return InputFileError(self.source, where, problem)

    def mapping(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"expected a mapping, got {value!r}")
        return value

    def get(self, data: dict[str, Any], key: str, where: str, kind: type | tuple[type, ...]) -> Any:
        path = f"{where}.{key}" if where else key
        if key not in data:
            raise self.fail(path, "missing")
        value = data[key]
        if kind in (float, (int, float)) and isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise self.fail(path, f"expected {getattr(kind, '__name__', kind)}, got {value!r}")
        return value

    def number(self, data: dict[str, Any], key: str, where: str) -> float:
        return float(self.get(data, key, where, (int, float)))


def load_parts(path: Path | None = None) -> Parts:
    path = path or HARDWARE / "parts.yaml"
    r = _Reader(str(path))
    data = r.mapping(parse_yaml(read_text(path, InputFileError), str(path), InputFileError), "")
    builds = []
    for i, b in enumerate(r.get(data, "builds", "", list)):
        where = f"builds[{i}]"
        b = r.mapping(b, where)
        builds.append(Build(r.get(b, "name", where, str), r.get(b, "pins", where, str),
                            r.get(b, "table", where, str)))
    cable = r.mapping(r.get(data, "patch_cable", "", dict), "patch_cable")
    prices = r.mapping(r.get(cable, "prices", "patch_cable", dict), "patch_cable.prices")
    cable_prices = {float(k): float(v) for k, v in prices.items()}
    parts = []
    for i, p in enumerate(r.get(data, "parts", "", list)):
        where = f"parts[{i}]"
        p = r.mapping(p, where)
        unknown = set(p) - {"part", "count", "price", "pack", "group", "note"}
        if unknown:
            raise r.fail(f"{where}.{sorted(unknown, key=str)[0]}", "unknown key")
        group = r.get(p, "group", where, str)
        if group not in ("box", "pod", "cable"):
            raise r.fail(f"{where}.group", f"expected box, pod or cable, got {group!r}")
        parts.append(Part(r.get(p, "part", where, str), str(r.get(p, "count", where, str)),
                          r.number(p, "price", where), int(p.get("pack", 1)), group,
                          str(p.get("note", ""))))
    return Parts(str(path), str(r.get(data, "priced", "", str)), r.get(data, "currency", "", str),
                 tuple(builds), r.get(cable, "name", "patch_cable", str), cable_prices,
                 tuple(parts))


class Spec:
    """build.yaml: values reached by dotted key path; a missing or wrong one is an
    InputFileError naming the file and the key."""

    def __init__(self, data: dict[str, Any], source: str) -> None:
        self.data = data
        self.source = source

    def raw(self, path: str) -> Any:
        value: Any = self.data
        for key in path.split("."):
            if not isinstance(value, dict) or key not in value:
                raise InputFileError(self.source, path, "missing")
            value = value[key]
        return value

    def num(self, path: str) -> float:
        value = self.raw(path)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InputFileError(self.source, path, f"expected a number, got {value!r}")
        return float(value)

    def nums(self, path: str) -> list[float]:
        value = self.raw(path)
        if not isinstance(value, list) or not all(
                isinstance(v, int | float) and not isinstance(v, bool) for v in value):
            raise InputFileError(self.source, path, f"expected a list of numbers, got {value!r}")
        return [float(v) for v in value]

    def text(self, path: str) -> str:
        value = self.raw(path)
        if not isinstance(value, str):
            raise InputFileError(self.source, path, f"expected text, got {value!r}")
        return value

    def items(self, path: str) -> list[Spec]:
        value = self.raw(path)
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise InputFileError(self.source, path, "expected a list of mappings")
        return [Spec(v, self.source) for v in value]


def load_build(path: Path | None = None) -> Spec:
    path = path or HARDWARE / "build.yaml"
    data = parse_yaml(read_text(path, InputFileError), str(path), InputFileError)
    return Spec(_Reader(str(path)).mapping(data, ""), str(path))


def pin_map_of(build: Build) -> PinMap:
    return load_pin_map(HARDWARE / f"{build.pins}.yaml")
