"""Loudness of an utterance, 10 ms frame by frame: the levels the recognizer trims an
utterance by (its loud stretch) and compares utterances by (their peak).

`levels` computes them over a whole utterance; `SpeechLevels` keeps them up to date as
the utterance grows, chunk by chunk, so a 30 ms chunk costs what its own audio does and
not what the whole utterance does (the recognizer asks for the loud stretch after every
chunk). Both give exactly the same numbers: the tracker keeps the frames' energies and
the smoothed levels of every frame whose smoothing window is complete, and recomputes
only the last few, whose window runs past the audio so far (tests/listen/test_speech_levels.py
compares them on real clips and random audio).

`loud_bounds` and `loudest_part` cut an utterance to its loud stretch, `peak_level` gives
its loudest level: over the whole utterance, or from the levels kept as it grew.
"""

from __future__ import annotations

import numpy as np

from narrator.voice.pocketsphinx_settings import SHORTEST_TRIM, TRIM_PAD

SAMPLE_RATE = 16000
FRAME = SAMPLE_RATE // 100  # samples in a 10 ms frame
SMOOTHING = 10  # frames a level is smoothed over (100 ms)
# np.convolve(..., "same") centres the window: frame i averages frames i-5 .. i+4.
_AHEAD = (SMOOTHING - 1) // 2 + (SMOOTHING - 1) % 2  # frames after i in i's window: 4
_KERNEL = np.ones(SMOOTHING) / SMOOTHING


def energies(speech: bytes | bytearray) -> np.ndarray:
    """Mean square of each whole 10 ms frame (a partial frame at the end is left out)."""
    samples = np.frombuffer(speech, "<i2", count=len(speech) // 2).astype(np.float64)
    frames = samples[: len(samples) // FRAME * FRAME].reshape(-1, FRAME)
    return np.asarray((frames ** 2).mean(axis=1))


def smoothed(energy: np.ndarray) -> np.ndarray:
    """Levels (dB) from frame energies, each smoothed over SMOOTHING frames."""
    if not len(energy):
        return np.zeros(0)  # (np.convolve refuses nothing)
    return np.asarray(10 * np.log10(np.convolve(energy, _KERNEL, mode="same") + 1.0))


def levels(speech: bytes | bytearray) -> np.ndarray:
    """Loudness (dB) of each 10 ms frame, smoothed over 100 ms."""
    return smoothed(energies(speech))


def bounds(level: np.ndarray, trim_db: float) -> tuple[int, int]:
    """The first and last frame within `trim_db` of the loudest."""
    loud = np.flatnonzero(level >= level.max() - trim_db)
    return int(loud[0]), int(loud[-1])


class SpeechLevels:
    """`levels` of an utterance that grows: `update` it with the utterance so far (the
    audio it was last given, and more after it) and ask for its peak or loud stretch."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """A new utterance begins."""
        self._seen = 0  # bytes of the utterance taken into account (whole frames)
        self._energy = np.zeros(256)
        self._frames = 0
        # Levels of frames 0 .. _done-1: their smoothing window lies inside the audio so
        # far, so more audio leaves them as they are.
        self._final = np.zeros(256)
        self._done = 0
        self._final_peak = -np.inf
        self._tail = np.zeros(0)  # levels of the frames after them, as of now
        self._forget_loud()

    def _forget_loud(self) -> None:
        # The loud stretch as last asked for: its floor (dB), its first frame, the last
        # final frame at or over the floor (-1: none) and how many final frames that
        # looked at.
        self._floor = -np.inf
        self._first = 0
        self._last_final = -1
        self._checked = 0

    @property
    def frames(self) -> int:
        return self._frames

    def update(self, speech: bytes | bytearray) -> None:
        """Take in the audio after what was seen (`speech` is the utterance so far, of
        which the part seen before must be unchanged; shorter: a new utterance)."""
        if len(speech) < self._seen:
            self.reset()
        whole = (len(speech) // 2 - self._seen // 2) // FRAME * FRAME * 2
        if whole <= 0:
            return
        new = energies(speech[self._seen : self._seen + whole])
        self._seen += whole
        self._energy = _put(self._energy, self._frames, new)
        self._frames += len(new)
        if self._frames < SMOOTHING:
            return  # np.convolve's "same" is as long as the kernel: see levels()
        done = self._frames - _AHEAD
        # The new final levels: their windows (5 frames before, 4 after; at the start,
        # what there is) from the same "same" convolution, over just the frames needed.
        start = max(0, self._done - (SMOOTHING - _AHEAD))
        part = smoothed(self._energy[start : self._frames])
        final = part[self._done - start : done - start]
        self._final = _put(self._final, self._done, final)
        if len(final):
            self._final_peak = max(self._final_peak, float(final.max()))
        self._done = done
        self._tail = part[done - start :]

    def levels(self) -> np.ndarray:
        """What `levels()` gives for the utterance so far."""
        if self._frames < SMOOTHING:
            return smoothed(self._energy[: self._frames])
        return np.concatenate((self._final[: self._done], self._tail))

    def recent(self, frames: int) -> float:
        """The loudest level of the last `frames` frames (as levels() has them now)."""
        if self._frames < SMOOTHING or frames > len(self._tail):
            return float(self.levels()[-frames:].max())
        return float(self._tail[-frames:].max())

    @property
    def peak(self) -> float:
        """The loudest level (0 for no audio): what `levels(...).max()` gives."""
        if self._frames == 0:
            return 0.0
        if self._frames < SMOOTHING:
            return float(self.levels().max())
        return max(self._final_peak, float(self._tail.max()))

    def loud(self, trim_db: float) -> tuple[int, int]:
        """`bounds(levels(...), trim_db)`: the first and last frame of the loud stretch
        (the utterance must have audio)."""
        if self._frames < SMOOTHING:
            return bounds(self.levels(), trim_db)
        floor = self.peak - trim_db
        if floor < self._floor:
            self._forget_loud()  # the floor only rises as audio comes; else start over
        if floor > self._floor:
            # Frames before the first loud one stay under a higher floor, and so do the
            # final frames after the last one: that one is looked for backwards.
            last = min(self._last_final, self._done - 1)
            while last >= 0 and self._final[last] < floor:
                last -= 1
            self._last_final = last
            self._floor = floor
        first = self._first
        while self._level(first) < floor:  # the loudest frame is over it: this stops
            first += 1
        # A tail frame's level still rises with more audio: the search goes on from the
        # final frames.
        self._first = min(first, self._done)
        for i in range(self._checked, self._done):
            if self._final[i] >= floor:
                self._last_final = i
        self._checked = self._done
        last = self._last_final
        for i, level in enumerate(self._tail):
            if level >= floor:
                last = self._done + i
        return first, last

    def _level(self, i: int) -> float:
        return float(self._final[i]) if i < self._done else float(self._tail[i - self._done])


def _put(array: np.ndarray, at: int, values: np.ndarray) -> np.ndarray:
    """`values` written into `array` from `at`, the array grown (doubled) when too short."""
    need = at + len(values)
    if need > len(array):
        grown = np.zeros(max(need, 2 * len(array)))
        grown[:at] = array[:at]
        array = grown
    array[at:need] = values
    return array


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
