"""`narrator listen` from a file, and live from a microphone that is ALSA's `file` plugin
reading a capture file (a test HOME with its own .asoundrc), so sounddevice records for real."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.listen.conftest import stream

SAID = ["next speaker", "I think seat four was lying yesterday", "foul seat three"]
WANT = [("next_speaker", None), ("foul", 3)]


def narrator(*args: str, home: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if home is not None:
        env["HOME"] = str(home)
    return subprocess.run([sys.executable, "-m", "narrator", "listen", *args], env=env,
                          capture_output=True, text=True, timeout=120)


def parsed(out: str) -> list[tuple[str, int | None]]:
    lines = [json.loads(line) for line in out.splitlines()]
    for line in lines:
        assert set(line) <= {"at", "command", "seat", "seconds", "text"} and line["text"]
    return [(line["command"], line.get("seat")) for line in lines]


def test_listen_to_a_file(clips: Path) -> None:
    done = narrator("--file", str(stream(clips, "cli", SAID, "en-gb")), "--json")
    assert done.returncode == 0, done.stderr
    assert parsed(done.stdout) == WANT


def test_listen_to_the_microphone(clips: Path, tmp_path: Path) -> None:
    wav = stream(clips, "mic", SAID, "en-us")
    raw = tmp_path / "capture.raw"
    raw.write_bytes(wav.read_bytes()[44:])  # the file plugin reads raw samples
    (tmp_path / ".asoundrc").write_text(
        f'pcm.!default {{\n type file\n slave.pcm "null"\n file "/dev/null"\n'
        f' infile "{raw}"\n format "raw"\n}}\n')
    seconds = raw.stat().st_size / 32000 + 1.0
    done = narrator("--json", "--seconds", f"{seconds:.1f}", home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert parsed(done.stdout) == WANT


def test_russian_needs_a_vosk_model() -> None:
    done = narrator("--lang", "ru", "--file", "nothing.wav")
    assert done.returncode == 2
    assert "--lang ru" in done.stderr and "--model" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_an_unreadable_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.wav"
    bad.write_text("not audio")
    done = narrator("--file", str(bad))
    assert done.returncode == 2 and str(bad) in done.stderr
