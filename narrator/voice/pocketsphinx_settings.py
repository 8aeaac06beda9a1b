"""The pocketsphinx listener's settings: every figure it is tuned by, and one typed value
(`PocketsphinxSettings`) that carries them into a recognizer, so a bench line or a tuning
run names only what it changes (`PocketsphinxSettings(early_end=0.2)`).

Each constant says what it is and what the bench measured when it was chosen
(BENCHMARKS.md, "Listen"); the dataclass's fields default to them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from narrator.voice.commands import COMMANDS

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
# on the tuning part, one talk clip taken; kept at TRIM_PAD. Issue 35 tried 0.1 again with
# a longer wait below, against commas in talk: en-us's "next speaker" was then decoded
# ahead at the quiet "s" between its words and heard as "no", tests/listen: kept at 0.15).
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
# A comma's pause in talk ("yes, that is my point") is 0.1-0.35 s, so a command followed by
# more talk can end here; waiting longer costs latency (issue 35, BENCHMARKS.md: the end
# pad 0.1 and 0.15 here, 0.25 s of quiet in all, took 4 -> 3 of 90 tuning talk clips but
# broke "next speaker", above).
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
# A command is a whole utterance: its words inside a longer sentence are talk. The grammar
# hears "next speaker" in "the next speaker will tell you the same thing", and the free
# decoder's "next speaker will value to same game" sounds enough like it to pass an
# agreement threshold. So the free transcript is aligned to the grammar's word by word:
# words it has over the command's (insertions), as loud as the utterance's loudest part
# within WHOLE_DB and WHOLE_OUTSIDE seconds long in all, are the same voice talking on, and
# the utterance is talk. Babble heard as extra words is quieter than the voice at the
# microphone (None: not checked).
WHOLE_DB: float | None = 6.0
WHOLE_OUTSIDE = 0.15
# ... and a command people also open sentences with is held after it is heard
# (narrator.voice.opener_hold): "yes, that is exactly my point" pauses at its comma about
# as long as the decode ahead waits, so "yes" alone looked whole. Held OPENER_WAIT more
# seconds, it is talk when sound within OPENER_DB of its own peak comes meanwhile. Tuning
# part (40 opener commands, 18 talk lines that open with one; issue 35): wait 0 took 2 of
# the talk, 0.15, 0.2, 0.25 and 0.35 one ("thank you all", heard "new game"), the openers'
# p50 329, 383, 437, 497, 587 ms; 0.15 let en-us's "yes, that is exactly my point" through
# (tests/listen), so 0.2. Held back: 0.2 and 0.25 took 1 of 26, 0 took 2; p50 449 vs 509.
OPENERS: frozenset[str] = frozenset({"yes", "no", "thank you", "да", "нет", "спасибо"})
OPENER_WAIT = 0.2
OPENER_DB = 6.0
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


@dataclass(frozen=True, slots=True)
class PocketsphinxSettings:
    """How a PocketsphinxRecognizer cuts and decodes utterances (the constants above say
    what each one does). Settings that need another to work are off without it: an early
    end and the decode ahead need whole-utterance decoding, the decode ahead the trim."""

    agreement: float = AGREEMENT
    vocabulary: int = VOCABULARY
    end_window: float = END_WINDOW
    full_utterance: bool = True
    trim_db: float | None = TRIM_DB
    end_pad: float = TRIM_END_PAD
    loud_end: bool = LOUD_END
    early_end: float | None = EARLY_END
    early_exact: bool = EARLY_EXACT
    early_quiet_db: float | None = EARLY_QUIET_DB
    run_on_db: float | None = RUN_ON_DB
    decode_ahead: float | None = DECODE_AHEAD
    ahead_start: float = AHEAD_START
    ahead_settled_db: float | None = AHEAD_SETTLED_DB
    ahead_longest: float | None = AHEAD_LONGEST
    ahead_end: bool = AHEAD_END
    skip_needless_grammar: bool = True
    whole_db: float | None = WHOLE_DB
    whole_outside: float = WHOLE_OUTSIDE
    openers: frozenset[str] = OPENERS
    opener_wait: float = OPENER_WAIT
    opener_db: float = OPENER_DB
    free_config: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType(FREE_CONFIG))

    def __post_init__(self) -> None:
        if not self.full_utterance:
            object.__setattr__(self, "early_end", None)
        if not self.full_utterance or self.trim_db is None:
            object.__setattr__(self, "decode_ahead", None)
