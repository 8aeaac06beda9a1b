"""Each board gets what fits it: the box reads its board from the kernel's files (fed
here as a Pi's would read) and takes as its default only a voice that fits the board's
memory and, by the estimate, runs faster than real time on its cores."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from narrator import boards
from narrator.boards import read_board

# MemTotal as each board's Raspberry Pi OS Lite (64-bit) reports it, GPU share taken.
PIS = {
    "Raspberry Pi Zero 2 W Rev 1.0": ("zero2w", 427_000, 4),
    "Raspberry Pi 3 Model B Plus Rev 1.3": ("pi3", 925_000, 4),
    "Raspberry Pi 4 Model B Rev 1.5": ("pi4", 3_884_000, 4),
    "Raspberry Pi 5 Model B Rev 1.0": ("pi5", 8_245_000, 4),
}


def proc(tmp_path: Path, model: str | None, mem_kb: int, cores: int) -> dict[str, Path]:
    files = {"model": tmp_path / "model", "meminfo": tmp_path / "meminfo", "cpuinfo": tmp_path / "cpuinfo"}
    if model is not None:
        files["model"].write_bytes(model.encode() + b"\0")  # the device tree ends it with NUL
    files["meminfo"].write_text(f"MemTotal:       {mem_kb} kB\nMemFree:        1000 kB\n")
    files["cpuinfo"].write_text("".join(f"processor\t: {i}\nBogoMIPS\t: 108.00\n\n" for i in range(cores)))
    return files


@pytest.mark.parametrize("model", list(PIS))
def test_a_pi_is_read_from_its_files(tmp_path: Path, model: str) -> None:
    key, mem_kb, cores = PIS[model]
    board = read_board(**proc(tmp_path, model, mem_kb, cores))
    assert board.profile.key == key and board.model == model
    assert board.cores == cores and board.memory_mb == pytest.approx(mem_kb / 1024)


def test_anything_else_is_a_laptop(tmp_path: Path) -> None:
    files = proc(tmp_path, None, 16_000_000, 8)  # no device tree: not a Pi
    board = read_board(**files)
    assert board.profile.key == "laptop" and board.voice_rtf("hibari") is None and board.cores == 8
    files["model"].write_bytes(b"Pine64 RockPro64 v2.1\0")
    assert read_board(**files).profile.key == "laptop"


def test_a_zero_2_w_speaks_espeak_ng_by_default(tmp_path: Path) -> None:
    zero = read_board(**proc(tmp_path, "Raspberry Pi Zero 2 W Rev 1.0", 427_000, 4))
    assert zero.voices() == {"espeak-ng"}
    for voice in ("hibari", "piper", "festival"):
        assert zero.peak_mb(voice) > zero.budget_mb
        assert "MB" in zero.fits(voice)


def test_a_pi_5_with_room_takes_the_neural_voice(tmp_path: Path) -> None:
    pi5 = read_board(**proc(tmp_path, "Raspberry Pi 5 Model B Rev 1.0", 8_245_000, 4))
    assert {"hibari", "espeak-ng"} <= pi5.voices()
    rtf = pi5.voice_rtf("hibari")
    assert rtf is not None and rtf < 1.0


def test_a_voice_over_real_time_is_not_a_default_even_with_room(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A Pi 3B+ with (imagined) 8 GB: memory is no limit. A voice that needs 1.2 of the A53's
    # 0.98 billion instructions a second (1.4 GHz x 0.7) is over real time: not a default.
    pi3 = read_board(**proc(tmp_path, "Raspberry Pi 3 Model B Plus Rev 1.3", 8_000_000, 4))
    assert "hibari" in pi3.voices()
    monkeypatch.setitem(boards.VOICE_INSTRUCTIONS, "hibari", 1.2e9 / boards.ARM_FACTOR["hibari"])
    assert pi3.voice_rtf("hibari") == pytest.approx(1.2e9 / 0.98e9)
    assert "hibari" not in pi3.voices() and "slower than real time" in pi3.fits("hibari")
    pi5 = read_board(**proc(tmp_path, "Raspberry Pi 5 Model B Rev 1.0", 8_000_000, 4))
    assert "hibari" in pi5.voices()  # 2.4 GHz x 1.9: in time


def test_the_budget_leaves_the_os_its_own(tmp_path: Path) -> None:
    zero = read_board(**proc(tmp_path, "Raspberry Pi Zero 2 W Rev 1.0", 427_000, 4))
    assert zero.budget_mb == pytest.approx(427_000 / 1024 - boards.OS_LITE_IDLE_MB - boards.HEADROOM_MB)


def test_check_hardware_prints_the_profile_and_the_choice(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "narrator", "check-hardware", "--only", "sound",
                           "--sound", "fake"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"})
    assert done.returncode == 0, done.stderr
    assert "board: laptop" in done.stdout  # this machine is no Pi
    assert "default voice here: en " in done.stdout and "recogniser: pocketsphinx" in done.stdout
