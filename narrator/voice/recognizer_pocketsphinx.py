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
is heard as well as the hundredth. The decode is done ahead (`decode_ahead`): once the
utterance's loud stretch has been quiet a moment it is decoded while the endpointer still
waits for its silence window, and when both decoders then hear a command word for word
the utterance ends there (`ahead_end`), so a command in babble does not wait for the room
to fall quiet either.

In babble the endpointer hears speech to the end, so a command waits for the room to fall
quiet. `early_end` (off by default: the bench's early_ line) ends it sooner: a third,
streaming grammar decoder watches, and once its best path is a whole command followed by
quieter sound the utterance so far is decoded whole and taken if both decoders agree.
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
from narrator.voice.commands import COMMANDS, Command, CommandSet
from narrator.voice.phone_distance import PhoneSequences
from narrator.voice.recognizer import BYTES_PER_SECOND, SAMPLE_RATE, seconds_of
from narrator.voice.speech_levels import SpeechLevels, bounds, levels

# Tuned on espeak-ng voices (narrator bench --only listen): below this, table talk starts
# to pass; above it, real commands start to be lost.
AGREEMENT = 0.55
# Per command, without and with an adaptation of the acoustic model (narrator adapt):
# the command table's thresholds (narrator/voice/commands.py says how they were tuned).
THRESHOLDS: dict[str, float] = {c.id: c.threshold for c in COMMANDS}
ADAPTED_THRESHOLDS: dict[str, float] = {c.id: c.adapted for c in COMMANDS}
# Silence (seconds) that ends an utterance.
END_WINDOW = 0.3
# An utterance is cut to the stretch within this many dB of its loudest part (None: not
# cut); the person giving a command is nearer the microphone than the talk around them.
TRIM_DB: float | None = 15.0
TRIM_PAD = 0.15  # seconds kept either side of the loud stretch
# ... after it: the decode ahead waits for this much quiet (0.1: 89 of 112 right against 97
# on the tuning part, one talk clip taken; kept at TRIM_PAD).
TRIM_END_PAD = 0.15
# Ending an utterance when its loud stretch is over, not only at silence: in babble the
# voice activity detector never hears silence, so the command waits for the talk around it
# to stop. Off: on the tuning part it cut commands (81 of 96 right against 90 of 96).
LOUD_END = False
LOUD_SMOOTHING = 0.15  # seconds: the loudness that ends an utterance is smoothed over this
# Ending an utterance on the grammar's running hypothesis: when a third, streaming grammar
# decoder's best path is a whole command and has stayed in silence or filler after its
# last word for this many seconds, the command is over, whatever the voice activity
# detector thinks (in babble it hears speech to the end). None: wait for the endpointer.
# Off by default: on the tuning part it took latency p50 from 754 to 450 ms but cost
# commands and let talk through (a pause after "yes" in "yes, I think so" ends a command);
# the bench measures it as a line of its own (early_).
EARLY_END: float | None = None
# What runs on after a command ended that way is background (babble, the rest of a
# table's talk) unless it comes as loud as the command, within this many dB, and both
# decoders hear the same command in it word for word.
RUN_ON_DB = 3.0
# An early end needs the free decoder to have heard the same command word for word.
EARLY_EXACT = True
# ... and the audio since the command's last word (babble, reverb, a pause) this many dB
# under the utterance's loudest part: talk that merely paused is as loud as before.
EARLY_QUIET_DB: float | None = 6.0
# Decoding ahead: once an utterance's loud stretch has been over for this many seconds
# (past the trim's pad; heard to the present, not to where the endpointer, a window late,
# has got), its trimmed audio is decoded while the endpointer still waits for its silence
# window; when the utterance then ends with the same trimmed audio (nothing loud came
# since) that decode is the answer, so the end costs no decode. None: off. (Tuning part,
# kept thresholds: latency p50 733 -> 611 ms, 95 of 112 right against 96: the noise
# removal below hears the audio a little otherwise after a decode ahead; RTF 0.071 ->
# 0.087 for the decodes that more audio made void.)
DECODE_AHEAD: float | None = 0.05
# ... but the decoding itself starts this much sooner (seconds of quiet past the pad): the
# CPU is spent while the last 0.05 s come, not after them. (a-lat, stop 22: ending at 0
# too took "let me finish my thought" in tests/listen as "repeat": a pause in talk.)
AHEAD_START = 0.0
# ... unless the sound is coming back: while the last 30 ms are within this many dB under
# the loud stretch's floor (the trim's), that decode waits, up to when it is judged (None:
# it never waits). A decode ahead that more loud sound then makes void cost as much as the
# one that counts (l-rtf: on the held-back part such void decodes were 0.013 of the RTF).
AHEAD_SETTLED_DB: float | None = 3.0
# No decode ahead of a loud stretch (with its pads) longer than this (seconds; None: any):
# no command takes that long, so such a decode only finds talk, and every pause in the
# talk would decode it all again from its start; the end decodes it once.
AHEAD_LONGEST: float | None = 3.0
# Utterances shorter than this (seconds) are not trimmed, nor decoded ahead.
SHORTEST_TRIM = 0.2
# Ending on the decode ahead: when it is a command that both decoders heard word for word,
# and as loud as any command before it in the same stretch of speech, the utterance ends
# there, whatever the voice activity detector thinks (in babble and reverberation it
# hears speech on). Tuning part, kept thresholds: latency p50 611 -> 106 ms (babble 800
# -> 129), 96 of 112 right, no talk taken of 32, RTF 0.079 (the grammar is asked ahead
# only when the free decoder heard a command; what runs on after such an end is not
# decoded unless it is as loud: without that, RTF 0.119). The early end above does the
# same from a third decoder's running hypothesis.
AHEAD_END = True
# pocketsphinx's spectral noise removal (on in the model's feat.params, over any argument)
# keeps its noise estimate from one utterance to the next, so the same audio can be heard
# otherwise after other audio (another free transcript in 17 of 19 tries). Turned off (a
# copy of feat.params), the tuning part lost 6 commands of 112 (93 against 99): kept on.
# The free decoder's settings: its second (flat-lexicon) pass costs a third of its time.
FREE_CONFIG: dict[str, Any] = {"fwdflat": False}
# Size of the free decoder's English vocabulary (most frequent words of the wheel's LM).
# 150 was tried (a-acc): on a widened tuning part 249 of 336 right against 241, the same
# 3 of 72 talk taken, but held back 0.750 against 0.777 (with the seat-word rule below
# it replaced): kept at 1000.
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


def peak_level(speech: bytes | bytearray, tracked: SpeechLevels | None = None) -> float:
    """The loudest level of `speech`; `tracked`: the levels kept for this utterance as it
    grew (the same figure, without going over the utterance again)."""
    if tracked is not None:
        tracked.update(speech)
        return tracked.peak
    level = levels(speech)
    return float(level.max()) if len(level) else 0.0


def loudest_part(speech: bytes, trim_db: float | None, pad: float = TRIM_PAD,
                 end_pad: float | None = None) -> bytes:
    """The stretch of an utterance around its loud part: from the first to the last
    100 ms window whose energy is within `trim_db` of the loudest window's, plus `pad`.
    Babble and talk that run into a command from further away are quieter: the
    endpointer cannot part them from it (they are speech too), their loudness can."""
    first, last = loud_bounds(speech, trim_db, pad, end_pad)
    return speech[2 * first : 2 * last]


def loud_bounds(speech: bytes, trim_db: float | None, pad: float = TRIM_PAD,
                end_pad: float | None = None,
                tracked: SpeechLevels | None = None) -> tuple[int, int]:
    """loudest_part's first and last sample (the whole utterance when it is not cut);
    `end_pad` (None: `pad`) is kept after the loud stretch, as far as the speech goes.
    `tracked`: the levels kept for this utterance as it grew (the same bounds, at the
    cost of the audio since the last call: the decode ahead asks after every chunk)."""
    whole = (0, len(speech) // 2)
    if trim_db is None:
        return whole
    step = SAMPLE_RATE // 100
    if len(speech) // 2 < SHORTEST_TRIM * SAMPLE_RATE:
        return whole
    if tracked is not None:
        tracked.update(speech)
        loud_first, loud_last = tracked.loud(trim_db)
    else:
        loud_first, loud_last = bounds(levels(speech), trim_db)
    first = max(0, loud_first * step - int(pad * SAMPLE_RATE))
    after = pad if end_pad is None else end_pad
    # Not cut at the speech's end: a last sample past it says the pad is not all there
    # yet (the decode ahead waits for it).
    last = (loud_last + 1) * step + int(after * SAMPLE_RATE)
    return first, last


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


def decide(commands: CommandSet, forced_text: str, free_text: str, score: float,
           thresholds: Mapping[str, float], agreement: float = AGREEMENT,
           at: float = 0.0) -> Command | None:
    """The command an utterance is, from the grammar's transcript, the free decoder's and
    how alike they sound (`score`); None: no command, or talk. (scripts/tune-listen
    replays it with other thresholds.)"""
    forced_command = commands.parse(forced_text, at)
    free_command = commands.parse(free_text, at)
    if forced_command is not None and free_command is not None and \
            forced_command.command == free_command.command and \
            forced_command.seat != free_command.seat:
        return None  # they heard different seats: better asked again than a wrong one
    if forced_command is not None and \
            score >= thresholds.get(forced_command.command, agreement):
        return forced_command
    # The free transcript is a command word for word: its bias toward commands won
    # against every English word, which talk does not manage. (Taking it first
    # instead loses more seats than it saves: tried on the tuning part.)
    return free_command


def acoustic_config(adaptation: Path | None) -> dict[str, str]:
    """pocketsphinx settings for an adaptation: a file is an MLLR transform (`mllr`), a
    folder an adapted copy of the model (`hmm`); None: the wheel's model as it is."""
    if adaptation is None:
        return {}
    if adaptation.is_dir():
        return {"hmm": str(adaptation)}
    return {"mllr": str(adaptation)}


class PocketsphinxRecognizer:
    def __init__(self, commands: CommandSet, *, agreement: float = AGREEMENT,
                 thresholds: Mapping[str, float] | None = None,
                 vocabulary: int = VOCABULARY, end_window: float = END_WINDOW,
                 full_utterance: bool = True, trim_db: float | None = TRIM_DB,
                 loud_end: bool = LOUD_END, early_end: float | None = EARLY_END,
                 free_config: Mapping[str, Any] | None = None, run_on_db: float | None = RUN_ON_DB,
                 early_exact: bool = EARLY_EXACT,
                 early_quiet_db: float | None = EARLY_QUIET_DB,
                 decode_ahead: float | None = DECODE_AHEAD,
                 ahead_end: bool = AHEAD_END, end_pad: float = TRIM_END_PAD,
                 ahead_start: float = AHEAD_START,
                 skip_needless_grammar: bool = True,
                 ahead_settled_db: float | None = AHEAD_SETTLED_DB,
                 ahead_longest: float | None = AHEAD_LONGEST,
                 adaptation: Path | None = None) -> None:
        ps = _pocketsphinx()
        # The acoustic model's adaptation (narrator.voice.adaptation), the same in every
        # decoder: an MLLR transform file, or a folder with an adapted model.
        acoustic = acoustic_config(adaptation)
        self.commands = commands
        self.agreement = agreement
        # Per command: how close the free transcript must sound (scripts/tune-listen).
        if thresholds is None:
            thresholds = THRESHOLDS if adaptation is None else ADAPTED_THRESHOLDS
        self.thresholds = dict(thresholds)
        self.end_window = end_window
        self.full_utterance = full_utterance
        self.trim_db = trim_db
        self.end_pad = end_pad
        self.ahead_start = ahead_start
        self.ahead_settled_db = ahead_settled_db
        self.ahead_longest = ahead_longest
        self.loud_end = loud_end
        self.early_end = early_end if full_utterance else None
        self.run_on_db = run_on_db
        self.early_exact = early_exact
        self.early_quiet_db = early_quiet_db
        self.ahead_end = ahead_end
        self.decode_ahead = decode_ahead if full_utterance and trim_db is not None else None
        # The last audio decoded whole: (trimmed audio, the grammar's transcript if it was
        # asked, the free decoder's), so what was decoded ahead is not decoded again.
        self._ahead: tuple[bytes, str | None, str] | None = None
        self._judged: bytes | None = None  # the trimmed audio the decode ahead ended on or not
        self.ahead_used = 0  # utterances whose decode was done ahead (bench, tests)
        self.decodes = 0  # whole-utterance decodes run, by either decoder (tests)
        # The grammar is not asked at an utterance's end when no transcript of its could
        # change the outcome (`_grammar_can_matter`); then `last` has "" for it.
        self.skip_needless_grammar = skip_needless_grammar
        self.grammar_skipped = 0
        self._sentences: tuple[list[str], PhoneSequences] | None = None
        self._run_on_under: float | None = None  # the level a run-on must reach (dB)
        self._peak = self._quiet = self._power = 0.0
        self._cut_at: float | None = None
        self._speech = bytearray()
        # Levels of the utterance (`_speech`) and of it heard to the present (`_so_far()`),
        # kept as they grow: asked about after every chunk.
        self._speech_levels = SpeechLevels()
        self._so_far_levels = SpeechLevels()
        self._grammar = ps.Decoder(lm=None, loglevel="FATAL", **acoustic)
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
            self._free = ps.Decoder(lm=str(arpa), loglevel="FATAL", **acoustic,
                                    **(FREE_CONFIG if free_config is None else free_config))
        self._watch: Any = None
        self._tried: tuple[str, int] | None = None
        if self.early_end is not None:
            # Live CMN: it hears each frame as it comes; it only says when a command is
            # over, the two decoders above still hear the whole utterance.
            self._watch = ps.Decoder(lm=None, loglevel="FATAL", cmn="live", **acoustic)
            self._watch.add_jsgf_string("commands", jsgf(commands))
            self._watch.activate_search("commands")
        self._phones: dict[str, list[str]] = {}
        self._words = commands.vocabulary()
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
        # The endpointer gives speech back a window late; the frames it holds are kept
        # here too (`_fed`, the last second of frames given to it), so an utterance can be
        # heard to the present (`_so_far`). Counted from this endpointer's start:
        self._fed = bytearray()
        self._fed_bytes = 0  # given to it
        self._segment: tuple[float, int] = (-1.0, 0)  # speech segment start (s), bytes back

    def accept(self, chunk: bytes) -> list[Command]:
        self._time += seconds_of(chunk)
        self._buffer += chunk
        size = self._endpointer.frame_bytes
        out: list[Command] = []
        while len(self._buffer) >= size:
            frame = bytes(self._buffer[:size])
            del self._buffer[:size]
            self._fed += frame
            del self._fed[: max(0, len(self._fed) - BYTES_PER_SECOND)]
            self._fed_bytes += len(frame)
            command = self._frame(self._endpointer.process(frame))
            if command is not None:
                out.append(command)
        if self._in_utterance and self.decode_ahead is not None:
            command = self._decode_ahead()
            if command is not None:
                out.append(command)
        return out

    def _decode_ahead(self) -> Command | None:
        """Decode the utterance so far when its loud stretch looks over (see DECODE_AHEAD);
        with `ahead_end`, a command both decoders heard word for word ends it there."""
        assert self.decode_ahead is not None
        speech = self._so_far()
        if len(speech) < BYTES_PER_SECOND * SHORTEST_TRIM:
            return None  # too short to trim: no loud stretch is over yet
        first, last = loud_bounds(speech, self.trim_db, end_pad=self.end_pad,
                                  tracked=self._so_far_levels)
        quiet = (len(speech) // 2 - last) / SAMPLE_RATE
        if quiet < min(self.ahead_start, self.decode_ahead):
            return None
        trimmed = speech[2 * first : 2 * last]
        if self._judged == trimmed or not self._loud_enough():
            return None
        if self._ahead is None or self._ahead[0] != trimmed:
            if quiet < self.decode_ahead and self._sound_coming_back():
                return None
            if self.ahead_longest is not None and \
                    len(trimmed) > self.ahead_longest * BYTES_PER_SECOND:
                return None
            # The grammar is asked only when the free decoder heard a command (half the
            # CPU of a decode ahead that more audio will make void); the end asks it if
            # still needed.
            self._decode_trimmed(trimmed, free_first=self.ahead_end)
        if quiet < self.decode_ahead:
            # Decoded, not judged yet: a pause inside talk is as long as the pad ("let me
            # finish | my thought" heard as "repeat"); the CPU is spent meanwhile.
            return None
        self._judged = trimmed
        assert self._ahead is not None
        texts = (self._ahead[1] or "", self._ahead[2])
        if not self.ahead_end or self._inexact(texts):
            return None
        command = self._decide(*texts)
        if command is None:
            return None
        # What runs on after it (babble, the table's talk) is background unless as loud.
        if self.run_on_db is not None:
            self._run_on_under = peak_level(speech, self._so_far_levels) - self.run_on_db
        self._cut_at = self._time
        self._in_utterance = False
        if self._watch is not None:
            self._watch.end_utt()
        self._clear_speech()
        assert self.last is not None
        self.heard.append(self.last)
        return command

    def _sound_coming_back(self) -> bool:
        """Whether the last 30 ms are near the loud stretch's floor (AHEAD_SETTLED_DB)."""
        if self.ahead_settled_db is None or self.trim_db is None:
            return False
        floor = self._so_far_levels.peak - self.trim_db
        return self._so_far_levels.recent(3) > floor - self.ahead_settled_db

    def skip(self, chunk: bytes) -> None:
        self._time += seconds_of(chunk)
        if self._in_utterance:
            self._end_streams()
        self._in_utterance = False
        self._clear_speech()
        self._ahead = None
        self._judged = None
        self._cut_at = None
        self._run_on_under = None
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
        self._run_on_under = None
        self._cut_at = None
        self._new_endpointer(self._time)
        return out

    def _clear_speech(self) -> None:
        self._speech.clear()
        self._speech_levels.reset()
        self._so_far_levels.reset()

    def _so_far(self) -> bytes:
        """The utterance's speech, and after it the frames the endpointer still holds."""
        start, given = self._segment
        held = self._fed_bytes - (round(start * BYTES_PER_SECOND) + given)
        held -= held % 2
        if start < 0 or held <= 0:
            return bytes(self._speech)
        return bytes(self._speech) + bytes(self._fed[-held:])

    def _frame(self, speech: bytes | None) -> Command | None:
        if speech is not None:
            start = self._endpointer.speech_start
            given = self._segment[1] if self._segment[0] == start else 0
            self._segment = (start, given + len(speech))
            if not self._in_utterance:
                self._in_utterance = True
                self._start = self._offset + self._endpointer.speech_start
                if self._cut_at is not None:  # talk ran on after a loud stretch ended
                    self._start = self._cut_at
                if not self.full_utterance:
                    self._grammar.start_utt()
                    self._free.start_utt()
                if self._watch is not None:
                    self._watch.start_utt()
                    self._tried = None
                self._clear_speech()
                self._ahead = None
                self._judged = None
                self._peak = self._quiet = self._power = 0.0
            if self.full_utterance:
                self._speech += speech
                if speech and self.loud_end and self._loud_stretch_over(speech):
                    self._cut_at = self._time
                    return self._finish()
                if speech and self._watch is not None and self._command_over(speech):
                    # Heard whole so far: a command ends the utterance here; anything
                    # else (talk that paused on a command's words) goes on.
                    texts = self._decode(bytes(self._speech), free_first=self.early_exact)
                    command = self._decide(*texts)
                    if command is not None and self.early_exact and self._inexact(texts):
                        command = None
                    if command is not None and not self._loud_enough():
                        command = None
                    if command is not None:
                        if self.run_on_db is not None:
                            self._run_on_under = peak_level(
                                bytes(self._speech), self._speech_levels) - self.run_on_db
                        self._cut_at = self._time
                        self._in_utterance = False
                        self._watch.end_utt()
                        self._clear_speech()
                        assert self.last is not None
                        self.heard.append(self.last)
                        return command
            elif speech:  # process_raw() indexes its argument: never give it nothing
                self._grammar.process_raw(speech)
                self._free.process_raw(speech)
        if self._in_utterance and not self._endpointer.in_speech:
            self._cut_at = None
            command = self._finish()
            self._run_on_under = None
            return command
        return None

    def _inexact(self, texts: tuple[str, str]) -> bool:
        """Whether the two decoders heard other commands (or none), word for word."""
        forced, free = (self.commands.parse(t) for t in texts)
        return forced is None or forced != free

    def _loud_enough(self) -> bool:
        """Whether the utterance is no run-on, or a run-on as loud as the command before it."""
        return self._run_on_under is None or \
            peak_level(self._speech, self._speech_levels) >= self._run_on_under

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

    def _command_over(self, frame: bytes) -> bool:
        """Whether the streaming grammar decoder's best path is a whole command whose last
        word ended at least `early_end` seconds of audio ago (silence or filler since)."""
        assert self.early_end is not None
        self._watch.process_raw(frame)
        hyp = self._watch.hyp()
        if hyp is None or self.commands.parse(hyp.hypstr) is None:
            return False
        words = [s for s in self._watch.seg() if s.word in self._words]
        if not words:
            return False
        end = words[-1].end_frame
        if self._watch.n_frames() - end < self.early_end * 100 or \
                self._tried == (hyp.hypstr, end):
            return False
        if self.early_quiet_db is not None:
            # The last `early_end` seconds (10 ms frames, as the decoder's; not before the
            # word's end and half the smoothing): a reverberation tail has time to fade.
            self._speech_levels.update(self._speech)
            levels = self._speech_levels.levels()
            after = levels[max(end + 5, len(levels) - round(self.early_end * 100)):]
            if not len(after) or after.max() > levels.max() - self.early_quiet_db:
                return False
        self._tried = (hyp.hypstr, end)  # each running hypothesis is decoded once
        return True

    def _end_streams(self) -> None:
        if not self.full_utterance:
            self._grammar.end_utt()
            self._free.end_utt()
        if self._watch is not None:
            self._watch.end_utt()

    def _decode(self, speech: bytes, free_first: bool = False,
                decide_only: bool = False) -> tuple[str, str]:
        """The grammar's and the free decoder's transcripts of a whole utterance (its
        loud stretch), each decoded in one go: batch CMN over this utterance alone.
        `free_first`: only a command word for word from the free decoder will do, so the
        grammar is not asked when it has none ("" for the grammar's transcript).
        `decide_only`: the transcripts go to decide() alone, so the grammar is not asked
        when nothing it could say would change decide()'s answer ("" for it)."""
        return self._decode_trimmed(loudest_part(speech, self.trim_db, end_pad=self.end_pad),
                                    free_first, decide_only)

    def _decode_trimmed(self, speech: bytes, free_first: bool = False,
                        decide_only: bool = False) -> tuple[str, str]:
        ahead = self._ahead if self._ahead is not None and self._ahead[0] == speech else None
        if ahead is not None:
            self.ahead_used += 1
            free = ahead[2]
        else:
            free = self._transcript(self._free, speech)
        if free_first and self.commands.parse(free) is None:
            self._ahead = (speech, None, free)
            return "", free
        if decide_only and (ahead is None or ahead[1] is None) and \
                self.skip_needless_grammar and not self._grammar_can_matter(free):
            self.grammar_skipped += 1
            self._ahead = (speech, None, free)
            return "", free
        forced = ahead[1] if ahead is not None and ahead[1] is not None else \
            self._transcript(self._grammar, speech)
        self._ahead = (speech, forced, free)
        return forced, free

    def _grammar_can_matter(self, free: str) -> bool:
        """Whether the grammar's transcript could change what `decide` makes of this
        utterance, given the free decoder's: the grammar gives one of its sentences, or
        no command at all (no path; a path cut short), which decide() treats as "" (it
        parses the transcript, and a transcript that is no command counts as none, whatever
        it sounds like). Each sentence is tried with the exact score it would get; when all
        come out as "" does, the grammar's decode (half the CPU of a talk utterance's end)
        cannot matter. A decide() that read the grammar's transcript otherwise would need
        this looked at again (tests/listen/test_grammar_skip.py checks it on real speech)."""
        if self._sentences is None:
            sentences = sorted(self.commands.sentences)
            self._sentences = (sentences,
                               PhoneSequences([self._sounds(s) for s in sentences]))
        sentences, sounds = self._sentences
        free_sounds = self._sounds(free)
        without = decide(self.commands, "", free, similarity([], free_sounds), self.thresholds,
                         self.agreement, self._start)
        for sentence, score in zip(sentences, sounds.similarities(free_sounds), strict=True):
            if decide(self.commands, sentence, free, score, self.thresholds, self.agreement,
                      self._start) != without:
                return True
        return False

    def _transcript(self, decoder: Any, speech: bytes) -> str:
        self.decodes += 1
        decoder.start_utt()
        if speech:
            decoder.process_raw(speech, full_utt=True)
        decoder.end_utt()
        hyp = decoder.hyp()
        return hyp.hypstr if hyp is not None else ""

    def _finish(self) -> Command | None:
        self._in_utterance = False
        if self.full_utterance:
            if self._watch is not None:
                self._watch.end_utt()
            # Heard to the present: the trim cuts what is quiet after the speech, and the
            # audio is the same as the decode ahead's when nothing loud came since.
            if self._run_on_under is not None and not self._loud_enough():
                # Background after a command that ended early: not worth a decode.
                command = None
                self.last = ("", "", 0.0)  # nothing to tune on
            else:
                # After a command that ended ahead, the grammar's transcript is also
                # looked at on its own (_inexact): then it is always asked.
                texts = self._decode(self._so_far() if self.decode_ahead is not None
                                     else bytes(self._speech),
                                     decide_only=self._run_on_under is None)
                command = self._decide(*texts)
                if self._run_on_under is not None and self._inexact(texts):
                    command = None
                    self.last = ("", "", 0.0)  # background: nothing to tune on
            self._clear_speech()
        else:
            self._end_streams()
            forced = self._grammar.hyp()
            free = self._free.hyp()
            command = self._decide(forced.hypstr if forced is not None else "",
                                   free.hypstr if free is not None else "")
        assert self.last is not None
        self.heard.append(self.last)
        return command

    def _decide(self, forced_text: str, free_text: str) -> Command | None:
        """The command an utterance is, from its two transcripts (None: none, or talk)."""
        score = similarity(self._sounds(forced_text), self._sounds(free_text))
        self.last = (forced_text, free_text, score)
        return decide(self.commands, forced_text, free_text, score, self.thresholds,
                      self.agreement, self._start)

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
