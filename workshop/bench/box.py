"""The box as a whole: start-up time to "ready" and resident memory.

- startup_s: `narrator run` on mock pins, from the process start to systemd's READY=1,
  with the speech cache already rendered (a first, untimed run renders it).
- rss_mb: the peak resident memory of a process that loads the pocketsphinx recognizer
  and plays a whole `--fast` demo game (the daemon's parts at work together).
- ready_rss_mb: `narrator run`'s resident memory once ready (VmRSS; no microphone here,
  so without the recognizer).
- demo_rss_mb: the peak resident memory of a whole `--fast` demo game.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from workshop.bench.keypad_pty import RUN_KEYPAD, keypad_terminal


def _run_until_ready(folder: Path, cache: Path, timeout: float) -> tuple[float, float]:
    """Start `narrator run`; return (seconds to READY=1, VmRSS in MB then)."""
    address = str(folder / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(address)
        server.settimeout(timeout)
        env = {**os.environ, "NOTIFY_SOCKET": address, "GPIOZERO_PIN_FACTORY": "mock"}
        with keypad_terminal() as terminal:
            start = time.monotonic()
            proc = subprocess.Popen(
                [sys.executable, "-m", "narrator", "run", *RUN_KEYPAD,
                 "--state-dir", str(folder / "state"), "--cache-dir", str(cache)],
                env=env, stdin=terminal, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            return _ready(proc, server, start, address)


def _ready(proc: subprocess.Popen[bytes], server: socket.socket, start: float,
           address: str) -> tuple[float, float]:
    try:
        while True:
            message = server.recv(4096).decode()
            if "READY=1" in message:
                seconds = time.monotonic() - start
                break
        rss = _vm_rss_mb(proc.pid)
    finally:
        proc.kill()
        proc.wait()
    os.unlink(address)
    return seconds, rss


def _vm_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


# Each child reports its own peak (VmHWM: the high-water mark of the memory it exec'd
# into). ru_maxrss from wait4 or RUSAGE_SELF is no good here: Linux folds the forked copy
# of the parent into it at exec, so under a big parent (pytest after a recognizer, the
# bench after its listen part) every child "peaked" at the parent's size.
_PEAK = """
def _peak_kb():
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
"""

_DEMO = _PEAK + """
import sys
from narrator.cli import main
code = main(["demo", "--fast", "--seed", "2", "--no-state"])
print(_peak_kb())
sys.exit(code)
"""

_WITH_RECOGNIZER = _PEAK + """
import asyncio
from narrator.voice.recognizers import make_recognizer
from narrator.demo import DemoOptions, play_demo
from narrator.rules.loader import load_bundled
recognizer = make_recognizer("pocketsphinx", "en")
asyncio.run(play_demo(DemoOptions(load_bundled("sport"), 10, 2, fast=True)))
print(_peak_kb())
"""


def _child_peak_mb(script: str) -> float:
    done = subprocess.run([sys.executable, "-c", script], check=True, text=True,
                          capture_output=True, env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"})
    return int(done.stdout.strip().splitlines()[-1]) / 1024


def _demo_peak_rss_mb() -> float:
    return _child_peak_mb(_DEMO)


def _with_recognizer_rss_mb() -> float:
    return _child_peak_mb(_WITH_RECOGNIZER)


def run(quick: bool) -> dict[str, float | int | str]:
    out: dict[str, float | int | str] = {"demo_rss_mb": round(_demo_peak_rss_mb(), 1),
                                         "rss_mb": round(_with_recognizer_rss_mb(), 1)}
    if quick:
        # The first start renders the whole speech cache (tens of seconds): not for a smoke test.
        return out
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cache = folder / "cache"
        _run_until_ready(folder, cache, timeout=900)  # renders the cache
        runs = [_run_until_ready(folder, cache, timeout=120) for _ in range(3)]
    out["startup_s"] = round(sorted(s for s, _ in runs)[1], 2)
    out["ready_rss_mb"] = round(max(r for _, r in runs), 1)
    return out
