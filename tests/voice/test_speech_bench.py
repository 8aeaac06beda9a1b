"""The speech bench's scoring: word edits, and the recogniser's word error rate."""

from __future__ import annotations

import numpy as np

from workshop.bench import BENCHES
from workshop.bench.speech import _edits, texts, word_error_rate


def test_registered() -> None:
    assert BENCHES["speech"] == "workshop.bench.speech"


def test_word_edits() -> None:
    assert _edits(["the", "city", "falls", "asleep"], ["the", "city", "falls", "asleep"]) == 0
    assert _edits(["the", "city", "falls", "asleep"], ["a", "city", "fall", "asleep", "now"]) == 3
    assert _edits(["one"], []) == 1


def test_silence_is_all_words_missed() -> None:
    said = ["Night falls."]
    assert word_error_rate(said, [np.zeros(16000, dtype="<i2")]) == 1.0


def test_the_sentences_are_the_night_then_the_day() -> None:
    en = texts("en", quick=False)
    assert en[0].startswith("The first night falls.") and len(en) == len(texts("ru", quick=False))
