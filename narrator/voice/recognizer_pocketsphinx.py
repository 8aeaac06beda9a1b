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

import math
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from narrator.voice.commands import Command, CommandSet
from narrator.voice.opener_hold import OpenerHold
from narrator.voice.pocketsphinx_decoder import (
    Decoders,
    Texts,
    Watch,
    _pocketsphinx,
    acoustic_config,
)
from narrator.voice.pocketsphinx_settings import (
    ADAPTED_THRESHOLDS,
    LOUD_SMOOTHING,
    SHORTEST_TRIM,
    THRESHOLDS,
    PocketsphinxSettings,
)
from narrator.voice.recognizer import BYTES_PER_SECOND, SAMPLE_RATE, seconds_of
from narrator.voice.speech_levels import SpeechLevels, loud_bounds, loudest_part, peak_level

DEFAULT_SETTINGS = PocketsphinxSettings()


class PocketsphinxRecognizer:
    """The Recognizer port over pocketsphinx: cuts the stream into utterances and asks the
    decoders (narrator.voice.pocketsphinx_decoder) what each one is."""

    def __init__(self, commands: CommandSet, settings: PocketsphinxSettings = DEFAULT_SETTINGS,
                 *, thresholds: Mapping[str, float] | None = None,
                 adaptation: Path | None = None) -> None:
        # The acoustic model's adaptation (narrator.voice.adaptation), the same in every
        # decoder: an MLLR transform file, or a folder with an adapted model.
        acoustic = acoustic_config(adaptation)
        self.commands = commands
        self.settings = settings
        if thresholds is None:
            thresholds = THRESHOLDS if adaptation is None else ADAPTED_THRESHOLDS
        self.decoders = Decoders(commands, settings, thresholds, acoustic)
        self._watch = Watch(commands, settings, acoustic) if settings.early_end is not None \
            else None
        self._judged: bytes | None = None  # the trimmed audio the decode ahead ended on or not
        self._run_on_under: float | None = None  # the level a run-on must reach (dB)
        self._peak = self._quiet = self._power = 0.0  # the loud end's smoothed loudness
        self._cut_at: float | None = None
        self._speech = bytearray()
        # Levels of the utterance (`_speech`) and of it heard to the present (`_so_far()`),
        # kept as they grow: asked about after every chunk.
        self._speech_levels = SpeechLevels()
        self._so_far_levels = SpeechLevels()
        self._buffer = bytearray()
        self._time = 0.0  # seconds of audio seen (heard or skipped)
        self._new_endpointer(0.0)
        self.heard: list[tuple[str, str, float]] = []  # every utterance's, for tuning
        self.whole_refused = 0  # commands refused as words inside longer talk (bench)
        self.hold = OpenerHold(settings.openers, settings.opener_wait, settings.opener_db)

    @property
    def thresholds(self) -> dict[str, float]:
        return self.decoders.thresholds

    @property
    def last(self) -> tuple[str, str, float] | None:
        """The last utterance's transcripts and how alike they sounded."""
        return self.decoders.last

    @property
    def decodes(self) -> int:
        return self.decoders.decodes

    @property
    def ahead_used(self) -> int:
        return self.decoders.ahead_used

    @property
    def grammar_skipped(self) -> int:
        return self.decoders.grammar_skipped

    def _new_endpointer(self, offset: float) -> None:
        self._endpointer = _pocketsphinx().Endpointer(window=self.settings.end_window,
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
        out = self.hold.hear(chunk, self._time)
        self._buffer += chunk
        size = self._endpointer.frame_bytes
        while len(self._buffer) >= size:
            frame = bytes(self._buffer[:size])
            del self._buffer[:size]
            self._fed += frame
            del self._fed[: max(0, len(self._fed) - BYTES_PER_SECOND)]
            self._fed_bytes += len(frame)
            command = self._frame(self._endpointer.process(frame))
            if command is not None:
                out.append(command)
        if self._in_utterance and self.settings.decode_ahead is not None:
            command = self._decode_ahead()
            if command is not None:
                out.append(command)
        return out

    def _decode_ahead(self) -> Command | None:
        """Decode the utterance so far when its loud stretch looks over (see DECODE_AHEAD);
        with `ahead_end`, a command both decoders heard word for word ends it there."""
        s = self.settings
        assert s.decode_ahead is not None
        speech = self._so_far()
        if len(speech) < BYTES_PER_SECOND * SHORTEST_TRIM:
            return None  # too short to trim: no loud stretch is over yet
        first, last = loud_bounds(speech, s.trim_db, end_pad=s.end_pad,
                                  tracked=self._so_far_levels)
        quiet = (len(speech) // 2 - last) / SAMPLE_RATE
        if quiet < min(s.ahead_start, s.decode_ahead):
            return None
        trimmed = speech[2 * first : 2 * last]
        if self._judged == trimmed or not self._loud_enough():
            return None
        ahead = self.decoders.ahead
        if ahead is None or ahead[0] != trimmed:
            if quiet < s.decode_ahead and self._sound_coming_back():
                return None
            if s.ahead_longest is not None and \
                    len(trimmed) > s.ahead_longest * BYTES_PER_SECOND:
                return None
            # The grammar is asked only when the free decoder heard a command (half the
            # CPU of a decode ahead that more audio will make void); the end asks it if
            # still needed.
            self.decoders.decode(trimmed, self._start, free_first=s.ahead_end)
        if quiet < s.decode_ahead:
            # Decoded, not judged yet: a pause inside talk is as long as the pad ("let me
            # finish | my thought" heard as "repeat"); the CPU is spent meanwhile.
            return None
        self._judged = trimmed
        ahead = self.decoders.ahead
        assert ahead is not None
        texts = (ahead[1] or "", ahead[2])
        if not s.ahead_end or self.decoders.inexact(texts):
            return None
        command = self._decide(texts)
        if command is None:
            return None
        # What runs on after it (babble, the table's talk) is background unless as loud.
        if s.run_on_db is not None:
            self._run_on_under = peak_level(speech, self._so_far_levels) - s.run_on_db
        self._cut_at = self._time
        self._in_utterance = False
        if self._watch is not None:
            self._watch.end_utt()
        self._clear_speech()
        return self._heard(command)

    def _sound_coming_back(self) -> bool:
        """Whether the last 30 ms are near the loud stretch's floor (AHEAD_SETTLED_DB)."""
        s = self.settings
        if s.ahead_settled_db is None or s.trim_db is None:
            return False
        floor = self._so_far_levels.peak - s.trim_db
        return self._so_far_levels.recent(3) > floor - s.ahead_settled_db

    def skip(self, chunk: bytes) -> None:
        self._time += seconds_of(chunk)
        self.hold.cut()
        if self._in_utterance:
            self._end_streams()
        self._in_utterance = False
        self._clear_speech()
        self.decoders.ahead = None
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
        return self.hold.release() + out

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
                self._begin()
            if self.settings.full_utterance:
                self._speech += speech
                if speech and self.settings.loud_end and self._loud_stretch_over(speech):
                    self._cut_at = self._time
                    return self._finish()
                if speech and self._watch is not None and \
                        self._watch.command_over(speech, self._speech, self._speech_levels):
                    command = self._early_end()
                    if command is not None:
                        return command
            elif speech:  # process_raw() indexes its argument: never give it nothing
                self.decoders.grammar.process_raw(speech)
                self.decoders.free.process_raw(speech)
        if self._in_utterance and not self._endpointer.in_speech:
            self._cut_at = None
            command = self._finish()
            self._run_on_under = None
            return command
        return None

    def _begin(self) -> None:
        """The endpointer heard speech begin: a new utterance."""
        self._in_utterance = True
        self._start = self._offset + self._endpointer.speech_start
        if self._cut_at is not None:  # talk ran on after a loud stretch ended
            self._start = self._cut_at
        if not self.settings.full_utterance:
            self.decoders.grammar.start_utt()
            self.decoders.free.start_utt()
        if self._watch is not None:
            self._watch.start_utt()
        self._clear_speech()
        self.decoders.ahead = None
        self._judged = None
        self._peak = self._quiet = self._power = 0.0

    def _early_end(self) -> Command | None:
        """The watch says a command is over: heard whole so far, a command ends the
        utterance here; anything else (talk that paused on a command's words) goes on."""
        s = self.settings
        assert self._watch is not None
        texts = self._decode(bytes(self._speech), free_first=s.early_exact)
        command = self._decide(texts)
        if command is not None and s.early_exact and self.decoders.inexact(texts):
            command = None
        if command is not None and not self._loud_enough():
            command = None
        if command is None:
            return None
        if s.run_on_db is not None:
            self._run_on_under = peak_level(bytes(self._speech), self._speech_levels) - s.run_on_db
        self._cut_at = self._time
        self._in_utterance = False
        self._watch.end_utt()
        self._clear_speech()
        return self._heard(command)

    def _heard(self, command: Command | None) -> Command | None:
        assert self.last is not None
        self.heard.append(self.last)
        ahead = self.decoders.ahead
        if command is None or ahead is None:
            return command
        return self.hold.put(command, peak_level(ahead[0]), self._time)

    def _loud_enough(self) -> bool:
        """Whether the utterance is no run-on, or a run-on as loud as the command before it."""
        return self._run_on_under is None or \
            peak_level(self._speech, self._speech_levels) >= self._run_on_under

    def _loud_stretch_over(self, frame: bytes) -> bool:
        """Whether the utterance's loud stretch has been over for `end_window` seconds:
        the voice activity detector hears babble as speech and would never end the
        utterance in a noisy room; the command, nearer the microphone, is louder."""
        trim_db = self.settings.trim_db
        if trim_db is None:
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
        elif level < self._peak - trim_db:
            self._quiet += seconds
        else:
            self._quiet = 0.0
        return self._quiet >= self.settings.end_window

    def _end_streams(self) -> None:
        if not self.settings.full_utterance:
            self.decoders.grammar.end_utt()
            self.decoders.free.end_utt()
        if self._watch is not None:
            self._watch.end_utt()

    def _decode(self, speech: bytes, free_first: bool = False,
                decide_only: bool = False) -> Texts:
        """The two transcripts of a whole utterance's loud stretch (Decoders.decode)."""
        trimmed = loudest_part(speech, self.settings.trim_db, end_pad=self.settings.end_pad)
        return self.decoders.decode(trimmed, self._start, free_first, decide_only)

    def _finish(self) -> Command | None:
        self._in_utterance = False
        if self.settings.full_utterance:
            if self._watch is not None:
                self._watch.end_utt()
            # Heard to the present: the trim cuts what is quiet after the speech, and the
            # audio is the same as the decode ahead's when nothing loud came since.
            if self._run_on_under is not None and not self._loud_enough():
                # Background after a command that ended early: not worth a decode.
                command = None
                self.decoders.last = ("", "", 0.0)  # nothing to tune on
            else:
                # After a command that ended ahead, the grammar's transcript is also
                # looked at on its own (inexact): then it is always asked.
                texts = self._decode(self._so_far() if self.settings.decode_ahead is not None
                                     else bytes(self._speech),
                                     decide_only=self._run_on_under is None)
                command = self._decide(texts)
                if self._run_on_under is not None and self.decoders.inexact(texts):
                    command = None
                    self.decoders.last = ("", "", 0.0)  # background: nothing to tune on
            self._clear_speech()
        else:
            self._end_streams()
            forced = self.decoders.grammar.hyp()
            free = self.decoders.free.hyp()
            command = self._decide((forced.hypstr if forced is not None else "",
                                    free.hypstr if free is not None else ""))
        return self._heard(command)

    def _decide(self, texts: Texts) -> Command | None:
        command = self.decoders.decide(*texts, self._start)
        ahead = self.decoders.ahead
        if command is not None and ahead is not None and \
                not self.decoders.whole(ahead[0], texts[0] or command.text):
            self.whole_refused += 1
            return None  # a command's words inside longer talk
        return command
