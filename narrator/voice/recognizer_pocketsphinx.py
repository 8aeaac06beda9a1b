"""PocketSphinx back end: English, with the model that ships inside the pocketsphinx wheel.

A grammar decoder alone forces every utterance into the nearest command ("good morning
everyone" -> "foul fourteen"). So each utterance is decoded twice, in step:
  - by the command grammar (accurate on commands, blind to everything else), and
  - freely, by a language model over the commands and the most common English words
    (so table talk comes out as ordinary words).
The command stands only when the two agree on how it sounds: the phone sequences of both
transcripts must be close (normalised edit distance). Table talk gives a free transcript
that sounds nothing like the forced command; a command gives one that sounds like it even
when the free decoder spells it differently ("foul seat what" for "foul seat one").
Utterances are cut by pocketsphinx's endpointer (voice activity with a short window).

Each utterance is decoded whole once the endpointer says it has ended (`full_utterance`),
so cepstral mean normalisation is computed over that utterance alone (batch CMN): no
speaker, room or microphone before it colours it, and the first command of the evening
is heard as well as the hundredth. The cost is the decode itself after the end (about a
twentieth of the utterance's length on this machine), which the latency figure includes.
"""

from __future__ import annotations

import itertools
import math
import re
import tempfile
from collections import Counter, defaultdict
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from narrator.errors import ConfigError
from narrator.voice.commands import Command, CommandSet
from narrator.voice.recognizer import SAMPLE_RATE, seconds_of

# Tuned on espeak-ng voices (narrator bench --only listen): below this, table talk starts
# to pass; above it, real commands start to be lost.
AGREEMENT = 0.55
# Per command (scripts/tune-listen on the tuning part, whole utterances, trim 15 dB, no
# loudness end): right 90 of 96 tuning commands, 1 of 32 tuning talk clips taken.
THRESHOLDS: dict[str, float] = {
    "add_time": 0.5, "foul": 0.45, "next_speaker": 0.3, "no": 0.55, "nominate": 0.55,
    "pause": 0.2, "remove": 0.4, "repeat": 0.55, "resume": 0.7, "start_voting": 0.35,
    "undo": 0.2, "yes": 0.65,
}
# Silence (seconds) that ends an utterance.
END_WINDOW = 0.3
# An utterance is cut to the stretch within this many dB of its loudest part (None: not
# cut); the person giving a command is nearer the microphone than the talk around them.
TRIM_DB: float | None = 15.0
TRIM_PAD = 0.15  # seconds kept either side of the loud stretch
# Ending an utterance when its loud stretch is over, not only at silence: in babble the
# voice activity detector never hears silence, so the command waits for the talk around it
# to stop. Off: on the tuning part it cut commands (81 of 96 right against 90 of 96).
LOUD_END = False
LOUD_SMOOTHING = 0.15  # seconds: the loudness that ends an utterance is smoothed over this
# Size of the free decoder's English vocabulary (most frequent words of the wheel's LM).
VOCABULARY = 1000
# Probability mass the free model gives to the command words and command word pairs.
COMMAND_UNIGRAM_MASS = 0.7
COMMAND_BIGRAM_MASS = 0.9999


def _pocketsphinx() -> Any:
    import pocketsphinx

    return pocketsphinx


@cache
def _english_words(size: int) -> tuple[tuple[str, float], ...]:
    """The `size` most frequent plain words of the wheel's English LM, with probabilities."""
    ps = _pocketsphinx()
    lm = ps.NGramModel.readfile(ps.get_model_path("en-us/en-us.lm.bin"))
    plain = re.compile(r"[a-z]+")
    words = set()
    with open(ps.get_model_path("en-us/cmudict-en-us.dict"), encoding="utf-8") as f:
        for line in f:
            word = line.split(maxsplit=1)[0]
            if plain.fullmatch(word):
                words.add(word)
    # prob() is a log in base 1.0001 (pocketsphinx's logmath).
    scored = sorted(((lm.prob([w]), w) for w in words), reverse=True)[:size]
    return tuple((w, 1.0001 ** p) for p, w in scored)


