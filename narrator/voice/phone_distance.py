"""How alike one phone sequence sounds to each of many (the command sentences) at once:
the recognizer asks it after every utterance that was not a command word for word, to
know whether the grammar's transcript could change what the utterance is taken as (if not,
the grammar's decode is skipped)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


class PhoneSequences:
    """Fixed candidate sequences, compared with any other by normalised edit distance."""

    def __init__(self, candidates: Sequence[Sequence[str]]) -> None:
        self._lengths = np.array([len(c) for c in candidates], dtype=np.int64)
        self._ids: dict[str, int] = {}
        width = int(self._lengths.max()) if len(candidates) else 0
        # -1 pads the shorter ones: it equals no phone, and no cell past a candidate's
        # own length is read for it.
        self._symbols = np.full((len(candidates), width), -1, dtype=np.int64)
        for row, candidate in enumerate(candidates):
            for col, phone in enumerate(candidate):
                self._symbols[row, col] = self._ids.setdefault(phone, len(self._ids))

    def similarities(self, other: Sequence[str]) -> list[float]:
        """`similarity(candidate, other)` for every candidate (1: the same, as
        pocketsphinx_decoder.similarity computes it, to the last bit)."""
        count, width = self._symbols.shape
        previous = np.tile(np.arange(width + 1, dtype=np.int64), (count, 1))
        for i, phone in enumerate(other, 1):
            symbol = self._ids.get(phone, -2)  # a phone no candidate has matches nothing
            differs = (self._symbols != symbol).astype(np.int64)
            current = np.empty_like(previous)
            current[:, 0] = i
            # substitution or match, and deletion, cell by cell along the candidates
            diagonal = previous[:, :-1] + differs
            above = previous[:, 1:] + 1
            best = np.minimum(diagonal, above)
            for j in range(1, width + 1):
                current[:, j] = np.minimum(best[:, j - 1], current[:, j - 1] + 1)
            previous = current
        distances = previous[np.arange(count), self._lengths]
        out = []
        for length, distance in zip(self._lengths.tolist(), distances.tolist(), strict=True):
            if length == 0 and not other:
                out.append(1.0)
            else:
                out.append(1 - distance / max(length, len(other)))
        return out
