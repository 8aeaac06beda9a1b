"""Speech bench: how well each installed voice is understood, how fast it renders, how
much memory its renderer takes, and how even the loudness is.

For each installed voice and language, a child process (the stand-in for the daemon)
renders the night script and the day's cues of the sport set through the box's own path
(`speech_cache`: a renderer child for neural and festival voices, normalisation, cache)
and reports render times, its own peak RSS (the daemon's) and its renderer child's.
The parent then runs pocketsphinx (en-us, its general language model) over the English
clips and scores the word error rate against the text. Russian has no recogniser here
unless a Vosk Russian model is installed, so its WER is left out.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from narrator.phrases.numbers import LANGUAGES

# The night script, then the day: the cues every sport game says, with typical values.
NIGHT = [
    ("night_zero", {}), ("mafia_meet", {}), ("mafia_sleep", {}), ("don_meet", {}),
    ("sheriff_meet", {}), ("night_falls", {}), ("mafia_wake", {}), ("don_wake", {}),
    ("sheriff_wake", {}), ("sheriff_sleep", {}), ("morning", {"day": 2}),
    ("night_victim", {"seat": 7}), ("nobody_killed", {}),
]
DAY = [
    ("speaker", {"seat": 3}), ("last_word", {"seat": 7}), ("ten_seconds", {}),
    ("nomination_accepted", {"seat": 5}), ("nominees", {"seats": (4, 9)}),
    ("voting_starts", {}), ("vote_for", {"seat": 4}), ("vote_count", {"seat": 4, "votes": 6}),
    ("tie", {"seats": (2, 8)}), ("tie_speech", {"seat": 2, "seconds": 30}),
    ("revote", {"seats": (2, 8)}), ("convicted", {"seat": 8, "votes": 5}),
    ("foul", {"seat": 6, "count": 2}), ("discussion", {"seconds": 600}), ("win_red", {}),
]


def texts(lang: str, quick: bool) -> list[str]:
    from narrator.phrases.book import PhraseBook

    book = PhraseBook.load(lang)
    cues = (NIGHT[:3] + DAY[:3]) if quick else NIGHT + DAY
    return [book.render(cue, params) for cue, params in cues]  # type: ignore[arg-type]


def run(quick: bool) -> dict[str, float | int | str]:
    from narrator.voice.voices import installed

    out: dict[str, float | int | str] = {}
    for lang in LANGUAGES:
        for voice in installed(lang):
            said = texts(lang, quick)
            result = _measure(voice.name, lang, said)
            key = f"speech_{lang}_{voice.name.replace('-', '')}"
            out[f"{key}_rtf"] = round(result["rtf"], 4)
            out[f"{key}_start_s"] = round(result["start_s"], 2)
            out[f"{key}_renderer_rss_mb"] = round(result["renderer_rss_mb"], 1)
            out[f"{key}_daemon_rss_mb"] = round(result["daemon_rss_mb"], 1)
            out[f"{key}_loudness_spread_lu"] = round(result["spread_lu"], 2)
            out[f"{key}_raw_loudness_spread_lu"] = round(result["raw_spread_lu"], 2)
            if lang == "en":
                out[f"{key}_wer"] = round(word_error_rate(said, result["paths"]), 3)
    return out


def _measure(voice: str, lang: str, said: list[str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="narrator-bench-speech-") as folder:
        job = {"voice": voice, "lang": lang, "texts": said, "folder": folder}
        done = subprocess.run([sys.executable, "-m", "workshop.bench.speech", json.dumps(job)],
                              capture_output=True, text=True, check=False,
                              env=dict(os.environ, NARRATOR_VOICE=""))
        if done.returncode != 0:
            raise RuntimeError(f"speech bench ({voice}, {lang}) failed: {done.stderr[-2000:]}")
        result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        # The clips are read before the folder goes.
        result["paths"] = [_decode_ready(Path(p)) for p in result["paths"]]
        return result


def _decode_ready(path: Path) -> np.ndarray:
    """The clip as 16 kHz 16-bit samples (what pocketsphinx's en-us model takes)."""
    from narrator.voice.wav import read_wav

    clip = read_wav(path).at_rate(16000)
    return np.clip(np.round(clip.samples * 32767), -32768, 32767).astype("<i2")


def word_error_rate(said: list[str], clips: list[np.ndarray]) -> float:
    from pocketsphinx import Decoder

    from narrator.voice.packs import words

    decoder = Decoder(loglevel="FATAL")
    errors = total = 0
    for text, pcm in zip(said, clips, strict=True):
        decoder.start_utt()
        decoder.process_raw(pcm.tobytes(), full_utt=True)
        decoder.end_utt()
        heard = list(words(decoder.hyp().hypstr if decoder.hyp() else ""))
        want = list(words(text.replace("-", " ")))
        errors += _edits(want, heard)
        total += len(want)
    return errors / max(1, total)


def _edits(a: list[str], b: list[str]) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


def _child(job: dict[str, Any]) -> dict[str, Any]:
    from narrator.voice.loudness import loudness, spread
    from narrator.voice.speech import speech_cache
    from narrator.voice.voice_config import VoiceSettings
    from narrator.voice.wav import read_wav, write_wav

    folder = Path(job["folder"])
    settings = VoiceSettings(language=job["lang"], voice=job["voice"], cache_dir=folder / "cache")
    cache = speech_cache(settings)
    said: list[str] = job["texts"]
    t0 = time.perf_counter()
    first = cache.clip(said[0])  # the engine's start, and one text
    start_s = time.perf_counter() - t0
    rendering = audio = 0.0
    clips = [first]
    for text in said[1:]:
        t = time.perf_counter()
        clip = cache.clip(text)
        rendering += time.perf_counter() - t
        audio += clip.seconds
        clips.append(clip)
    renderer = getattr(cache, "renderer", None)
    child_rss = float(getattr(renderer, "peak_rss_mb", 0.0))
    raw = []
    paths = []
    for i, clip in enumerate(clips):
        path = folder / f"{i}.wav"
        write_wav(path, clip)
        paths.append(str(path))
    # The renderer's own level, before normalisation: what the box would play without it.
    render = getattr(renderer, "render", None)
    if render is not None:
        for i, text in enumerate(said):
            path = folder / f"raw-{i}.wav"
            render(text, path)
            raw.append(loudness(read_wav(path)))
    cache.close()
    own = _peak_rss_mb()
    return {"rtf": rendering / max(audio, 1e-9), "start_s": start_s,
            "renderer_rss_mb": child_rss or own, "daemon_rss_mb": own,
            "spread_lu": spread([loudness(c) for c in clips]), "raw_spread_lu": spread(raw),
            "paths": paths}


def _peak_rss_mb() -> float:
    # VmHWM, not getrusage's ru_maxrss: Linux carries that one over from the parent
    # across fork and exec, so a child would report the bench's own peak.
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


if __name__ == "__main__":
    print(json.dumps(_child(json.loads(sys.argv[1]))))
