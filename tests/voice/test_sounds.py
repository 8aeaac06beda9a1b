"""The committed cue sounds: small, as long as the timeline says, and our script's output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from narrator.engine.timeline import SOUND_SECONDS
from narrator.voice.sounds import SoundBank
from narrator.voice.speaker import SOUND_NAMES
from narrator.voice.voice_config import SOUNDS_DIR
from narrator.voice.wav import read_wav

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", SOUND_NAMES)
def test_each_sound(name: str) -> None:
    path = SOUNDS_DIR / f"{name}.wav"
    assert path.stat().st_size < 100_000
    clip = read_wav(path)
    assert clip.seconds == pytest.approx(SOUND_SECONDS[name], abs=1e-6)
    peak = float(np.abs(clip.samples).max())
    assert 0.3 < peak < 0.95  # audible, with headroom
    assert abs(clip.samples[0]) < 0.01 and abs(clip.samples[-1]) < 0.01  # no clicks


def test_the_script_makes_the_committed_files(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_sounds.py"),
                           str(tmp_path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    for name in SOUND_NAMES:
        assert (tmp_path / f"{name}.wav").read_bytes() == (SOUNDS_DIR / f"{name}.wav").read_bytes()


def test_sound_bank(tmp_path: Path) -> None:
    bank = SoundBank(SOUNDS_DIR)
    bank.load_all()
    assert bank.clip("beat").seconds == pytest.approx(0.15)
    with pytest.raises(ValueError, match="no cue sound"):
        bank.clip("bell")
    with pytest.raises(OSError, match="scripts/make-sounds"):
        SoundBank(tmp_path).clip("gong")