def free_language_model(commands: CommandSet, size: int = VOCABULARY) -> str:
    """An ARPA bigram model: common English words as unigrams, plus the command sentences
    as strong bigrams, so a command said is transcribed as one and talk as talk."""
    sentences = [s.split() for s in commands.sentences]
    command_words = sorted({w for s in sentences for w in s})
    english = _english_words(size)
    total = sum(p for _, p in english)
    unigrams: dict[str, float] = {}
    for word, p in english:
        unigrams[word] = (1 - COMMAND_UNIGRAM_MASS) * p / total
    for word in command_words:
        unigrams[word] = unigrams.get(word, 0.0) + COMMAND_UNIGRAM_MASS / len(command_words)
    pairs: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for s in sentences:
        seq = ["<s>", *s, "</s>"]
        for a, b in itertools.pairwise(seq):
            pairs[a][b] += 1
    backoff = math.log10(1 - COMMAND_BIGRAM_MASS)
    n_bigrams = sum(len(c) for c in pairs.values())
    lines = ["\\data\\", f"ngram 1={len(unigrams) + 2}", f"ngram 2={n_bigrams}", "",
             "\\1-grams:", "-99 <s> " + f"{backoff:.4f}", f"{math.log10(0.1):.4f} </s>"]
    for word, p in unigrams.items():
        bo = backoff if word in pairs else 0.0
        lines.append(f"{math.log10(p):.4f} {word} {bo:.4f}")
    lines += ["", "\\2-grams:"]
    for a, following in pairs.items():
        n = sum(following.values())
        for b, k in following.items():
            lines.append(f"{math.log10(COMMAND_BIGRAM_MASS * k / n):.4f} {a} {b}")
    lines += ["", "\\end\\", ""]
    return "\n".join(lines)


