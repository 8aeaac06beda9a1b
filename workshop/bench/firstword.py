"""Start-up to the first spoken word: `narrator run` on mock pins, from the process start
to the moment the greeting's clip is handed to the sound device, cold (an empty speech
cache: the rule set's speech is then rendered in the background) and warm (the cache of
the run before).

- first_word_cold_s: the first run on this box, nothing rendered yet (median of 3);
- first_word_warm_s: a later start, the speech cache already on disk (median of 3).
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from workshop.bench.keypad_pty import RUN_KEYPAD, keypad_terminal

MARK = b"playing"  # narrator.voice.pyttsx3_speaker's debug line as a clip starts


def _first_word(folder: Path, cache: Path, timeout: float = 120.0) -> float:
    """Seconds from starting `narrator run` to its first clip handed to the player."""
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}
    state = folder / "state"
    shutil.rmtree(state, ignore_errors=True)  # no game to resume: the greeting is "ready"
    with keypad_terminal() as terminal:
        return _read_until_playing(subprocess.Popen(
            [sys.executable, "-m", "narrator", "run", "--log-level", "debug", *RUN_KEYPAD,
             "--web", "off", "--state-dir", str(state), "--cache-dir", str(cache)],
            env=env, stdin=terminal, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE),
            time.monotonic(), timeout)


def _read_until_playing(proc: subprocess.Popen[bytes], start: float, timeout: float) -> float:
    assert proc.stderr is not None
    try:
        buffered = b""
        while time.monotonic() - start < timeout:
            ready, _, _ = select.select([proc.stderr], [], [], 1.0)
            if not ready:
                continue
            chunk = os.read(proc.stderr.fileno(), 65536)
            if not chunk:
                break
            buffered += chunk
            for line in buffered.splitlines():
                if b"pyttsx3_speaker" in line and MARK in line:
                    return time.monotonic() - start
            buffered = buffered[buffered.rfind(b"\n") + 1:]
        raise RuntimeError(f"narrator run said nothing in time: {buffered[-500:]!r}")
    finally:
        proc.kill()
        proc.wait()


def run(quick: bool) -> dict[str, float | int | str]:
    tries = 1 if quick else 3
    cold: list[float] = []
    warm: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for n in range(tries):
            cache = folder / f"cache-{n}"
            cold.append(_first_word(folder, cache))
            warm.append(_first_word(folder, cache))
    return {"first_word_cold_s": round(sorted(cold)[len(cold) // 2], 2),
            "first_word_warm_s": round(sorted(warm)[len(warm) // 2], 2)}
