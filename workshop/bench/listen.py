"""`narrator bench --only listen`: voice commands on recordings the recognizer was not
tuned on (workshop.bench.listen_data holds the split).

Every command is said equally often, each time by a held-back voice (espeak-ng, flite,
festival) in one of four rooms (dry, sox reverb, babble of other talk, both); table talk
(held-back sentences with numbers, names and near-commands) is said the same way.

command_accuracy: share of command clips heard as exactly that command (seat included)
and nothing else; listen_per_command: the same per command; listen_confusion: said ->
heard counts for every clip not heard right ("nothing": no command; "seat": the right
command, the wrong seat); false_accepts: talk clips that gave any command;
command_latency_ms_p50/p95: end of the spoken command (its last sound, not the end of the
synthesizer's recording: listen_clips.speech_end) -> the command event, with the
audio arriving in the microphone's chunks (CHUNK_SECONDS) (the chunk wait counts, and the
CPU time of the call that gave the command and of any calls still running when its chunk
came); recognizer_rtf: CPU seconds per second of
audio. With NARRATOR_ADAPTATION naming an adaptation of pocketsphinx's model (`narrator
adapt`: an MLLR file or a model folder) the default line is heard again with it (figures
prefixed adapted_). With NARRATOR_VOSK_MODEL naming an English Vosk model folder the same clips are
also heard by Vosk (figures prefixed vosk_).
"""

from __future__ import annotations

import math
import os
import random
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from narrator.voice.commands import Command, CommandSet
from narrator.voice.listen_clips import ClipSpec, make_babble, read_wav, speak_all
from narrator.voice.listen_clips import speech_end as voice_end
from narrator.voice.recognizer import CHUNK_SECONDS, Recognizer, chunked, seconds_of
from workshop.bench.listen_data import (
    CONDITIONS,
    HELD_BACK_TALK,
    HELD_BACK_VOICES,
    TABLE_REVERB,
    TABLE_SNRS,
    TABLE_TALK_SNR,
    TUNING_TALK,
    TUNING_VOICES,
    held_back_sentence,
)
from workshop.bench.near_misses import near_misses

CHUNK = CHUNK_SECONDS  # as the microphone gives them
PER_COMMAND = 8
PER_COMMAND_QUICK = 1
TALK_QUICK = 6
WAKE_WORD = "narrator"
EARLY_END = 0.2  # seconds after a whole command's last word (the early_ line)


@dataclass
class Clip:
    spec: ClipSpec
    want: tuple[str, int | None] | None  # None: table talk
    path: Path = Path()


@dataclass
class Report:
    right: Counter[str] = field(default_factory=Counter)
    said: Counter[str] = field(default_factory=Counter)
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)
    talk: int = 0
    false_accepts: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    by_room: dict[str, list[float]] = field(default_factory=dict)
    said_in: Counter[str] = field(default_factory=Counter)  # command clips by room
    right_in: Counter[str] = field(default_factory=Counter)
    talk_in: Counter[str] = field(default_factory=Counter)  # talk clips by room
    taken_in: Counter[str] = field(default_factory=Counter)
    cpu: float = 0.0
    audio: float = 0.0
    # what every clip gave: (spec, want, got), for tuning and the confusion table
    heard: list[tuple[ClipSpec, tuple[str, int | None] | None, list[Command]]] = field(
        default_factory=list)

    @property
    def accuracy(self) -> float:
        """Over the four base rooms (the table's SNRs have their own figures)."""
        base = [room for room, _, _ in CONDITIONS]
        return sum(self.right_in[r] for r in base) / max(1, sum(self.said_in[r] for r in base))

    def room_accuracy(self, room: str) -> float:
        return self.right_in[room] / max(1, self.said_in[room])

    def figures(self, prefix: str = "") -> dict[str, float | int | str]:
        lat = sorted(self.latencies)
        p95 = lat[min(len(lat) - 1, round(0.95 * (len(lat) - 1)))] if lat else -1.0
        return {
            f"{prefix}command_accuracy": round(self.accuracy, 3),
            f"{prefix}false_accepts": f"{len(self.false_accepts)} of {self.talk}",
            f"{prefix}false_accept_rate": round(len(self.false_accepts) / max(1, self.talk), 3),
            f"{prefix}command_latency_ms_p50": round(statistics.median(lat), 1) if lat else -1,
            f"{prefix}command_latency_ms_p95": round(p95, 1),
            f"{prefix}recognizer_rtf": round(self.cpu / max(self.audio, 1e-9), 4),
            f"{prefix}listen_command_clips": sum(self.said.values()),
            f"{prefix}listen_per_command": ", ".join(
                f"{c} {self.right[c]}/{n}" for c, n in sorted(self.said.items())),
            f"{prefix}listen_confusion": ", ".join(
                f"{a}->{b} {n}" for (a, b), n in self.confusion.most_common()) or "none",
            f"{prefix}listen_false_accepts": "; ".join(self.false_accepts) or "none",
            f"{prefix}listen_latency_ms_p50_by_room": ", ".join(
                f"{room} {statistics.median(v):.0f}" for room, v in self.by_room.items() if v),
            f"{prefix}listen_right_by_room": ", ".join(
                f"{room} {self.right_in[room]}/{n}" for room, n in self.said_in.items()),
            f"{prefix}listen_talk_taken_by_room": ", ".join(
                f"{room} {self.taken_in[room]}/{n}" for room, n in self.talk_in.items()),
            **{f"{prefix}command_accuracy_{room}": round(self.room_accuracy(room), 3)
               for room in ("dry", *(f"table{snr}" for snr in TABLE_SNRS))
               if self.said_in[room]},
        }


