"""Spoken clips made once per test session (espeak-ng in several voices, sox to 16 kHz,
a little noise), and recognizers loaded once: models take a while to load."""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.voice.commands import CommandSet
from narrator.voice.listen_clips import ClipSpec, concatenate, speak_all
from narrator.voice.recognizer_pocketsphinx import PocketsphinxRecognizer

# People talk before they give the box commands; live cepstral normalisation learns the
# room from it. Every stream here starts with a little of it.
OPENING = "good evening everyone, welcome to the game, let us begin"

TALK = [
    "I think seat four was lying yesterday",
    "good morning everyone",
    "I am a civilian and I trust number two",
    "the don checked me last night I am sure of it",
    "who wants coffee before we start",
    "that was a very suspicious speech",
    "please stop interrupting me",
    "number five is clearly the sheriff",
    "let me finish my thought",
    "thanks for the nice game everyone",
]


@pytest.fixture(scope="session")
def clips(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("listen-clips")


def stream(folder: Path, name: str, texts: list[str], voice: str, gap: float = 0.3) -> Path:
    """One recording: the opening talk, then each text, with noise between them."""
    specs = [ClipSpec(OPENING, voice)] + [ClipSpec(t, voice) for t in texts]
    return concatenate(speak_all(specs, folder), folder / f"{name}.wav", gap=gap)


@pytest.fixture(scope="session")
def english() -> CommandSet:
    return CommandSet.for_language("en")


@pytest.fixture
def sphinx(english: CommandSet) -> PocketsphinxRecognizer:
    # A fresh recogniser for each test: one shared by a worker carries what it heard in
    # the tests before (their order differs from run to run under xdist), so a test's
    # verdict depended on its neighbours (table talk once heard as "next speaker").
    return PocketsphinxRecognizer(english)
