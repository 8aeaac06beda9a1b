"""The compiled engine (scripts/build_engine.py) plays exactly as the source does.

The suite runs on whatever engine is built (./scripts/setup builds the compiled one); this
test also plays a few games of every rule set on the pure-Python source in a child process
(NARRATOR_PURE_ENGINE) and compares the hash of every effect and end state
(scripts/engine_fingerprint.py) with this process's.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from narrator import compiled

ROOT = Path(__file__).resolve().parents[2]
_PRINT = ("import sys; sys.path.insert(0, 'scripts'); from engine_fingerprint import fingerprint; "
          "from narrator import compiled; print(compiled.running(), fingerprint(6))")


def _fingerprint(pure: bool) -> tuple[str, str]:
    env = {k: v for k, v in os.environ.items() if k != compiled.ENV}
    if pure:
        env[compiled.ENV] = "1"
    out = subprocess.run([sys.executable, "-c", _PRINT], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    return out[0], out[1]


def _built() -> bool:
    return any(any((ROOT / "narrator" / p).glob("*.so")) for p in compiled.PACKAGES)


def test_the_compiled_and_the_pure_engine_play_the_same_games() -> None:
    engine, default = _fingerprint(pure=False)
    source, pure = _fingerprint(pure=True)
    assert source == "pure"
    # Built and up to date, the compiled engine is the one that runs.
    assert engine == ("compiled" if _built() and not compiled.stale() else "pure")
    assert default == pure


def test_a_compiled_module_older_than_its_source_is_not_used(tmp_path: Path) -> None:
    (tmp_path / "engine").mkdir()
    (tmp_path / "sim").mkdir()
    source = tmp_path / "engine" / "core.py"
    built = tmp_path / "engine" / "core.cpython-311-x86_64-linux-gnu.so"
    source.write_text("")
    built.write_text("")
    now = time.time()
    os.utime(source, (now - 10, now - 10))
    assert not compiled.stale(str(tmp_path))
    os.utime(source, (now + 10, now + 10))  # edited after the build
    assert compiled.stale(str(tmp_path))
    source.unlink()  # a module gone from the source
    assert compiled.stale(str(tmp_path))


def test_a_source_with_no_compiled_module_beside_compiled_ones_is_stale(tmp_path: Path) -> None:
    # A module added since the build would run interpreted beside compiled ones, where an
    # interpreted class cannot subclass a compiled one: the whole engine runs from source.
    for package in compiled.PACKAGES:
        (tmp_path / package).mkdir()
    for name in ("core", "requests"):
        (tmp_path / "engine" / f"{name}.py").write_text("")
    (tmp_path / "engine" / "__init__.py").write_text("")  # never compiled
    (tmp_path / "engine" / "timeline.py").write_text("")  # never compiled
    assert not compiled.stale(str(tmp_path))  # nothing built: the source runs anyway
    built = tmp_path / "engine" / "core.cpython-311-x86_64-linux-gnu.so"
    built.write_text("")
    assert compiled.stale(str(tmp_path))  # requests.py has no compiled module
    (tmp_path / "engine" / "requests.cpython-311-x86_64-linux-gnu.so").write_text("")
    assert not compiled.stale(str(tmp_path))


def test_the_engine_bench_says_when_a_stale_build_made_it_measure_pure(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from narrator.bench import engine as bench

    monkeypatch.delenv(compiled.ENV, raising=False)
    monkeypatch.setattr(compiled, "running", lambda: "pure")
    monkeypatch.setattr(compiled, "stale", lambda root=compiled.HERE: True)
    figures = bench.run(quick=True)
    assert figures["engine"] == "pure" and str(figures["engine_build"]).startswith("stale")
    monkeypatch.setattr(compiled, "stale", lambda root=compiled.HERE: False)
    assert "engine_build" not in bench.run(quick=True)  # nothing built (no compiler): no word
