"""The voice bench runs (quick sample: a smoke test, not a speed check)."""

from __future__ import annotations

from workshop.bench import BENCHES
from workshop.bench.voice import run


def test_quick_voice_bench() -> None:
    assert BENCHES["voice"] == "workshop.bench.voice"
    figures = run(quick=True)
    for key in ("cue_start_ms_p95", "cue_start_ms_median", "tts_render_ms_median",
                "cache_render_s_sport_both_languages_quick_subset"):
        value = figures[key]
        assert isinstance(value, float) and value > 0, key
    assert figures["cache_texts_sport_both_languages"] == 24
