"""Voice packs: a club's own host, recorded once (format: docs/voice-packs.md).

A pack is a folder of 16-bit mono WAVs, one per item, named `<item id>.wav`, and a
`manifest.yaml` that gives the pack's language, sample rate and each item's words. Items
are the phrase book's cues without parameters (`night_falls`), the fixed parts of the cues
with parameters (`speaker.0` "Игрок номер", `speaker.1` "ваша минута"), and the words the
parameters are spoken with: numbers, ordinals, the nouns that agree with them, role names.

Playing: a text is covered by recorded items, whole or in pieces (a dynamic programme
over its words, fewest pieces first), so "Игрок номер семь, ваша минута." plays
`speaker.0`, `number.7` and `speaker.1`. A text the pack cannot cover is said whole by the
TTS voice (mixing voices inside one sentence sounds worse than one voice throughout).
"""

from __future__ import annotations

import logging
import re
import string
import unicodedata
import wave
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml

from narrator.errors import InputFileError
from narrator.phrases import numbers
from narrator.phrases.book import HOW, PhraseBook
from narrator.voice.cache import WavCache
from narrator.voice.loudness import loudness, normalised
from narrator.voice.wav import Clip, read_wav, write_wav
from narrator.yamlfile import parse_yaml, read_text

log = logging.getLogger(__name__)

MANIFEST = "manifest.yaml"
FORMAT = 1
GAP_SECONDS = 0.08  # between composed pieces: a breath, not a pause
NUMBERS_UP_TO = 30  # seats, votes, counts
ORDINALS_UP_TO = 12  # days, fouls
_WORD = re.compile(r"[\w'-]+", re.UNICODE)


class PackError(InputFileError):
    """A wrong voice pack: its manifest, or one of its WAVs."""


@dataclass(frozen=True, slots=True)
class Item:
    id: str
    text: str


def words(text: str) -> tuple[str, ...]:
    """What matching compares: lower-case words, no punctuation (ё read as е)."""
    plain = "".join(ch for ch in text.lower() if unicodedata.category(ch) != "Mn")  # stress marks
    return tuple(w.replace("ё", "е") for w in _WORD.findall(plain))


def items(book: PhraseBook) -> list[Item]:
    """Everything a pack in this book's language can hold, in the order a host records it:
    whole cues, the fixed parts of the others, then the words of their parameters."""
    out: dict[str, str] = {}
    seen: set[tuple[str, ...]] = set()  # "Игрок номер" is recorded once, not for every cue

    def add(item: str, text: str) -> None:
        if words(text) and words(text) not in seen:
            seen.add(words(text))
            out[item] = text

    for cue in sorted(book.cue_ids()):
        template = book.template(cue)
        if not book.params_of(cue) and not book.hows_of(cue):
            add(cue, book.render(cue))
            continue
        parts = [literal for literal, _n, _s, _c in string.Formatter().parse(template)]
        for i, literal in enumerate(parts):
            add(f"{cue}.{i}", literal.strip(" ,.:;—-"))
    # The input instructions ({how:...}) of every table's input method: one pack plays at
    # a table with pads and at one with the keypad alone.
    for entry, texts in sorted(book.how.items()):
        for method, text in sorted(texts.items()):
            add(f"how.{entry}.{method}", text)
    lang = book.lang
    for n in range(NUMBERS_UP_TO + 1):
        add(f"number.{n}", numbers.cardinal(n, lang))
    if lang == "ru":
        for n in (1, 2):
            add(f"number.f.{n}", numbers.cardinal(n, lang, "f"))
    for n in range(1, ORDINALS_UP_TO + 1):
        add(f"ordinal.{n}", numbers.ordinal(n, lang))
    for word in _field_words(book):
        add(f"word.{word}", word)
    add("word.and", {"en": "and", "ru": "и"}[lang])
    for role, name in sorted(book.roles.items()):
        add(f"role.{role}", name.one)
        add(f"roles.{role}", name.many)
    return [Item(k, v) for k, v in out.items()]


