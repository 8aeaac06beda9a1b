"""Audio without a sound card: a HOME whose `.asoundrc` sends ALSA's default device to a
file (through the `file` plugin, onto `null`), so sounddevice plays for real and the test
reads what reached the device. `flaky` is a second device whose folder can be missing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

ASOUNDRC = """\
pcm.!default {{
  type file
  slave.pcm "null"
  file "{home}/out.raw"
  format "raw"
}}
pcm.flaky {{
  type file
  slave.pcm "null"
  file "{home}/flaky/out.raw"
  format "raw"
}}
"""


@dataclass
class AudioHome:
    home: Path
    cache: Path

    @property
    def out(self) -> Path:
        return self.home / "out.raw"

    @property
    def flaky(self) -> Path:
        return self.home / "flaky"

    def env(self) -> dict[str, str]:
        env = dict(os.environ, HOME=str(self.home), XDG_CACHE_HOME=str(self.home / "cache"))
        env.pop("ALSA_CONFIG_PATH", None)
        return env

    def run(self, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, *argv], cwd=ROOT, env=self.env(), text=True,
                              capture_output=True, timeout=timeout, check=False)

    def scenario(self, name: str, **args: Any) -> dict[str, Any]:
        done = self.run("-m", "tests.voice.audio_child", name, str(self.cache), json.dumps(args))
        assert done.returncode == 0, done.stderr
        result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        return result


@pytest.fixture(scope="session")
def voice_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Rendered speech shared by the tests of one session (each renders a handful)."""
    return tmp_path_factory.mktemp("voice-cache")


@pytest.fixture
def audio_home(tmp_path: Path, voice_cache: Path) -> AudioHome:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".asoundrc").write_text(ASOUNDRC.format(home=home), encoding="utf-8")
    return AudioHome(home, voice_cache)
