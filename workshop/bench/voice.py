"""Voice benchmarks: how fast a cached cue starts, how long a render takes, how long the
start-up render of a whole rule set takes.

The measurement runs in a child process whose HOME holds an `.asoundrc` that sends ALSA's
default device to a file: the full playback path (cache, player thread, sounddevice,
PortAudio, ALSA) runs for real, the same on a laptop, a CI box or the Pi.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ASOUNDRC = 'pcm.!default {\n  type file\n  slave.pcm "null"\n  file "/dev/null"\n  format "raw"\n}\n'


def run(quick: bool) -> dict[str, float | int | str]:
    with tempfile.TemporaryDirectory(prefix="narrator-bench-voice-") as home:
        Path(home, ".asoundrc").write_text(ASOUNDRC, encoding="utf-8")
        env = dict(os.environ, HOME=home, XDG_CACHE_HOME=str(Path(home, "cache")))
        argv = [sys.executable, "-m", "workshop.bench.voice", "child"] + (["quick"] if quick else [])
        done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"voice bench failed: {done.stderr.strip()[-2000:]}")
        result: dict[str, float | int | str] = json.loads(done.stdout.strip().splitlines()[-1])
        return result


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def _child(quick: bool) -> dict[str, Any]:
    from narrator.phrases.book import PhraseBook
    from narrator.phrases.variants import likely_texts
    from narrator.rules.loader import load_bundled
    from narrator.voice.pyttsx3_speaker import Pyttsx3Speaker
    from narrator.voice.tts import Pyttsx3Renderer
    from narrator.voice.voice_config import VoiceSettings

    cache = Path(tempfile.mkdtemp(prefix="cache-", dir=os.environ["HOME"]))
    sport = load_bundled("sport")
    texts = {lang: list(likely_texts(PhraseBook.load(lang), sport)) for lang in ("en", "ru")}
    if quick:
        texts = {lang: t[:12] for lang, t in texts.items()}

    # Cold renders (texts not in any cache), one at a time, straight to a file; the
    # engine's own start-up is left out.
    renderer = Pyttsx3Renderer(VoiceSettings().voice_id, VoiceSettings().rate)
    renderer.render("Ready.", cache / "warm.wav")
    sample = texts["en"][: 5 if quick else 40]
    renders = []
    for i, text in enumerate(sample):
        t0 = time.perf_counter()
        renderer.render(text, cache / f"cold-{i}.wav")
        renders.append((time.perf_counter() - t0) * 1000)

    # The start-up render of everything sport is likely to say, in both languages.
    t0 = time.perf_counter()
    speakers = {}
    for lang in ("en", "ru"):
        speakers[lang] = Pyttsx3Speaker(VoiceSettings(language=lang, cache_dir=cache / lang))
        speakers[lang].prepare(texts[lang])
    startup = time.perf_counter() - t0

    # A cached cue: from the say request to its first frame handed to the device.
    speaker = speakers["en"]
    calls = [t for t in texts["en"] if len(t) < 12] or texts["en"][:5]
    starts = []
    for i in range(20 if quick else 300):
        t0 = time.monotonic()
        await speaker.say(calls[i % len(calls)])
        assert speaker.last is not None and speaker.last.started_at is not None
        starts.append((speaker.last.started_at - t0) * 1000)
    for s in speakers.values():
        s.close()
    key = "cache_render_s_sport_both_languages" + ("_quick_subset" if quick else "")
    return {
        "cue_start_ms_p95": round(_percentile(starts, 0.95), 3),
        "cue_start_ms_median": round(statistics.median(starts), 3),
        "tts_render_ms_median": round(statistics.median(renders), 1),
        key: round(startup, 2),
        "cache_texts_sport_both_languages": sum(len(t) for t in texts.values()),
    }


if __name__ == "__main__" and sys.argv[1:2] == ["child"]:
    print(json.dumps(asyncio.run(_child("quick" in sys.argv[2:]))))