def _field_words(book: PhraseBook) -> list[str]:
    found: list[str] = []
    for cue in sorted(book.cue_ids()):
        for _literal, name, spec, _conv in string.Formatter().parse(book.template(cue)):
            if name is None or name == HOW or not spec or spec in ("ord", "many"):
                continue
            if spec == "duration":
                forms = {"en": "minute minutes second seconds and",
                         "ru": "минута минуты минут секунда секунды секунд"}[book.lang].split()
            else:
                forms = spec.split(":")[-1].split("/")
            found += [f for f in forms if f not in found]
    return found


@dataclass
class Pack:
    folder: Path
    lang: str
    rate: int
    texts: dict[str, str]  # item id -> its words as recorded
    name: str = ""

    @property
    def manifest(self) -> Path:
        return self.folder / MANIFEST

    def path(self, item: str) -> Path:
        return self.folder / f"{item}.wav"

    @classmethod
    def new(cls, folder: Path, lang: str, rate: int = 22050, name: str = "") -> Pack:
        return cls(folder, lang, rate, {}, name)

    @classmethod
    def load(cls, folder: Path) -> Pack:
        source = str(folder / MANIFEST)
        data = parse_yaml(read_text(folder / MANIFEST, PackError), source, PackError)
        if not isinstance(data, dict):
            raise PackError(source, "", "expected a mapping with format, lang, rate, clips")
        if data.get("format") != FORMAT:
            raise PackError(source, "format", f"expected {FORMAT}, got {data.get('format')!r}")
        lang = data.get("lang")
        if lang not in numbers.LANGUAGES:
            raise PackError(source, "lang", f"expected one of {', '.join(numbers.LANGUAGES)}, "
                            f"got {lang!r}")
        rate = data.get("rate")
        if isinstance(rate, bool) or not isinstance(rate, int) or not 8000 <= rate <= 96000:
            raise PackError(source, "rate", f"expected a sample rate in Hz, got {rate!r}")
        clips = data.get("clips") or {}
        if not isinstance(clips, dict):
            raise PackError(source, "clips", "expected a mapping of item id to its words")
        texts: dict[str, str] = {}
        for key, text in clips.items():
            if not isinstance(text, str) or not words(text):
                raise PackError(source, f"clips.{key}", f"expected the item's words, got {text!r}")
            if "/" in str(key) or str(key).startswith("."):
                raise PackError(source, f"clips.{key}", "an item id is a file name, no folders")
            texts[str(key)] = text
        return cls(folder, str(lang), rate, texts, str(data.get("name") or ""))

    def save(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        data = {"format": FORMAT, "name": self.name, "lang": self.lang, "rate": self.rate,
                "clips": dict(sorted(self.texts.items()))}
        tmp = self.manifest.with_suffix(".tmp")
        tmp.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        tmp.replace(self.manifest)

    def add(self, item: Item, clip: Clip) -> Clip:
        """Store a recording of `item`: trimmed, resampled to the pack's rate, normalised."""
        trimmed = trim(clip)
        if trimmed.frames == 0:
            raise PackError(str(self.path(item.id)), "", "the recording is silent")
        stored = normalised(trimmed.at_rate(self.rate))
        self.folder.mkdir(parents=True, exist_ok=True)
        write_wav(self.path(item.id), stored)
        self.texts[item.id] = item.text
        return stored

    def clip(self, item: str) -> Clip:
        """One item's WAV, checked: PackError naming the file when it is unreadable,
        silent, or not at the pack's sample rate."""
        path = self.path(item)
        try:
            clip = read_wav(path)
        except FileNotFoundError:
            raise PackError(str(path), "", "missing (the manifest lists it)") from None
        except (OSError, wave.Error, EOFError) as exc:
            raise PackError(str(path), "", f"not a 16-bit WAV: {exc}") from None
        if clip.rate != self.rate:
            raise PackError(str(path), "", f"sample rate {clip.rate} Hz, the pack's is {self.rate} Hz")
        if clip.frames == 0 or loudness(clip) < -60:
            raise PackError(str(path), "", "silent")
        return clip


def trim(clip: Clip, threshold_db: float = -40.0, keep: float = 0.05) -> Clip:
    """Cut the silence before and after speech (20 ms windows below `threshold_db` of the
    loudest one), keeping `keep` seconds each side."""
    window = max(1, int(clip.rate * 0.02))
    n = clip.frames // window
    if n == 0:
        return Clip(np.zeros(0, np.float32), clip.rate)
    energy = np.sqrt((clip.samples[: n * window].reshape(n, window) ** 2).mean(axis=1))
    top = float(energy.max())
    if top <= 1e-4:
        return Clip(np.zeros(0, np.float32), clip.rate)
    loud = np.nonzero(energy >= top * 10 ** (threshold_db / 20))[0]
    pad = int(keep * clip.rate)
    start = max(0, int(loud[0]) * window - pad)
    end = min(clip.frames, (int(loud[-1]) + 1) * window + pad)
    return Clip(clip.samples[start:end].copy(), clip.rate)


def check(pack: Pack, book: PhraseBook) -> tuple[list[str], list[Item]]:
    """(the problems of the pack's files, one line each; the items it has no clip for)."""
    problems: list[str] = []
    if pack.lang != book.lang:
        problems.append(f"{pack.manifest}: lang: the pack is {pack.lang!r}, not {book.lang!r}")
    for item in sorted(pack.texts):
        try:
            pack.clip(item)
        except PackError as exc:
            problems.append(str(exc))
    missing = [i for i in items(book) if i.id not in pack.texts]
    return problems, missing


class PackSpeech:
    """Clips from a pack, composed where needed; the TTS voice's cache for the rest.
    Offers what a speaker needs of a WavCache: clip, loaded, prepare, close."""

    def __init__(self, pack: Pack, tts: WavCache) -> None:
        self.pack = pack
        self.tts = tts
        self.voice = f"pack:{pack.folder}"
        self.renderer = tts.renderer
        self._clips: dict[str, Clip] = {}  # items, loaded once (a pack is small)
        self._bad: set[str] = set()
        self._index: dict[tuple[str, ...], str] = {}
        for item, text in pack.texts.items():
            self._index.setdefault(words(text), item)
        self._longest = max((len(k) for k in self._index), default=0)
        self.composed = 0  # texts said from the pack (for tests and the bench)
        self.spoken_by_tts = 0

    def pieces(self, text: str) -> list[str] | None:
        """The fewest recorded items that say `text` word for word, or None."""
        said = words(text)
        if not said:
            return None
        best: list[list[str] | None] = [None] * (len(said) + 1)
        best[0] = []
        for end in range(1, len(said) + 1):
            for start in range(max(0, end - self._longest), end):
                before = best[start]
                item = self._index.get(said[start:end])
                if before is None or item is None or item in self._bad:
                    continue
                if best[end] is None or len(before) + 1 < len(best[end] or ()):
                    best[end] = [*before, item]
        return best[-1]

    def loaded(self, text: str) -> Clip | None:
        return self.tts.loaded(text)

    def clip(self, text: str) -> Clip:
        for _attempt in range(3):
            pieces = self.pieces(text)
            if pieces is None:
                break
            try:
                parts = [self._item(p) for p in pieces]
            except PackError as exc:
                # A damaged file: logged once, and not used again this run.
                log.error("%s; the TTS voice says what needs it", exc)
                continue
            self.composed += 1
            return _joined(parts, self.pack.rate)
        self.spoken_by_tts += 1
        return self.tts.clip(text)

    def _item(self, item: str) -> Clip:
        clip = self._clips.get(item)
        if clip is None:
            try:
                clip = self.pack.clip(item)
            except PackError:
                self._bad.add(item)
                raise
            self._clips[item] = clip
        return clip

    def prepare(self, texts: Iterable[str]) -> int:
        return self.tts.prepare(t for t in texts if t.strip() and self.pieces(t) is None)

    def close(self) -> None:
        self.tts.close()


def _joined(parts: list[Clip], rate: int) -> Clip:
    gap = np.zeros(int(GAP_SECONDS * rate), np.float32)
    samples: list[np.ndarray] = []
    for i, part in enumerate(parts):
        if i:
            samples.append(gap)
        samples.append(part.samples)
    return Clip(np.concatenate(samples).astype(np.float32), rate)
