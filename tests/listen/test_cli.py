"""`narrator listen` from a file, and live from a microphone that is ALSA's `file` plugin
reading a capture file (a test HOME with its own .asoundrc), so sounddevice records for real."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np

from narrator.voice.listen_clips import ClipSpec, read_wav, speak_all
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


def _write(path: Path, samples: np.ndarray, rate: int = 16000) -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(samples.astype("<i2").tobytes())
    return path


def test_audio_that_ends_on_a_frame_boundary_mid_speech(clips: Path, tmp_path: Path) -> None:
    # The endpointer's frames are 30 ms (480 samples): cut "next speaker" mid-word there.
    whole = read_wav(speak_all([ClipSpec("next speaker", "en-us")], clips)[0])
    for length in (480 * 30, 480 * 30 + 1, 480, 100):
        done = narrator("--file", str(_write(tmp_path / f"cut{length}.wav", whole[:length])),
                        "--json")
        assert done.returncode in (0, 2), done.stderr
        assert "Traceback" not in done.stderr


def test_bad_recordings_are_refused_in_one_line(clips: Path, tmp_path: Path) -> None:
    speech = read_wav(speak_all([ClipSpec("next speaker", "en-us")], clips)[0])
    rng = np.random.default_rng(1)
    cases = {
        "silent": (_write(tmp_path / "silent.wav", rng.normal(0, 5, 32000)), "silent"),
        "empty": (_write(tmp_path / "empty.wav", np.zeros(0)), "no audio"),
        "clipped": (_write(tmp_path / "clipped.wav",
                           np.clip(speech.astype(np.int32) * 40, -32768, 32767)), "clipped"),
        "rate": (_write(tmp_path / "rate.wav", speech[::2], rate=8000), "8000 Hz"),
        "text": (tmp_path / "text.wav", "not a PCM WAV"),
    }
    (tmp_path / "text.wav").write_text("RIFF? no, just words")
    for name, (path, problem) in cases.items():
        done = narrator("--file", str(path))
        assert done.returncode == 2, (name, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and str(path) in lines[0] and problem in lines[0], (name, lines)


def test_a_command_at_the_very_start_of_a_file(tmp_path: Path) -> None:
    # Plain espeak-ng, speech from the first sample (no lead-in, no noise): heard once the
    # file is led in by quiet as the microphone's stream would be, and timed from the file.
    raw, wav = tmp_path / "raw.wav", tmp_path / "start.wav"
    subprocess.run(["espeak-ng", "-w", str(raw), "next speaker"], check=True)
    subprocess.run(["sox", str(raw), "-r", "16000", str(wav)], check=True)
    with wave.open(str(wav)) as w:
        first = np.frombuffer(w.readframes(800), "<i2")
    assert np.abs(first.astype(np.int32)).max() > 200  # speech within its first 50 ms
    done = narrator("--file", str(wav), "--json")
    assert done.returncode == 0, done.stderr
    assert parsed(done.stdout) == [("next_speaker", None)]
    assert json.loads(done.stdout)["at"] < 0.3
