"""What the box says, as text and spoken length, for virtual-clock timelines.

The phrase book gives the words and a deterministic estimate gives the length, so a
replay or a `--fast` demo produces the same timeline on any machine without rendering
speech. The daemon measures the real WAVs instead.
"""

from __future__ import annotations

from narrator.engine.timeline import Timeline
from narrator.phrases.book import PhraseBook
from narrator.voice.estimate import estimate_seconds


def estimated_timeline(lang: str = "en", jitter: float = 0.0, seed: int = 0,
                       rules: str = "") -> Timeline:
    """`rules`: the rule set whose card names `{role}` speaks (boxed's cards differ)."""
    book = PhraseBook.load(lang).for_rules(rules)
    return Timeline(
        text_of=book.render,
        seconds_of=lambda text: estimate_seconds(text, lang),
        jitter=jitter,
        jitter_seed=seed,
    )
