"""The pocketsphinx decoders of the command listener (narrator.voice.recognizer_pocketsphinx
cuts the utterances they hear): the command grammar, the free decoder over the commands
and the commonest English words, how alike their transcripts sound, and the rule that
makes a command of the two (`decide`). `Watch` is the third, streaming grammar decoder of
the early end (off by default).
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

from narrator.errors import ConfigError
from narrator.voice.commands import Command, CommandSet
from narrator.voice.phone_distance import PhoneSequences
from narrator.voice.pocketsphinx_settings import (
    AGREEMENT,
    COMMAND_BIGRAM_MASS,
    COMMAND_UNIGRAM_MASS,
    VOCABULARY,
    PocketsphinxSettings,
)
from narrator.voice.speech_levels import SpeechLevels, levels

Texts = tuple[str, str]  # the grammar's transcript, the free decoder's


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


def inserted(command: list[str], heard: list[str]) -> list[int]:
    """The indices of `heard`'s words that a word-by-word alignment to `command` (edit
    distance, substitutions as cheap as an insertion and a deletion can make them) leaves
    over: the words said besides the command's."""
    n, m = len(command), len(heard)
    cost = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        for j in range(m + 1):
            if i == 0 or j == 0:
                cost[i][j] = i + j
            else:
                cost[i][j] = min(cost[i - 1][j] + 1, cost[i][j - 1] + 1,
                                 cost[i - 1][j - 1] + (command[i - 1] != heard[j - 1]))
    out: list[int] = []
    i, j = n, m
    while j > 0:
        if i > 0 and cost[i][j] == cost[i - 1][j - 1] + (command[i - 1] != heard[j - 1]):
            i, j = i - 1, j - 1
        elif cost[i][j] == cost[i][j - 1] + 1:
            out.append(j - 1)
            j -= 1
        else:
            i -= 1
    return out[::-1]


def acoustic_config(adaptation: Path | None) -> dict[str, str]:
    """pocketsphinx settings for an adaptation: a file is an MLLR transform (`mllr`), a
    folder an adapted copy of the model (`hmm`); None: the wheel's model as it is."""
    if adaptation is None:
        return {}
    if adaptation.is_dir():
        return {"hmm": str(adaptation)}
    return {"mllr": str(adaptation)}


