"""How long a text takes to say, estimated without rendering it.

The virtual-clock timeline (`narrator replay --json`, `demo --fast`) and the fake speaker
need a spoken length that is the same on every machine. This is a linear fit, per
language, to espeak-ng's renders of the phrase books at the default rate (mean error about
4 %); the real speaker uses the rendered WAV's length instead.
"""

from __future__ import annotations

import re

DEFAULT_RATE = 160  # words per minute, espeak-ng's scale

# seconds = base + per letter + per word + per inner stop + per inner comma, at
# DEFAULT_RATE. The base holds the pause after the last word, which espeak-ng always makes.
_FIT: dict[str, tuple[float, float, float, float, float]] = {
    "en": (0.541, 0.0565, 0.0443, 0.456, 0.304),
    "ru": (0.447, 0.0577, 0.0366, 0.429, 0.275),
}
_STOPS = re.compile(r"[.!?:;—]")


def estimate_seconds(text: str, lang: str = "en", rate: int = DEFAULT_RATE) -> float:
    """Deterministic spoken length of `text` in seconds, rounded to the millisecond."""
    if lang not in _FIT:
        raise ValueError(f"no speech estimate for language {lang!r}")
    if rate <= 0:
        raise ValueError(f"speaking rate must be positive, not {rate}")
    if not text.strip():
        return 0.0
    base, letter, word, stop, comma = _FIT[lang]
    inner = text.rstrip().rstrip(".!?:;—")
    seconds = (base + letter * len(re.findall(r"\w", text)) + word * len(re.findall(r"\w+", text))
               + stop * len(_STOPS.findall(inner)) + comma * inner.count(","))
    return round(seconds * DEFAULT_RATE / rate, 3)
