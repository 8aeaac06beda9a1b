"""`narrator bench --only listen`: the pocketsphinx recognizer on espeak-ng voices.

command_accuracy: share of command clips heard as exactly that command (and nothing else);
false_accept_rate: share of table-talk clips that produced any command;
command_latency_ms_p50: end of the spoken command -> command event, streaming in real time;
recognizer_rtf: recognizer CPU seconds per second of audio.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from narrator.voice.commands import CommandSet, words_of
from narrator.voice.listen_clips import ENGLISH_VOICES, ClipSpec, read_wav, speak_all
from narrator.voice.recognizer import chunked, seconds_of
from narrator.voice.recognizer_pocketsphinx import PocketsphinxRecognizer

TALK = [
    "I think seat four was lying yesterday", "good morning everyone",
    "I am a civilian and I trust number two", "seven and nine were winking at each other",
    "let us vote out the sheriff this time", "why did you hesitate before you spoke",
    "my gut says the mafia is on the left side", "can you explain your vote from last round",
    "I am not going to defend myself any more", "the don checked me last night",
    "who wants coffee before we start", "we should listen to player eight more carefully",
    "that was a very suspicious speech", "honestly I have no idea who the mafia is",
    "please stop interrupting me", "I was the first to speak yesterday",
    "she always votes with the mafia", "the last game was much more fun",
    "does anyone have a spare pen", "let me finish my thought",
    "he was shaking his head the whole time", "it is too hot in this room",
    "we need more information before voting", "number five is clearly the sheriff",
    "I saw someone move during the night", "do not believe a word he says",
    "okay I guess it is my turn now", "I have nothing more to say",
    "that makes no sense at all", "can we open the window please",
    "I agree with everything seat six said", "where is the bathroom",
    "the pizza will arrive in ten minutes", "this is my third game tonight",
    "we lost because of that vote", "if I were mafia I would have shot you",
    "let us think about the voting pattern", "player three is acting strangely",
    "my speech will be short today", "I would like to hear from the quiet players",
    "everyone please keep your hands on the table", "nobody listens to me in this game",
    "I changed my mind about number nine", "look at how she reacted to the kill",
    "could you speak a little louder please", "he told me he was the don",
    "wait a moment I am still thinking", "I remember what you said on day one",
    "the clock is running out", "tell us who you suspect and why",
    "it was a mistake to trust ten", "thanks for the nice game everyone",
]
OPENING = "good evening everyone, welcome to the game, let us begin"


def _command_texts(commands: CommandSet, n: int, rng: random.Random) -> list[str]:
    simple = [s for s, (_, seat) in commands.sentences.items() if seat is None]
    seated = [s for s, (_, seat) in commands.sentences.items() if seat is not None]
    return simple + rng.sample(seated, min(len(seated), max(0, n - len(simple))))


def run(quick: bool) -> dict[str, float | int | str]:
    rng = random.Random(7)
    commands = CommandSet.for_language("en")
    voices = tuple(v for v in ENGLISH_VOICES if v != "en-029+f4")  # see BENCHMARKS.md
    texts = _command_texts(commands, 16 if quick else 140, rng)
    talk = TALK[:6] if quick else TALK
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cmd_specs = [ClipSpec(t, rng.choice(voices), speed=rng.choice((140, 160, 180)))
                     for t in texts]
        talk_specs = [ClipSpec(t, voices[i % len(voices)]) for i, t in enumerate(talk)]
        opening = {v: speak_all([ClipSpec(OPENING, v)], folder)[0] for v in voices}
        cmd_paths = speak_all(cmd_specs, folder)
        talk_paths = speak_all(talk_specs, folder)
        recognizers = {v: PocketsphinxRecognizer(commands) for v in voices}
        for v, r in recognizers.items():  # a little talk first: the room's normalisation
            for chunk in chunked(read_wav(opening[v]).tobytes()):
                r.accept(chunk)
            r.flush()
        cpu = audio = 0.0
        right = 0
        per_voice: dict[str, list[int]] = {v: [0, 0] for v in voices}
        for spec, path in zip(cmd_specs, cmd_paths, strict=True):
            r = recognizers[spec.voice]
            samples = read_wav(path).tobytes()
            start = time.process_time()
            got = [c for chunk in chunked(samples) for c in r.accept(chunk)] + r.flush()
            cpu += time.process_time() - start
            audio += seconds_of(samples)
            want = commands.sentences[" ".join(words_of(spec.text))]
            ok = [(c.command, c.seat) for c in got] == [want]
            right += ok
            per_voice[spec.voice][0] += ok
            per_voice[spec.voice][1] += 1
        accepted = 0
        for spec, path in zip(talk_specs, talk_paths, strict=True):
            r = recognizers[spec.voice]
            samples = read_wav(path).tobytes()
            start = time.process_time()
            got = [c for chunk in chunked(samples) for c in r.accept(chunk)] + r.flush()
            cpu += time.process_time() - start
            audio += seconds_of(samples)
            accepted += bool(got)
        latencies = _latencies(commands, voices, cmd_specs[: 6 if quick else 20],
                               cmd_paths[: 6 if quick else 20], opening)
    out: dict[str, float | int | str] = {
        "command_accuracy": round(right / len(cmd_specs), 3),
        "false_accept_rate": round(accepted / len(talk_specs), 3),
        "command_latency_ms_p50": round(statistics.median(latencies), 1) if latencies else -1,
        "recognizer_rtf": round(cpu / audio, 4),
        "listen_command_clips": len(cmd_specs),
        "listen_talk_clips": len(talk_specs),
        "listen_accuracy_by_voice": ", ".join(f"{v} {a}/{n}" for v, (a, n) in per_voice.items()),
    }
    return out


def _latencies(commands: CommandSet, voices: tuple[str, ...], specs: list[ClipSpec],
               paths: list[Path], opening: dict[str, Path]) -> list[float]:
    """Feed each clip at the pace of a microphone (0.1 s chunks in real time) and time the
    command from the end of its speech (the clip's `tail` of noise follows it)."""
    out: list[float] = []
    for spec, path in zip(specs, paths, strict=True):
        r = PocketsphinxRecognizer(commands)
        for chunk in chunked(read_wav(opening[spec.voice]).tobytes()):
            r.accept(chunk)
        r.flush()
        samples = read_wav(path).tobytes()
        speech_end = seconds_of(samples) - spec.tail
        begin = time.monotonic()
        fed = 0.0
        for chunk in chunked(samples):
            fed += seconds_of(chunk)
            wait = begin + fed - time.monotonic()
            if wait > 0:
                time.sleep(wait)  # real-time pacing: the bench, never a test
            if r.accept(chunk):
                out.append((time.monotonic() - begin - speech_end) * 1000)
                break
    return out