def loudest_part(speech: bytes, trim_db: float | None, pad: float = TRIM_PAD) -> bytes:
    """The stretch of an utterance around its loud part: from the first to the last
    100 ms window whose energy is within `trim_db` of the loudest window's, plus `pad`.
    Babble and talk that run into a command from further away are quieter: the
    endpointer cannot part them from it (they are speech too), their loudness can."""
    if trim_db is None:
        return speech
    samples = np.frombuffer(speech[: len(speech) - len(speech) % 2], "<i2").astype(np.float64)
    step = SAMPLE_RATE // 100
    if len(samples) < 20 * step:
        return speech
    frames = samples[: len(samples) // step * step].reshape(-1, step)
    energy = np.convolve((frames ** 2).mean(axis=1), np.ones(10) / 10, mode="same")
    level = 10 * np.log10(energy + 1.0)
    loud = np.flatnonzero(level >= level.max() - trim_db)
    first = max(0, int(loud[0]) * step - int(pad * SAMPLE_RATE))
    last = min(len(samples), (int(loud[-1]) + 1) * step + int(pad * SAMPLE_RATE))
    return speech[2 * first : 2 * last]


def jsgf(commands: CommandSet) -> str:
    alternatives = "\n  | ".join(sorted(commands.sentences))
    return f"#JSGF V1.0;\ngrammar commands;\npublic <command> = {alternatives};\n"


def similarity(a: list[str], b: list[str]) -> float:
    """1 - normalised edit distance between two symbol sequences (1: the same)."""
    if not a and not b:
        return 1.0
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return 1 - previous[-1] / max(len(a), len(b))


class PocketsphinxRecognizer:
    def __init__(self, commands: CommandSet, *, agreement: float = AGREEMENT,
                 thresholds: Mapping[str, float] | None = None,
                 vocabulary: int = VOCABULARY, end_window: float = END_WINDOW,
                 full_utterance: bool = True, trim_db: float | None = TRIM_DB,
                 loud_end: bool = LOUD_END) -> None:
        ps = _pocketsphinx()
        self.commands = commands
        self.agreement = agreement
        # Per command: how close the free transcript must sound (scripts/tune-listen).
        self.thresholds = dict(THRESHOLDS if thresholds is None else thresholds)
        self.end_window = end_window
        self.full_utterance = full_utterance
        self.trim_db = trim_db
        self.loud_end = loud_end
        self._peak = self._quiet = self._power = 0.0
        self._cut_at: float | None = None
        self._speech = bytearray()
        self._grammar = ps.Decoder(lm=None, loglevel="FATAL")
        missing = [w for w in sorted(commands.vocabulary())
                   if self._grammar.lookup_word(w) is None]
        if missing:
            raise ConfigError(commands.source, "commands",
                              f"not in the pocketsphinx dictionary: {', '.join(missing)}")
        self._grammar.add_jsgf_string("commands", jsgf(commands))
        self._grammar.activate_search("commands")
        with tempfile.TemporaryDirectory() as tmp:
            arpa = Path(tmp) / "free.arpa"
            arpa.write_text(free_language_model(commands, vocabulary), encoding="utf-8")
            self._free = ps.Decoder(lm=str(arpa), loglevel="FATAL")
        self._phones: dict[str, list[str]] = {}
        self._buffer = bytearray()
        self._time = 0.0  # seconds of audio seen (heard or skipped)
        self._new_endpointer(0.0)
        # The last utterance's transcripts, for diagnostics and the bench.
        self.last: tuple[str, str, float] | None = None
        self.heard: list[tuple[str, str, float]] = []  # every utterance's, for tuning

    def _new_endpointer(self, offset: float) -> None:
        self._endpointer = _pocketsphinx().Endpointer(window=self.end_window,
                                                       sample_rate=SAMPLE_RATE)
        self._offset = offset
        self._in_utterance = False
        self._start = 0.0

    def accept(self, chunk: bytes) -> list[Command]:
        self._time += seconds_of(chunk)
        self._buffer += chunk
        size = self._endpointer.frame_bytes
        out: list[Command] = []
        while len(self._buffer) >= size:
            frame = bytes(self._buffer[:size])
            del self._buffer[:size]
            command = self._frame(self._endpointer.process(frame))
            if command is not None:
                out.append(command)
        return out

    def skip(self, chunk: bytes) -> None:
        self._time += seconds_of(chunk)
        if self._in_utterance:
            self._grammar.end_utt()
            self._free.end_utt()
        self._speech.clear()
        self._cut_at = None
        self._buffer.clear()
        self._new_endpointer(self._time)

    def flush(self) -> list[Command]:
        out: list[Command] = []
        if self._endpointer.in_speech:
            # end_stream() indexes its argument: audio that ends on a frame boundary leaves
            # nothing, so it is given one silent sample instead (and may give back nothing).
            rest = bytes(self._buffer) or bytes(2)
            command = self._frame(self._endpointer.end_stream(rest))
            if command is not None:
                out.append(command)
        if self._in_utterance:
            command = self._finish()
            if command is not None:
                out.append(command)
        self._buffer.clear()
        self._new_endpointer(self._time)
        return out

    def _frame(self, speech: bytes | None) -> Command | None:
        if speech is not None:
            if not self._in_utterance:
                self._in_utterance = True
                self._start = self._offset + self._endpointer.speech_start
                if self._cut_at is not None:  # talk ran on after a loud stretch ended
                    self._start = self._cut_at
                self._grammar.start_utt()
                self._free.start_utt()
                self._speech.clear()
                self._peak = self._quiet = self._power = 0.0
            if self.full_utterance:
                self._speech += speech
                if speech and self.loud_end and self._loud_stretch_over(speech):
                    self._cut_at = self._time
                    return self._finish()
            elif speech:  # process_raw() indexes its argument: never give it nothing
                self._grammar.process_raw(speech)
                self._free.process_raw(speech)
        if self._in_utterance and not self._endpointer.in_speech:
            self._cut_at = None
            return self._finish()
        return None

    def _loud_stretch_over(self, frame: bytes) -> bool:
        """Whether the utterance's loud stretch has been over for `end_window` seconds:
        the voice activity detector hears babble as speech and would never end the
        utterance in a noisy room; the command, nearer the microphone, is louder."""
        if self.trim_db is None:
            return False
        samples = np.frombuffer(frame[: len(frame) - len(frame) % 2], "<i2").astype(np.float64)
        seconds = len(samples) / SAMPLE_RATE
        # Power smoothed over about LOUD_SMOOTHING seconds: the quiet consonants and
        # closures inside a word are no end.
        keep = math.exp(-seconds / LOUD_SMOOTHING)
        self._power = keep * self._power + (1 - keep) * float((samples ** 2).mean())
        level = 10 * np.log10(self._power + 1.0)
        if level > self._peak:
            self._peak = level
            self._quiet = 0.0
        elif level < self._peak - self.trim_db:
            self._quiet += seconds
        else:
            self._quiet = 0.0
        return self._quiet >= self.end_window

    def _finish(self) -> Command | None:
        self._in_utterance = False
        if self.full_utterance and self._speech:
            speech = loudest_part(bytes(self._speech), self.trim_db)
            self._speech.clear()
            self._grammar.process_raw(speech, full_utt=True)
            self._free.process_raw(speech, full_utt=True)
        self._grammar.end_utt()
        self._free.end_utt()
        forced = self._grammar.hyp()
        free = self._free.hyp()
        forced_text = forced.hypstr if forced is not None else ""
        free_text = free.hypstr if free is not None else ""
        score = similarity(self._sounds(forced_text), self._sounds(free_text))
        self.last = (forced_text, free_text, score)
        self.heard.append(self.last)
        command = None
        forced_command = self.commands.parse(forced_text, self._start)
        free_command = self.commands.parse(free_text, self._start)
        if forced_command is not None and free_command is not None and \
                forced_command.command == free_command.command and \
                forced_command.seat != free_command.seat:
            return None  # they heard different seats: better asked again than a wrong one
        if forced_command is not None and \
                score >= self.thresholds.get(forced_command.command, self.agreement):
            command = forced_command
        if command is None:
            # The free transcript is a command word for word: its bias toward commands won
            # against every English word, which talk does not manage. (Taking it first
            # instead loses more seats than it saves: tried on the tuning part.)
            command = self.commands.parse(free_text, self._start)
        return command

    def _sounds(self, text: str) -> list[str]:
        out: list[str] = []
        for word in text.split():
            phones = self._phones.get(word)
            if phones is None:
                found = self._grammar.lookup_word(word)
                phones = found.split() if found else [word]
                self._phones[word] = phones
            out += phones
        return out
