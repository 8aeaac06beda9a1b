"""Make the build guide's drawings and tables (run through scripts/make-hardware)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from narrator.devices.pinmap import load_pin_map  # noqa: E402
from narrator.errors import InputFileError  # noqa: E402
from workshop.guide import wiring  # noqa: E402
from workshop.guide.data import load_build  # noqa: E402
from workshop.guide.generate import ReadmeError, outputs  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 naming every file that is out of date")
    parser.add_argument("--pins", help="draw the wiring of this one pin map")
    parser.add_argument("--out", help="where to write it (with --pins; default: next to it)")
    args = parser.parse_args(argv)
    try:
        if args.pins:
            out = Path(args.out or Path(args.pins).with_suffix(".svg"))
            out.write_text(wiring.draw(load_pin_map(args.pins), load_build()), encoding="utf-8")
            print(f"wrote {out}")
            return 0
        made = outputs(ROOT)
    except (InputFileError, ReadmeError) as exc:
        print(f"make-hardware: {exc}", file=sys.stderr)
        return 2
    stale = [name for name, text in made.items()
             if not (ROOT / name).is_file() or (ROOT / name).read_text(encoding="utf-8") != text]
    if args.check:
        for name in stale:
            print(f"out of date: {name} (run scripts/make-hardware)", file=sys.stderr)
        return 1 if stale else 0
    for name in stale:
        (ROOT / name).write_text(made[name], encoding="utf-8")
        print(f"wrote {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
