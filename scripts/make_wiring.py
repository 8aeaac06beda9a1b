"""Draw the wiring diagrams in hardware/ from the pin maps (run through scripts/make-wiring)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from narrator.devices.pinmap import load_pin_map  # noqa: E402
from narrator.devices.wiring import draw  # noqa: E402
from narrator.errors import InputFileError  # noqa: E402

DEFAULTS = {"pins-10.yaml": "wiring.svg", "pins-16.yaml": "wiring-16.svg"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pins", help="one pin map (default: both maps in hardware/)")
    parser.add_argument("--out", help="where to write its SVG (with --pins)")
    args = parser.parse_args(argv)
    jobs = ([(Path(args.pins), Path(args.out or Path(args.pins).with_suffix(".svg")))]
            if args.pins else
            [(ROOT / "hardware" / src, ROOT / "hardware" / out) for src, out in DEFAULTS.items()])
    for src, out in jobs:
        try:
            pin_map = load_pin_map(src)
        except InputFileError as exc:
            print(f"make-wiring: {exc}", file=sys.stderr)
            return 2
        out.write_text(draw(pin_map), encoding="utf-8")
        print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
