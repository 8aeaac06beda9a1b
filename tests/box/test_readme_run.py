"""The README's laptop command for the organiser's page starts a box as written (found at
a club evening: as written it exited 2 on a laptop: no GPIO chip, and no screen for the
checks' answers), and leads straight to set-up with no game started (found trying it as
a new user: it started a default game at once, with "tap your pads" on a laptop that has
none). Its keyboard is the keypad: Enter starts the game, whose cues name the keypad.
Run on a pseudo-terminal, as a laptop's terminal is."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

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


def read_until(proc: subprocess.Popen[bytes], log: bytes, wanted: bytes) -> bytes:
    """The box's log (stderr) read on until `wanted` is in it (or the box ends, or 2 min)."""
    assert proc.stderr is not None
    deadline = time.monotonic() + 120
    while wanted not in log and proc.poll() is None and time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stderr], [], [], 1.0)
        if ready:
            log += os.read(proc.stderr.fileno(), 65536)
    return log


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM as systemd stops the box, then a kill if it does not end within 30 s."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


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
    keys, terminal = pty.openpty()
    proc = subprocess.Popen(command, env=env, stdin=terminal, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, cwd=tmp_path)
    try:
        log = read_until(proc, b"", b"Waiting for the game to be set up")
        assert proc.poll() is None, log.decode(errors="replace")
        assert f"http://127.0.0.1:{port}/".encode() in log, log
        assert b"Waiting for the game to be set up" in log, log
        assert b"new game" not in log.lower(), log  # nothing started unasked
        base = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(base + "/") as page:  # straight to the set-up
            assert page.url == base + "/setup"
        try:
            urllib.request.urlopen(base + "/api/state")
            raise AssertionError("a game is running")
        except urllib.error.HTTPError as exc:
            assert exc.code == 404
        os.write(keys, b"\r")  # the keypad's bare Enter: the usual game, asked for
        log = read_until(proc, log, b"type your seat number on the keypad")
        assert b"A new game begins." in log, log
        assert b"type your seat number on the keypad" in log and b"Tap your pad" not in log, log
    finally:
        stop(proc)
        os.close(terminal)
        os.close(keys)


def read_terminal(fd: int, seen: bytes, wanted: bytes, proc: subprocess.Popen[bytes]) -> bytes:
    """What the box wrote to its terminal, read on until `wanted` is in it (or 2 min)."""
    deadline = time.monotonic() + 120
    while wanted not in seen and proc.poll() is None and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 1.0)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:  # the box closed the terminal
                break
    return seen


def test_the_readme_s_laptop_command_shows_no_pin_on_the_players_terminal(tmp_path: Path) -> None:
    """Found by a new user (issue 33): on a laptop the log goes to the terminal every player
    types on at night, and its start-up line showed the PIN there all evening (in a judge's
    game the PIN opens the judge's page with every role). Everything the box ever writes
    to that terminal (the scrollback included) is read here: the PIN is never in it, the
    line says where the organiser reads it, and that PIN signs in."""
    words = shlex.split(readme_page_command())
    env = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}
    while "=" in words[0]:
        key, _, value = words.pop(0).partition("=")
        env[key] = value
    words.pop(0)
    port = free_port()
    words = [f"127.0.0.1:{port}" if w.startswith("127.0.0.1:") else w for w in words]
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    pin = "97531864"  # the box's own PIN, as it made it on an earlier evening
    (state / "web-pin").write_text(pin + "\n", encoding="utf-8")
    (state / "web-pin").chmod(0o600)
    command = [sys.executable, "-m", "narrator", *words, "--state-dir", str(state),
               "--cache-dir", str(tmp_path / "cache")]
    screen, terminal = pty.openpty()
    # stdin, stdout and the log all on the one terminal, as when typed in a laptop's.
    proc = subprocess.Popen(command, env=env, stdin=terminal, stdout=terminal, stderr=terminal,
                            cwd=tmp_path)
    os.close(terminal)
    seen = b""
    try:
        seen = read_terminal(screen, seen, b"Waiting for the game to be set up", proc)
        assert f"http://127.0.0.1:{port}/".encode() in seen, seen
        assert b"PIN: not shown on this terminal" in seen, seen
        assert str(state / "web-pin").encode() in seen, seen
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/login") as page:
            # Mock pins: no Next button anyone can hold, so the page offers none.
            assert 'action="/login/button"' not in page.read().decode()
        request = urllib.request.Request(f"http://127.0.0.1:{port}/login", method="POST",
                                         data=f"pin={pin}&next=/game".encode())

        class Stay(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *_args: object, **_kw: object) -> None:
                return None

        try:
            urllib.request.build_opener(Stay).open(request)
            raise AssertionError("the PIN did not sign in")
        except urllib.error.HTTPError as exc:
            assert exc.code == 303 and "narrator_session" in exc.headers.get("Set-Cookie", "")
        os.write(screen, b"\r")  # the usual game
        seen = read_terminal(screen, seen, b"type your seat number on the keypad", proc)
        assert b"A new game begins." in seen, seen
    finally:
        stop(proc)
        with contextlib.suppress(OSError):
            seen += os.read(screen, 65536)
        os.close(screen)
    assert pin.encode() not in seen, seen
