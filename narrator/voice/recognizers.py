"""Choosing a real recognizer from the settings: the back ends by name.

Kept apart from the Recognizer port (narrator.voice.recognizer), which the back ends
themselves import. Neither back end loads its library before a recognizer is made.
"""

from __future__ import annotations

import logging
from pathlib import Path

from narrator.errors import ConfigError
from narrator.voice.commands import CommandSet
from narrator.voice.front_end import FrontEndRecognizer, front_end
from narrator.voice.recognizer import Recognizer
from narrator.voice.recognizer_pocketsphinx import PocketsphinxRecognizer
from narrator.voice.recognizer_vosk import VoskRecognizer

ENGINES = ("pocketsphinx", "vosk")
log = logging.getLogger(__name__)


def has_model(engine: str, lang: str, model_dir: Path | None) -> bool:
    """Whether `engine` can hear `lang` here: pocketsphinx's English model is built in; a
    Vosk model is a folder the installer put in place (am/ or final.mdl inside)."""
    if engine == "pocketsphinx":
        return lang == "en"
    return model_dir is not None and ((model_dir / "am").is_dir()
                                      or (model_dir / "final.mdl").exists())


def make_recognizer(engine: str, lang: str, model_dir: Path | None = None,
                    wake_word: str | None = None, adaptation: Path | None = None,
                    front: str = "none") -> Recognizer:
    """A real recognizer for the game's language (settings: recognizer.engine,
    recognizer.model_dir, recognizer.wake_word, recognizer.adaptation: pocketsphinx's
    model adapted to the club, used when it is there; recognizer.front_end: the stages
    it hears through, by name). A language the engine cannot hear, or a front end whose
    library is not installed, is a ConfigError that says what to configure."""
    stages = front_end(front)
    recognizer = _recognizer(engine, lang, model_dir, wake_word, adaptation)
    return FrontEndRecognizer(stages, recognizer) if stages else recognizer


def _recognizer(engine: str, lang: str, model_dir: Path | None, wake_word: str | None,
                adaptation: Path | None) -> Recognizer:
    if engine not in ENGINES:
        raise ConfigError("settings", "recognizer.engine",
                          f"expected one of {', '.join(ENGINES)}, got {engine!r}")
    commands = CommandSet.for_language(lang, wake_word)
    if engine == "pocketsphinx":
        if lang != "en":
            raise ConfigError("settings", "recognizer.engine",
                              f"pocketsphinx has no {lang!r} model; use engine vosk with "
                              f"recognizer.model_dir (--model DIR) naming a Vosk {lang} model")
        if adaptation is not None and adaptation.exists():
            try:
                return PocketsphinxRecognizer(commands, adaptation=adaptation)
            except RuntimeError as exc:  # pocketsphinx's "Failed to initialize"
                # The adaptation only improves hearing: a broken one must not cost the
                # evening its voice commands.
                log.warning("cannot load the adaptation %s (%s): the model as it ships "
                            "hears instead", adaptation, exc)
        return PocketsphinxRecognizer(commands)
    if model_dir is None:
        raise ConfigError("settings", "recognizer.model_dir",
                          f"vosk needs a model folder for {lang!r} (--model DIR)")
    return VoskRecognizer(commands, model_dir)
