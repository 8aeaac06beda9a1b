"""Nothing is lost when the power cord is kicked: a `--fast` demo killed (SIGKILL) at
random points of the game and started again on the same state folder ends exactly as the
same game played without interruption.

The simulated host gives no fouls here: a host who lost power does not give the same
foul twice, but a simulated one cannot remember it did (its memory died with the
process), so its fouls would be an artefact of the simulation, not of the box.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

SEED = 4


def demo(state: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "narrator", "demo", "--fast", "--seed", str(SEED),
         "--foul-rate", "0", "--state-dir", str(state), "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"},
    )


def journal_lines(state: Path) -> int:
    files = list((state / "journal").glob("*.jsonl")) if (state / "journal").exists() else []
    if not files:
        return 0
    with files[0].open("rb") as f:
        return sum(1 for _ in f)


def finished_protocol(proc: subprocess.Popen[str]) -> dict[str, object]:
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    data: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return data


def outcome(protocol: dict[str, object]) -> tuple[object, object]:
    return protocol["winner"], protocol["eliminations"]


def test_killed_games_resume_and_end_the_same(tmp_path: Path) -> None:
    whole = finished_protocol(demo(tmp_path / "whole"))
    total = len(next(iter((tmp_path / "whole" / "games").glob("*.jsonl"))).read_text().splitlines())
    rng = random.Random(2026)
    points = sorted(rng.sample(range(2, total - 1), 6))
    state = tmp_path / "killed"
    kills = 0
    for point in points:
        proc = demo(state)
        deadline = time.monotonic() + 60
        while journal_lines(state) < point and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            kills += 1
    assert kills >= 3, "the game should have been killed in flight several times"
    resumed = finished_protocol(demo(state))
    assert outcome(resumed) == outcome(whole)
    assert len(list((state / "protocols").glob("*.json"))) >= 1
