"""Which engine runs: the compiled one (scripts/build_engine.py) or the pure-Python source.

Python imports an extension module before the source file beside it, so once built, the
compiled modules of narrator.engine and narrator.sim run. The source runs instead when
NARRATOR_PURE_ENGINE is set (the tests compare the two), and when any compiled module is
older than its source file (edited or merged since the build: stale code must never run;
./scripts/setup builds again). `use()` runs once, from narrator/__init__.py.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from importlib.util import spec_from_file_location
from types import ModuleType

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGES = ("engine", "sim")
ENV = "NARRATOR_PURE_ENGINE"
# Never compiled (scripts/build_engine.py): package markers (a compiled __init__ imports the
# shared library from inside its own package, a circle), the legality checker (a subclass
# of AssertionError, which mypyc does not compile; it runs in the property tests, not the
# bench), and the virtual clock of replays and demos (tests wrap its methods on an
# instance, which a compiled class does not allow).
INTERPRETED = frozenset({"engine/__init__.py", "sim/__init__.py", "sim/legality.py",
                         "engine/timeline.py"})


def compilable(root: str = HERE) -> list[str]:
    """The sources the build compiles, as "package/module.py" under `root`."""
    return sorted(f"{package}/{name}" for package in PACKAGES
                  for name in os.listdir(os.path.join(root, package))
                  if name.endswith(".py") and f"{package}/{name}" not in INTERPRETED)


def stale(root: str = HERE) -> bool:
    """Is the build out of step with the source: a compiled module older than its source,
    its source gone, or (once anything is built) a source with no compiled module (a module
    added since the build would run interpreted beside compiled ones, and an interpreted
    class cannot subclass a compiled one)?"""
    compiled: set[str] = set()
    for package in PACKAGES:
        folder = os.path.join(root, package)
        for name in os.listdir(folder):
            if not name.endswith(".so"):
                continue
            module = name.split(".", 1)[0]
            compiled.add(f"{package}/{module}.py")
            source = os.path.join(folder, module + ".py")
            try:
                if os.stat(source).st_mtime > os.stat(os.path.join(folder, name)).st_mtime:
                    return True
            except FileNotFoundError:
                return True
    return bool(compiled) and not compiled.issuperset(compilable(root))


class _SourceFirst:
    """Finds narrator.engine.* and narrator.sim.* in their .py files, past any compiled module."""

    @staticmethod
    def find_spec(fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package not in ("narrator.engine", "narrator.sim"):
            return None
        source = os.path.join(HERE, package.rpartition(".")[2], name + ".py")
        return spec_from_file_location(fullname, source) if os.path.exists(source) else None


def use() -> None:
    if os.environ.get(ENV) or stale():
        sys.meta_path.insert(0, _SourceFirst())


def running() -> str:
    """"compiled" or "pure": what narrator.engine.core was loaded from."""
    from narrator.engine import core

    return "compiled" if (core.__file__ or "").endswith(".so") else "pure"
