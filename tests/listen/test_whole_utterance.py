"""A command is a whole utterance: its words inside a longer sentence are talk, heard by
the real recogniser on real (synthetic) speech. The same clips pass without the rule
(PocketsphinxSettings(whole_db=None)): each line here was taken as a command before it."""

from __future__ import annotations

from pathlib import Path

from narrator.voice.commands import CommandSet
from narrator.voice.listen_clips import ClipSpec, speak_all
from narrator.voice.pocketsphinx_settings import PocketsphinxSettings
from narrator.voice.recognizer import chunked, read_audio, recognize
from narrator.voice.recognizer_pocketsphinx import PocketsphinxRecognizer

NEAR = [ClipSpec("the next speaker will tell you the same thing", "flite:slt"),
        ClipSpec("you cannot cancel that vote now", "en-us")]
SAID = [ClipSpec("next speaker", "flite:slt"), ClipSpec("cancel that", "en-us")]


def _heard(settings: PocketsphinxSettings, english: CommandSet, clips: Path,
           specs: list[ClipSpec]) -> list[list[str]]:
    out = []
    for path in speak_all(specs, clips):
        recognizer = PocketsphinxRecognizer(english, settings)
        out.append([c.command for c in recognize(recognizer, chunked(read_audio(path)))])
    return out


def test_a_commands_words_inside_talk_are_not_taken(english: CommandSet, clips: Path) -> None:
    assert _heard(PocketsphinxSettings(), english, clips, NEAR) == [[], []]


def test_the_same_commands_said_whole_are_taken(english: CommandSet, clips: Path) -> None:
    assert _heard(PocketsphinxSettings(), english, clips, SAID) == [["next_speaker"], ["undo"]]


def test_an_opener_that_starts_a_sentence_is_talk(english: CommandSet, clips: Path) -> None:
    """"yes, that is exactly my point" pauses at its comma as long as the recogniser waits
    before it ends an utterance: "yes" alone looked whole until it was held a moment."""
    specs = [ClipSpec("yes, that is exactly my point", "en-us"), ClipSpec("yes", "en-us")]
    assert _heard(PocketsphinxSettings(), english, clips, specs) == [[], ["yes"]]


def test_the_openers_are_sentences_of_both_books() -> None:
    books = [CommandSet.for_language(lang) for lang in ("en", "ru")]
    said = {s: name for book in books for s, (name, _) in book.sentences.items()}
    openers = PocketsphinxSettings().openers
    assert openers <= set(said)
    by_lang = [{said[s] for s in openers if s in book.sentences} for book in books]
    assert by_lang[0] == by_lang[1] == {"yes", "no", "next_speaker"}
