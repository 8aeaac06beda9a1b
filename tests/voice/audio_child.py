"""Audio scenarios run in a child process whose HOME holds a test `.asoundrc`.

ALSA reads its configuration once per process, at the first PortAudio call: a test can
route the default device to a file only in a process that starts with that HOME. Each
scenario prints one JSON object; tests/voice/test_playback.py checks it.

    python -m tests.voice.audio_child SCENARIO CACHE_DIR [JSON ARGS]
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from narrator.engine.actions import WindowClosed
from narrator.engine.effects import Effect, OpenWindow, Say, Sound
from narrator.engine.game import Game
from narrator.engine.timeline import Timeline
from narrator.phrases.book import PhraseBook
from narrator.rules.loader import load_bundled
from narrator.voice.estimate import estimate_seconds
from narrator.voice.pyttsx3_speaker import Pyttsx3Speaker
from narrator.voice.voice_config import VoiceSettings
from narrator.voice.wav import Clip

OUT = "out.raw"  # what the test .asoundrc's default device writes, in HOME


class RecordingClock:
    """A Clock that notes every wait and returns at once (the failure path waits on it)."""

    def __init__(self) -> None:
        self.slept: list[float] = []

    def now(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 4))


def out_frames(name: str = OUT) -> int:
    path = Path(os.environ["HOME"]) / name
    return path.stat().st_size // 4 if path.exists() else 0  # float32 mono


async def say(cache: Path, args: dict[str, Any]) -> dict[str, Any]:
    """Say texts through the default device; after each, how far the device got."""
    speaker = Pyttsx3Speaker(VoiceSettings(language=args["lang"], cache_dir=cache,
                                           volume=args.get("volume", 1.0)))
    speaker.prepare(args["texts"])
    steps = []
    for text in args["texts"]:
        t0 = time.monotonic()
        await speaker.say(text)
        assert speaker.last is not None and speaker.last.started_at is not None
        steps.append({"frames": speaker.cache.clip(text).frames, "out_after": out_frames(),
                      "start_ms": (speaker.last.started_at - t0) * 1000})
    await speaker.sound("tick")
    tick = speaker.bank.clip("tick").at_rate(speaker.player.rate).frames
    speaker.close()
    return {"steps": steps, "tick": tick, "out": out_frames(), "failures": speaker.player.failures}


async def recover(cache: Path, args: dict[str, Any]) -> dict[str, Any]:
    """The `flaky` device writes into a folder that is missing at first: it fails, the
    script's time is held on the clock, and once the folder exists sound comes back."""
    logs: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: logs.append(record.getMessage())  # type: ignore[method-assign]
    logging.getLogger("narrator.voice").addHandler(handler)
    clock = RecordingClock()
    speaker = Pyttsx3Speaker(VoiceSettings(cache_dir=cache, device="flaky"), clock=clock)
    text = args["text"]
    speaker.prepare([text])
    await speaker.say(text)
    failed = {"slept": list(clock.slept), "failed": speaker.player.failed,
              "failures": speaker.player.failures}
    Path(args["device_dir"]).mkdir()
    await speaker.say(text)
    speaker.close()
    return {"first": failed, "slept": clock.slept, "failed": speaker.player.failed,
            "seconds": speaker.seconds(text), "frames": speaker.cache.clip(text).frames,
            "device_frames": out_frames(str(Path(args["device_dir"]) / OUT)), "logs": logs}


async def ambience(cache: Path, args: dict[str, Any]) -> dict[str, Any]:
    speaker = Pyttsx3Speaker(VoiceSettings(cache_dir=cache, ambience_volume=0.2))
    text = args["text"]
    speaker.prepare([text])
    speaker.ambience(True)
    await speaker.say(text)
    speaker.ambience(False)
    await speaker.say(text)  # after the ambience: the stream must stop and drain again
    speaker.close()
    return {"frames": speaker.cache.clip(text).frames, "out": out_frames()}


async def night(cache: Path, args: dict[str, Any]) -> dict[str, Any]:
    """Sport night 1, from its gong to the morning's last words, played through the real
    path (windows as silence on the same stream), next to its virtual-clock timeline."""
    lang = args["lang"]
    book = PhraseBook.load(lang)
    speaker = Pyttsx3Speaker(VoiceSettings(language=lang, cache_dir=cache))
    rules = load_bundled("sport")
    roles = ["civilian", "mafia", "civilian", "sheriff", "civilian", "don", "civilian",
             "mafia", "civilian", "civilian"]
    game = Game(rules, roles=roles)
    assert out_frames() == 0, "the night needs a fresh device file"

    def text_of(cue: str, params: Any) -> str:
        return book.render(cue, params)

    timeline = Timeline(text_of, speaker.seconds)
    estimated = Timeline(text_of, lambda t: estimate_seconds(t, lang))
    effects: list[Effect] = list(game.opening)
    started = False
    start_frames = 0
    while True:
        batch = effects
        if not started and game.state.phase == "night" and game.state.number == 1:
            gong = next(i for i, e in enumerate(effects) if isinstance(e, Sound))
            batch, started, start_frames = effects[gong:], True, out_frames()
        if started:
            morning = game.state.phase == "day"
            if morning:  # up to the first speech's window
                batch = batch[:next(i for i, e in enumerate(batch) if isinstance(e, OpenWindow))]
            for effect in batch:
                await _execute(speaker, book, effect)
            timeline.feed(batch, game.state.phase_label())
            estimated.feed(batch, game.state.phase_label())
            if morning:
                break
            timeline.close_window()
            estimated.close_window()
        window = next(e for e in reversed(effects) if isinstance(e, OpenWindow))
        effects = game.apply(WindowClosed(window.window))
    speaker.close()
    frames = out_frames() - start_frames
    spoken = [s.to_json() for s in timeline.spoken]
    return {"rate": speaker.player.rate, "frames": frames, "timeline_end": timeline.now,
            "estimated_end": estimated.now, "spoken": spoken, "start_frames": start_frames}


async def _execute(speaker: Pyttsx3Speaker, book: PhraseBook, effect: Effect) -> None:
    if isinstance(effect, Say):
        await speaker.say(book.render(effect.cue, effect.params))
    elif isinstance(effect, Sound):
        await speaker.sound(effect.name)
    elif isinstance(effect, OpenWindow):
        silence = Clip.silence(effect.seconds, speaker.player.rate)
        await asyncio.wrap_future(speaker.player.play(silence).done)


SCENARIOS: dict[str, Callable[[Path, dict[str, Any]], Coroutine[Any, Any, dict[str, Any]]]] = {
    "say": say, "recover": recover, "ambience": ambience, "night": night,
}


def main(argv: list[str]) -> int:
    name, cache = argv[0], Path(argv[1])
    args = json.loads(argv[2]) if len(argv) > 2 else {}
    result = asyncio.run(SCENARIOS[name](cache, args))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