class Decoders:
    """The grammar and the free decoder over one acoustic model, each utterance decoded
    whole in one go (batch CMN over that utterance alone), and what they heard last."""

    def __init__(self, commands: CommandSet, settings: PocketsphinxSettings,
                 thresholds: Mapping[str, float], acoustic: Mapping[str, str]) -> None:
        ps = _pocketsphinx()
        self.commands = commands
        self.settings = settings
        # Per command: how close the free transcript must sound (scripts/tune-listen).
        self.thresholds = dict(thresholds)
        self.grammar: Any = ps.Decoder(lm=None, loglevel="FATAL", **acoustic)
        missing = [w for w in sorted(commands.vocabulary())
                   if self.grammar.lookup_word(w) is None]
        if missing:
            raise ConfigError(commands.source, "commands",
                              f"not in the pocketsphinx dictionary: {', '.join(missing)}")
        self.grammar.add_jsgf_string("commands", jsgf(commands))
        self.grammar.activate_search("commands")
        with tempfile.TemporaryDirectory() as tmp:
            arpa = Path(tmp) / "free.arpa"
            arpa.write_text(free_language_model(commands, settings.vocabulary), encoding="utf-8")
            self.free: Any = ps.Decoder(lm=str(arpa), loglevel="FATAL", **acoustic,
                                        **settings.free_config)
        # The last audio decoded whole: (trimmed audio, the grammar's transcript if it was
        # asked, the free decoder's), so what was decoded ahead is not decoded again.
        self.ahead: tuple[bytes, str | None, str] | None = None
        self.ahead_used = 0  # utterances whose decode was done ahead (bench, tests)
        self.decodes = 0  # whole-utterance decodes run, by either decoder (tests)
        # The grammar is not asked at an utterance's end when no transcript of its could
        # change the outcome (`_grammar_can_matter`); then `last` has "" for it.
        self.grammar_skipped = 0
        self._sentences: tuple[list[str], PhoneSequences] | None = None
        self._phones: dict[str, list[str]] = {}
        # The last utterance's transcripts and score, for diagnostics and the bench.
        self.last: tuple[str, str, float] | None = None
        # The audio the free decoder heard last, and its words with the 10 ms frames each spans.
        self.free_words: tuple[bytes, list[tuple[str, int, int]]] = (b"", [])

    def decode(self, speech: bytes, at: float, free_first: bool = False,
               decide_only: bool = False) -> Texts:
        """The grammar's and the free decoder's transcripts of an utterance's trimmed audio.
        `free_first`: only a command word for word from the free decoder will do, so the
        grammar is not asked when it has none ("" for the grammar's transcript).
        `decide_only`: the transcripts go to decide() alone, so the grammar is not asked
        when nothing it could say would change decide()'s answer ("" for it)."""
        ahead = self.ahead if self.ahead is not None and self.ahead[0] == speech else None
        if ahead is not None:
            self.ahead_used += 1
            free = ahead[2]
        else:
            free = self.transcript(self.free, speech)
        if free_first and self.commands.parse(free) is None:
            self.ahead = (speech, None, free)
            return "", free
        if decide_only and (ahead is None or ahead[1] is None) and \
                self.settings.skip_needless_grammar and not self._grammar_can_matter(free, at):
            self.grammar_skipped += 1
            self.ahead = (speech, None, free)
            return "", free
        forced = ahead[1] if ahead is not None and ahead[1] is not None else \
            self.transcript(self.grammar, speech)
        self.ahead = (speech, forced, free)
        return forced, free

    def _grammar_can_matter(self, free: str, at: float) -> bool:
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
                               PhoneSequences([self.sounds(s) for s in sentences]))
        sentences, sounds = self._sentences
        free_sounds = self.sounds(free)
        agreement = self.settings.agreement
        without = decide(self.commands, "", free, similarity([], free_sounds), self.thresholds,
                         agreement, at)
        for sentence, score in zip(sentences, sounds.similarities(free_sounds), strict=True):
            if decide(self.commands, sentence, free, score, self.thresholds, agreement,
                      at) != without:
                return True
        return False

    def transcript(self, decoder: Any, speech: bytes) -> str:
        self.decodes += 1
        decoder.start_utt()
        if speech:
            decoder.process_raw(speech, full_utt=True)
        decoder.end_utt()
        hyp = decoder.hyp()
        if decoder is self.free:
            self.free_words = (speech, [(s.word, s.start_frame, s.end_frame) for s in decoder.seg()
                                        if s.word[:1] not in ("<", "[", "+")] if hyp else [])
        return hyp.hypstr if hyp is not None else ""

    def whole(self, speech: bytes, forced: str) -> bool:
        """Whether `speech` (as the free decoder last heard it) is the grammar's command
        `forced` said whole: no loud words of the free transcript over the command's
        (WHOLE_DB), which would be the command's words inside longer talk."""
        s = self.settings
        heard, words = self.free_words
        if s.whole_db is None or heard != speech or not speech or not words:
            return True
        level = levels(speech)
        floor = level.max() - s.whole_db
        loud = 0
        for i in inserted(forced.split(), [w for w, _, _ in words]):
            _, start, end = words[i]
            if len(level[start : end + 1]) and level[start : end + 1].max() >= floor:
                loud += end + 1 - start
        return loud <= round(s.whole_outside * 100)

    def decide(self, forced_text: str, free_text: str, at: float) -> Command | None:
        """The command an utterance is, from its two transcripts (None: none, or talk)."""
        score = similarity(self.sounds(forced_text), self.sounds(free_text))
        self.last = (forced_text, free_text, score)
        return decide(self.commands, forced_text, free_text, score, self.thresholds,
                      self.settings.agreement, at)

    def inexact(self, texts: Texts) -> bool:
        """Whether the two decoders heard other commands (or none), word for word."""
        forced, free = (self.commands.parse(t) for t in texts)
        return forced is None or forced != free

    def sounds(self, text: str) -> list[str]:
        out: list[str] = []
        for word in text.split():
            phones = self._phones.get(word)
            if phones is None:
                found = self.grammar.lookup_word(word)
                phones = found.split() if found else [word]
                self._phones[word] = phones
            out += phones
        return out


class Watch:
    """The early end's streaming grammar decoder: it hears each frame as it comes (live
    CMN) and only says when a command is over; the two decoders above still hear the
    whole utterance."""

    def __init__(self, commands: CommandSet, settings: PocketsphinxSettings,
                 acoustic: Mapping[str, str]) -> None:
        assert settings.early_end is not None
        self.early_end = settings.early_end
        self.quiet_db = settings.early_quiet_db
        self.commands = commands
        self._words = commands.vocabulary()
        self._decoder: Any = _pocketsphinx().Decoder(lm=None, loglevel="FATAL", cmn="live",
                                                     **acoustic)
        self._decoder.add_jsgf_string("commands", jsgf(commands))
        self._decoder.activate_search("commands")
        self._tried: tuple[str, int] | None = None

    def start_utt(self) -> None:
        self._decoder.start_utt()
        self._tried = None

    def end_utt(self) -> None:
        self._decoder.end_utt()

    def command_over(self, frame: bytes, speech: bytearray, tracked: SpeechLevels) -> bool:
        """Whether the best path is a whole command whose last word ended at least
        `early_end` seconds of audio ago (silence or filler since); `speech`: the utterance
        so far, `tracked` its levels."""
        self._decoder.process_raw(frame)
        hyp = self._decoder.hyp()
        if hyp is None or self.commands.parse(hyp.hypstr) is None:
            return False
        words = [s for s in self._decoder.seg() if s.word in self._words]
        if not words:
            return False
        end = words[-1].end_frame
        if self._decoder.n_frames() - end < self.early_end * 100 or \
                self._tried == (hyp.hypstr, end):
            return False
        if self.quiet_db is not None:
            # The last `early_end` seconds (10 ms frames, as the decoder's; not before the
            # word's end and half the smoothing): a reverberation tail has time to fade.
            tracked.update(speech)
            levels = tracked.levels()
            after = levels[max(end + 5, len(levels) - round(self.early_end * 100)):]
            if not len(after) or after.max() > levels.max() - self.quiet_db:
                return False
        self._tried = (hyp.hypstr, end)  # each running hypothesis is decoded once
        return True