def clips(commands: CommandSet, held_back: bool, per_command: int, talk: int | None,
          seed: int = 7, table: bool = True) -> list[Clip]:
    """The part's clips: every command `per_command` times, then the part's talk (its
    table talk, then its near misses), each in a voice and room of the part (cycled, so
    every voice and room is used alike); with `table`, every command clip again at a
    table at each SNR, and the talk at a table at TABLE_TALK_SNR."""
    rng = random.Random(seed + held_back)
    voices = HELD_BACK_VOICES if held_back else TUNING_VOICES
    by_command: dict[str, list[str]] = {}
    for sentence, (name, seat) in sorted(commands.sentences.items()):
        # Split by the words after the wake word: the wake-word run keeps the same split.
        unwoken = " ".join(sentence.split()[len(commands.wake):])
        if seat is None or held_back_sentence(unwoken) == held_back:
            by_command.setdefault(name, []).append(sentence)
    out: list[Clip] = []
    turn = 0
    for _name, sentences in sorted(by_command.items()):
        for i in range(per_command):
            sentence = sentences[i % len(sentences)] if len(sentences) <= per_command \
                else rng.choice(sentences)
            out.append(Clip(_spec(sentence, voices, turn, rng), commands.sentences[sentence]))
            turn += 1
    texts = (*(HELD_BACK_TALK if held_back else TUNING_TALK), *near_misses("en", held_back))
    for text in texts[:talk]:
        out.append(Clip(_spec(text, voices, turn, rng), None))
        turn += 1
    if table:
        base = list(out)
        for snr in TABLE_SNRS:
            out += [Clip(_at_table(c.spec, snr), c.want) for c in base if c.want is not None]
        out += [Clip(_at_table(c.spec, TABLE_TALK_SNR), None) for c in base if c.want is None]
    return out


def _at_table(spec: ClipSpec, snr: float) -> ClipSpec:
    return replace(spec, reverb=TABLE_REVERB, babble=round(10 ** (-snr / 20), 4), table=True)


