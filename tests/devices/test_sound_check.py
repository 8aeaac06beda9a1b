"""The speaker and microphone check: the tone measured in a simulated room, and played and
recorded for real by sounddevice through ALSA's `file` plugin (a test HOME's .asoundrc:
playback into a file, capture from a file we wrote)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from narrator.boxconfig import packaged_config_path
from narrator.devices.check import check_sound
from narrator.devices.sound_check import TONE_DBFS, SoundFigures, analyse, dbfs, tone_signal
from narrator.devices.sound_loop import RATE, FakeRoom, from_int16, to_int16

ROOT = Path(__file__).resolve().parents[2]


def measure(room: FakeRoom) -> tuple[list[str], list[str], SoundFigures]:
    result = check_sound(room)
    assert result.figures is not None
    return result.problems(), result.figures.warnings(), result.figures


def test_a_good_room() -> None:
    problems, warnings, f = measure(FakeRoom(gain_db=-18, noise_dbfs=-62, delay=0.04))
    assert problems == [] and warnings == []
    assert f.tone_dbfs == pytest.approx(TONE_DBFS - 18, abs=0.5)
    assert f.room_dbfs == pytest.approx(-62, abs=1.0)
    assert f.delay_s == pytest.approx(0.04, abs=0.002)
    assert f.clipped == 0 and f.heard


@pytest.mark.parametrize(("room", "problem"), [
    (FakeRoom(speaker=False), "the tone was not heard over the room (-62 dBFS): check the "
                              "speaker, the amplifier and its volume"),
    (FakeRoom(microphone=False), "the microphone gives digital silence: unplugged, muted in "
                                 "alsamixer, or the wrong input device"),
    (FakeRoom(gain_db=-50, noise_dbfs=-40), "the tone was not heard over the room"),
])
def test_what_is_missing_is_named(room: FakeRoom, problem: str) -> None:
    problems, _, _ = measure(room)
    assert len(problems) == 1 and problems[0].startswith(problem)


def test_clipping_and_a_faint_tone() -> None:
    problems, _, f = measure(FakeRoom(gain_db=15))
    assert f.clipped > 1000
    assert problems == [f"{f.clipped} samples clipped: lower the microphone gain "
                        "(alsamixer) or the amplifier's volume"]
    problems, warnings, f = measure(FakeRoom(gain_db=-45, noise_dbfs=-80))
    assert problems == []
    assert warnings[0].startswith("the tone came back faint (-57 dBFS)")


def test_the_tone_signal_is_silence_a_tone_and_silence() -> None:
    x = tone_signal(RATE)
    assert len(x) == 2 * RATE
    assert not x[:RATE // 2].any() and not x[-RATE // 2:].any()
    assert dbfs(float(np.max(np.abs(x)))) == pytest.approx(TONE_DBFS, abs=0.01)
    # int16 both ways loses nothing that matters.
    assert np.max(np.abs(from_int16(to_int16(x)) - x)) < 1 / 32768


def sound_check(home: Path, config: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, HOME=str(home), GPIOZERO_PIN_FACTORY="mock",
               NARRATOR_CONFIG=str(config or packaged_config_path()))
    env.pop("ALSA_CONFIG_PATH", None)
    return subprocess.run([sys.executable, "-m", "narrator", "check-hardware", "--only", "sound",
                           "--sound", "device"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120, check=False)


# Playback and capture on separate `file` PCMs: a capture PCM writes what it read to its
# `file` too, which must not be the playback's.
ASOUNDRC = """\
pcm.!default {{
  type asym
  playback.pcm {{ type file  slave.pcm "null"  file "{home}/out.raw"  format "raw" }}
  capture.pcm {{ type file  slave.pcm "null"  file "/dev/null"  infile "{home}/capture.raw"
                format "raw" }}
}}
"""


def alsa_home(tmp_path: Path, captured: np.ndarray) -> Path:
    """ALSA's default device: playback into out.raw, capture from capture.raw."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "capture.raw").write_bytes(to_int16(captured.astype(np.float32)).tobytes())
    (home / ".asoundrc").write_text(ASOUNDRC.format(home=home), encoding="utf-8")
    return home


def room_recording(tone_gain_db: float, seconds: float = 3.0) -> np.ndarray:
    """What a microphone would give: the tone `tone_gain_db` from the played level, over
    noise at -60 dBFS, a second longer than the recording."""
    played = tone_signal(RATE).astype(np.float64)
    out = np.zeros(int(seconds * RATE))
    out[:len(played)] += played * 10 ** (tone_gain_db / 20)
    out += np.random.default_rng(7).normal(0, 10 ** (-60 / 20) / np.sqrt(2), len(out))
    return out


def test_sounddevice_plays_the_tone_and_records_the_microphone(tmp_path: Path) -> None:
    home = alsa_home(tmp_path, room_recording(-8))
    done = sound_check(home)
    assert done.returncode == 0, done.stderr + done.stdout
    line = next(s for s in done.stdout.splitlines() if s.startswith("  sound ("))
    assert line.startswith("  sound (speaker default, microphone default): tone -20 dBFS")
    assert "no clipping: ok" in line
    # What reached the speaker is the tone at its level.
    played = from_int16(np.frombuffer((home / "out.raw").read_bytes(), dtype=np.int16))
    assert dbfs(float(np.max(np.abs(played)))) == pytest.approx(TONE_DBFS, abs=0.1)
    assert analyse(played, RATE).tone_dbfs == pytest.approx(TONE_DBFS, abs=0.5)


def test_a_clipping_microphone_fails_the_check(tmp_path: Path) -> None:
    done = sound_check(alsa_home(tmp_path, room_recording(+14)))
    assert done.returncode == 1
    assert "samples clipped: lower the microphone gain" in done.stdout


def test_a_missing_sound_device_is_reported_not_raised(tmp_path: Path) -> None:
    home = alsa_home(tmp_path, room_recording(-8))
    config = tmp_path / "narrator.yaml"
    config.write_text("voice: {device: no-such-speaker}\n")
    done = sound_check(home, config)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "  - sound: sound (speaker 'no-such-speaker', microphone default): " in done.stdout
