"""Voices that are what they say: a voice is offered once it has spoken here.

Installed is not working: on arm64, onnxruntime 1.32 died on import while hibari counted
as installed and the default, and the box spoke all evening in espeak-ng while saying it
spoke in hibari (issue 28). So each voice is proven by a real render of one short cue
through its own renderer (its child process, as in a game), at the daemon's start and in
`narrator voices`. A voice that rendered is remembered per voice, version and language
(`proofs.json` in the speech cache folder): later starts do not render it again, and a
new version (of the voice, or of the onnxruntime under it) is proven anew. A voice that
failed is tried again at the next start (the cause may pass: a full card), is listed as
broken with the reason, and is never the default. Only proven successes are remembered.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import wave
from collections.abc import Collection
from dataclasses import dataclass, replace
from pathlib import Path

from narrator.errors import ConfigError, DeviceError
from narrator.voice import voices
from narrator.voice.estimate import DEFAULT_RATE
from narrator.voice.voice_config import VoiceSettings
from narrator.voice.wav import read_wav

log = logging.getLogger(__name__)

PROOF_CUE = "ready"  # the box's first word: short, and said at every start anyway
SHORTEST = 0.3  # seconds: a render shorter than this said nothing of the cue
FILE = "proofs.json"


@dataclass(frozen=True, slots=True)
class Proof:
    voice: str
    lang: str
    version: str
    ok: bool
    reason: str = ""  # why it is broken (one line)
    remembered: bool = False  # proven at an earlier start (no render now)


@dataclass(frozen=True, slots=True)
class Fallback:
    """The voice the box would have spoken with, why it cannot, and the one it uses."""

    voice: str
    reason: str
    instead: str

    def line(self) -> str:
        return f"the {self.voice} voice does not work ({self.reason}): speaking with {self.instead}"


# What a voice's render depends on besides its own package: onnxruntime (the version that
# died on arm64 was a new onnxruntime under the same hibari).
RUNTIMES = {"hibari": ("onnxruntime",), "piper": ("onnxruntime",)}


def _key(name: str, version: str, lang: str) -> str:
    from importlib import metadata

    parts = [name, version, lang]
    for package in RUNTIMES.get(name, ()):
        try:
            parts.append(f"{package}-{metadata.version(package)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{package}-?")
    return "|".join(parts)


def _remembered(folder: Path) -> dict[str, object]:
    try:
        data = json.loads((folder / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # none yet, or a damaged file: prove again
    return data if isinstance(data, dict) else {}


def _remember(folder: Path, key: str) -> None:
    known = _remembered(folder)
    known[key] = True
    tmp = folder / f".{FILE}.{os.getpid()}.tmp"
    with contextlib.suppress(OSError):  # a card that refuses: proven again next start
        tmp.write_text(json.dumps(known, sort_keys=True, indent=1), encoding="utf-8")
        os.replace(tmp, folder / FILE)


def prove(name: str, lang: str, folder: Path, rate: int = DEFAULT_RATE) -> Proof:
    """Whether the installed voice `name` renders `lang`'s proof cue here."""
    from narrator.phrases.book import PhraseBook

    info = voices.info(name)
    version = info.version()
    key = _key(name, version, lang)
    if _remembered(folder).get(key) is True:
        return Proof(name, lang, version, True, remembered=True)
    text = PhraseBook.load(lang).render(PROOF_CUE, {})
    renderer = voices.renderer(voices.Choice(name, lang, voices.DEFAULT_ESPEAK_IDS[lang]), rate)
    path = folder / f".proof-{name}-{lang}-{os.getpid()}.wav"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        renderer.render(text, path)
        seconds = read_wav(path).seconds
        if seconds < SHORTEST:
            raise DeviceError(f"it rendered {seconds:.2f} s for {text!r}")
    except (DeviceError, ConfigError, OSError, wave.Error, EOFError) as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        return Proof(name, lang, version, False, reason)
    finally:
        with contextlib.suppress(OSError):
            path.unlink()
        close = getattr(renderer, "close", None)
        if close is not None:
            close()  # a proof does not keep a neural voice's ~200 MB child
    _remember(folder, key)
    return Proof(name, lang, version, True)


def prove_all(lang: str, folder: Path) -> list[Proof]:
    """Every installed voice of `lang`, best first, each proven."""
    return [prove(v.name, lang, folder) for v in voices.installed(lang)]


def best_working(lang: str, folder: Path, allowed: Collection[str] | None = None,
                 skip: Collection[str] = ()) -> tuple[str, list[Proof]]:
    """The best installed voice of `lang` that renders (among `allowed`, when given: what
    fits the board; espeak-ng always is), and the proofs taken to find it. espeak-ng when
    nothing renders: it is the last resort anyway."""
    proofs: list[Proof] = []
    for info in voices.installed(lang):
        if info.name in skip:
            continue
        if allowed is not None and info.name not in allowed and info.name != voices.ESPEAK:
            continue
        proof = prove(info.name, lang, folder)
        proofs.append(proof)
        if proof.ok:
            return info.name, proofs
    return voices.ESPEAK, proofs


def choose(settings: VoiceSettings, allowed: Collection[str] | None = None
           ) -> tuple[VoiceSettings, Fallback | None]:
    """The daemon's voice: the one named (config, then $NARRATOR_VOICE), proven; else the
    best working voice that fits the board. A named or better voice that cannot render is
    logged (once: here) and returned as a Fallback for the organiser's page. An espeak-ng
    id or a voice pack is taken as named (speech_cache handles those)."""
    lang, folder = settings.language, settings.cache_path
    named = (settings.voice or os.environ.get(voices.ENV, "")).strip()
    name = named.partition(":")[0]
    if named and name not in voices.NAMED:
        return settings, None
    if named:
        try:
            voices.resolve(named, lang, "settings", "voice.name")
        except ConfigError:
            return settings, None  # not installed, another language: speech_cache says so
        proof = prove(name, lang, folder, settings.rate)
        if proof.ok:
            return settings, None
        instead, _ = best_working(lang, folder, allowed, skip=(name,))
        fallback: Fallback | None = Fallback(name, proof.reason, instead)
    else:
        instead, proofs = best_working(lang, folder, allowed)
        broken = [p for p in proofs if not p.ok]
        fallback = Fallback(broken[0].voice, broken[0].reason, instead) if broken else None
    if fallback is not None:
        log.error("%s", fallback.line())
    return replace(settings, voice=instead), fallback
