"""Build the compiled engine: narrator/engine and narrator/sim compiled with mypyc.

The compiled modules (`*.so` beside each `.py`, and the shared `narrator/_compiled__mypyc*.so`)
play exactly as the source does (tests/engine/test_compiled.py compares the two) and about
three times as fast. They are optional: without them, or when a source file is newer than
its compiled module (narrator/compiled.py), the pure-Python engine runs.

Run by ./scripts/setup (`--if-needed`: only when a source file is newer than its compiled
module, or one is missing); by hand: .venv/bin/python scripts/build_engine.py [--clean].
Work files go to build/engine (git-ignored). Exit 1, with one line, when mypyc or a C
compiler is missing or the build fails.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from narrator import compiled  # noqa: E402  (the project's root on the path first)

BUILD = ROOT / "build" / "engine"
PACKAGES = tuple(f"narrator/{package}" for package in compiled.PACKAGES)
GROUP = "narrator._compiled"


def sources() -> list[str]:
    # Not every module: narrator.compiled.INTERPRETED says which are left out and why.
    return [f"narrator/{source}" for source in compiled.compilable(str(ROOT / "narrator"))]


def built() -> list[Path]:
    """The compiled modules now in the tree."""
    return sorted(p for d in ("narrator", *PACKAGES) for p in (ROOT / d).glob("*.so"))


def up_to_date() -> bool:
    names = {p.name.split(".", 1)[0] for p in built()}
    return all(Path(p).stem in names for p in sources()) and not compiled.stale()


def clean() -> None:
    for p in built():
        p.unlink()
    shutil.rmtree(BUILD, ignore_errors=True)


def missing() -> str | None:
    """What the build lacks that can be told at once (so setup fails fast without them)."""
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if not shutil.which(compiler):
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (Debian: python3-dev)"
    try:
        import mypyc  # noqa: F401
    except ImportError:
        return "no mypyc (pip install mypy)"
    return None


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped, unused-ignore]

    clean()
    BUILD.mkdir(parents=True)
    # setup() reads the pyproject.toml of the folder it runs in; the build folder has none,
    # and a link to the package, so the modules keep their names and land in the tree.
    (BUILD / "narrator").symlink_to(ROOT / "narrator")
    os.chdir(BUILD)
    jobs = str(max(1, min(4, os.cpu_count() or 1)))
    setup(name="narrator-compiled-engine",
          script_args=["build_ext", "--inplace", "--parallel", jobs],
          ext_modules=mypycify(sources(), opt_level="3", group_name=GROUP))


def main(argv: list[str]) -> int:
    if "--clean" in argv:
        clean()
        return 0
    if "--if-needed" in argv and up_to_date():
        return 0
    lack = missing()
    if lack:
        print(f"build_engine: not built ({lack}); the pure-Python engine runs", file=sys.stderr)
        return 1
    log = io.StringIO()
    try:
        with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
            build()
    except (Exception, SystemExit) as exc:  # any failure: the pure engine runs
        clean()
        (ROOT / "build").mkdir(exist_ok=True)
        (ROOT / "build" / "engine.log").write_text(log.getvalue())
        last = str(exc).strip().splitlines()[-1:] or [type(exc).__name__]
        print(f"build_engine: not built ({last[0][:160]}); the pure-Python engine runs "
              f"(log: build/engine.log)", file=sys.stderr)
        return 1
    print(f"build_engine: compiled {len(built()) - 1} engine modules with mypyc", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
