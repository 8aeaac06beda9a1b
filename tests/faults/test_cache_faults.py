"""espeak-ng under load renders nothing or a clip cut short: the cache tries again."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from narrator.errors import DeviceError
from narrator.voice.cache import RENDER_ATTEMPTS, WavCache
from narrator.voice.estimate import estimate_seconds
from narrator.voice.wav import Clip, write_wav

TEXT = "Mafia, go to sleep."
FULL = estimate_seconds(TEXT)


class Flaky:
    """A renderer that fails in the given ways before it renders the whole text."""

    key = "flaky"
    rate = 160

    def __init__(self, faults: list[str]) -> None:
        self.faults = list(faults)
        self.calls = 0

    def render(self, text: str, path: Path) -> None:
        self.calls += 1
        fault = self.faults.pop(0) if self.faults else "ok"
        if fault == "nothing":
            raise DeviceError(f"espeak-ng rendered nothing for {text!r}")
        seconds = {"ok": FULL, "short": FULL * 0.3, "garbage": 0.0}[fault]
        if fault == "garbage":
            path.write_bytes(b"RIFF....WAVE")
            return
        write_wav(path, Clip(np.full(round(seconds * 22050), 0.1, np.float32), 22050))


@pytest.mark.parametrize("faults", [["nothing"], ["short"], ["nothing", "short", "garbage"]])
def test_a_failed_render_is_tried_again(tmp_path: Path, faults: list[str]) -> None:
    renderer = Flaky(faults)
    clip = WavCache(tmp_path, renderer, "en").clip(TEXT)
    assert clip.seconds == pytest.approx(FULL, abs=1e-3)
    assert renderer.calls == len(faults) + 1
    # ... and what stays on disk is the whole clip.
    assert WavCache(tmp_path, Flaky(["nothing"] * 9), "en").clip(TEXT).frames == clip.frames


def test_always_short_keeps_the_longest_try(tmp_path: Path) -> None:
    renderer = Flaky(["short"] * RENDER_ATTEMPTS)
    clip = WavCache(tmp_path, renderer, "en").clip(TEXT)
    assert clip.seconds == pytest.approx(FULL * 0.3, abs=1e-3)
    assert renderer.calls == RENDER_ATTEMPTS


def test_never_rendered_is_a_device_error(tmp_path: Path) -> None:
    renderer = Flaky(["nothing"] * RENDER_ATTEMPTS)
    with pytest.raises(DeviceError, match="rendered nothing"):
        WavCache(tmp_path, renderer, "en").clip(TEXT)
    assert renderer.calls == RENDER_ATTEMPTS