def _spec(text: str, voices: Sequence[str], turn: int, rng: random.Random) -> ClipSpec:
    voice = voices[turn % len(voices)]
    _, reverb, babble = CONDITIONS[(turn // len(voices)) % len(CONDITIONS)]
    return ClipSpec(text, voice, speed=rng.choice((140, 160, 180)), reverb=reverb,
                    babble=babble)


def render(part: list[Clip], folder: Path) -> None:
    """Speak the clips into `folder`; the babble is the other part's talk in tuning voices
    (so no held-back sentence is ever heard twice)."""
    babble = make_babble(TUNING_TALK[:12], TUNING_VOICES[:3], folder / "babble")
    for clip, path in zip(part, speak_all([c.spec for c in part], folder, babble=babble),
                          strict=True):
        clip.path = path


def evaluate(recognizer: Recognizer, part: list[Clip]) -> Report:
    """Hear every clip, one after another, with one recognizer (voices and rooms mixed:
    nothing it learns from one clip's speaker is of use for the next)."""
    report = Report()
    for clip in part:
        samples = read_wav(clip.path).tobytes()
        speech_end = voice_end(clip.spec)
        got, cpu, first_at = _hear(recognizer, samples)
        report.cpu += cpu
        report.audio += seconds_of(samples)
        report.heard.append((clip.spec, clip.want, got))
        room = _room(clip.spec)
        if clip.want is None:
            report.talk += 1
            report.talk_in[room] += 1
            report.taken_in[room] += bool(got)
            if got:
                report.false_accepts.append(
                    f"{clip.spec.text!r} -> {' + '.join(c.text for c in got)}")
            continue
        name = clip.want[0]
        report.said_in[room] += 1
        if not clip.spec.table:
            report.said[name] += 1
        if [(c.command, c.seat) for c in got] == [clip.want]:
            report.right_in[room] += 1
            if not clip.spec.table:
                report.right[name] += 1
            if first_at is not None:
                latency = max(0.0, first_at - speech_end) * 1000
                report.latencies.append(latency)
                report.by_room.setdefault(room, []).append(latency)
        else:
            report.confusion[(name, _label(clip.want, got))] += 1
    return report


def _room(spec: ClipSpec) -> str:
    if spec.table:
        return f"table{round(-20 * math.log10(spec.babble))}"
    return next(name for name, reverb, babble in CONDITIONS
                if (reverb > 0, babble > 0) == (spec.reverb > 0, spec.babble > 0))


def _label(want: tuple[str, int | None], got: list[Command]) -> str:
    if not got:
        return "nothing"
    if len(got) > 1:
        return "+".join(c.command for c in got)
    if got[0].command == want[0]:
        return "seat"
    return got[0].command


def _hear(recognizer: Recognizer, samples: bytes) -> tuple[list[Command], float, float | None]:
    """The commands, the CPU seconds spent, and when (in audio seconds) the first command
    came out: each chunk is heard once it has arrived and the calls before it are done, as
    on the box (one thread), so CPU spent on an earlier chunk delays the later ones."""
    got: list[Command] = []
    cpu = 0.0
    fed = 0.0
    clock = 0.0  # when the recognizer is done with what it was given
    first: float | None = None
    for chunk in [*chunked(samples, CHUNK), b""]:
        fed += seconds_of(chunk)
        start = time.process_time()
        out = recognizer.accept(chunk) if chunk else recognizer.flush()
        spent = time.process_time() - start
        cpu += spent
        clock = max(clock, fed) + spent
        if out and first is None:
            first = clock
        got += out
    return got, cpu, first


def _pocketsphinx(commands: CommandSet, early_end: float | None = None,
                  adaptation: Path | None = None, front: str | None = None) -> Recognizer:
    from narrator.voice.front_end import DEFAULT_FRONT_END, FrontEndRecognizer, front_end
    from narrator.voice.pocketsphinx_settings import PocketsphinxSettings
    from narrator.voice.recognizer_pocketsphinx import PocketsphinxRecognizer

    recognizer = PocketsphinxRecognizer(commands, PocketsphinxSettings(early_end=early_end),
                                        adaptation=adaptation)
    stages = front_end(DEFAULT_FRONT_END if front is None else front)
    return FrontEndRecognizer(stages, recognizer) if stages else recognizer


def front_end_lines() -> list[str]:
    """The front ends heard as lines of their own (NARRATOR_LISTEN_FRONT_ENDS: names, or
    "all"; figures prefixed fe_NAME_), beside the default line's."""
    from narrator.voice.front_end import DEFAULT_FRONT_END, FRONT_ENDS

    named = os.environ.get("NARRATOR_LISTEN_FRONT_ENDS", "")
    names = list(FRONT_ENDS) if named == "all" else [n for n in named.split(",") if n]
    return [n for n in names if n != DEFAULT_FRONT_END]


def russian_near_misses(model: Path, folder: Path) -> dict[str, float | int | str]:
    """The held-back Russian near misses, said by espeak-ng's Russian voice in the four
    rooms, heard by Vosk with a Russian model (no registry ships one: figures prefixed
    ru_ only when NARRATOR_VOSK_MODEL_RU names one)."""
    from narrator.voice.recognizer_vosk import VoskRecognizer

    commands = CommandSet.for_language("ru")
    rng = random.Random(11)
    part = [Clip(_spec(text, ("ru",), turn, rng), None)
            for turn, text in enumerate(near_misses("ru", True))]
    render(part, folder)
    return evaluate(VoskRecognizer(commands, model), part).figures("ru_")


def run(quick: bool) -> dict[str, float | int | str]:
    commands = CommandSet.for_language("en")
    part = clips(commands, True, PER_COMMAND_QUICK if quick else PER_COMMAND,
                 TALK_QUICK if quick else None, table=not quick)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        render(part, folder)
        out = evaluate(_pocketsphinx(commands), part).figures()
        for name in front_end_lines():
            line = evaluate(_pocketsphinx(commands, front=name), part)
            out.update(line.figures(f"fe_{name.replace('-', '_')}_"))
        # The noisy-table setting: every command begins with the wake word
        # (recognizer.wake_word), the same talk is said; figures prefixed wake_.
        woken = CommandSet.for_language("en", WAKE_WORD)
        wake_part = clips(woken, True, PER_COMMAND_QUICK if quick else PER_COMMAND,
                          TALK_QUICK if quick else None, table=False)
        render(wake_part, folder)
        wake = evaluate(_pocketsphinx(woken), wake_part).figures("wake_")
        out.update(wake)
        if not quick:
            # Ending a command on the grammar's running hypothesis (off on the box by
            # default): the same clips, figures prefixed early_.
            early = _pocketsphinx(commands, early_end=EARLY_END)
            base = [c for c in part if not c.spec.table]
            out.update(evaluate(early, base).figures("early_"))
        out["listen_voices"] = ", ".join(HELD_BACK_VOICES)
        out["listen_rooms"] = ", ".join(name for name, _, _ in CONDITIONS)
        adapted = os.environ.get("NARRATOR_ADAPTATION")
        if adapted:
            # An adaptation of the acoustic model (narrator adapt): the default line with
            # it, figures prefixed adapted_.
            out.update(evaluate(_pocketsphinx(commands, adaptation=Path(adapted)),
                                part).figures("adapted_"))
        model = os.environ.get("NARRATOR_VOSK_MODEL")
        if model:
            from narrator.voice.recognizer_vosk import VoskRecognizer

            vosk = VoskRecognizer(commands, Path(model))
            out.update(evaluate(vosk, part).figures("vosk_"))
        russian = os.environ.get("NARRATOR_VOSK_MODEL_RU")
        if russian:
            out.update(russian_near_misses(Path(russian), folder))
    return out

