"""The README's laptop command for the organiser's page starts a box as written (found at
a club evening: as written it exited 2 on a laptop: no GPIO chip, and no screen for the
checks' answers). Run on a pseudo-terminal, as a laptop's terminal is."""

from __future__ import annotations

import os
import select
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from narrator.bench.keypad_pty import keypad_terminal

REPO = Path(__file__).resolve().parents[2]


def readme_page_command() -> str:
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    found = [line for line in lines if "narrator run" in line and "--web" in line
             and not line.startswith(("-", "`"))]
    assert len(found) == 1, found
    return found[0].split("#", 1)[0].strip()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def test_the_readme_s_page_command_starts_a_box_on_a_laptop(tmp_path: Path) -> None:
    words = shlex.split(readme_page_command())
    env = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}  # as a laptop
    while "=" in words[0]:
        key, _, value = words.pop(0).partition("=")
        env[key] = value
    program = words.pop(0)
    assert program in ("narrator", ".venv/bin/narrator"), program
    port = free_port()
    words = [f"127.0.0.1:{port}" if w.startswith("127.0.0.1:") else w for w in words]
    command = [sys.executable, "-m", "narrator", *words, "--state-dir", str(tmp_path / "state"),
               "--cache-dir", str(tmp_path / "cache")]
    with keypad_terminal() as terminal:
        proc = subprocess.Popen(command, env=env, stdin=terminal, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, cwd=tmp_path)
        assert proc.stderr is not None
        log = b""
        deadline = time.monotonic() + 120
        try:
            while b"new game" not in log and proc.poll() is None and time.monotonic() < deadline:
                ready, _, _ = select.select([proc.stderr], [], [], 1.0)
                if ready:
                    log += os.read(proc.stderr.fileno(), 65536)
            assert proc.poll() is None, log.decode(errors="replace")
            assert f"http://127.0.0.1:{port}/".encode() in log and b"new game" in log, log
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
