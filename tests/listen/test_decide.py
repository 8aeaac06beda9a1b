"""The pocketsphinx recognizer's decision from its two transcripts (the rule that
scripts/tune-listen replays): what is taken, what is dropped as talk or doubt."""

from __future__ import annotations

from narrator.voice.commands import CommandSet
from narrator.voice.pocketsphinx_decoder import decide

LOW = {"nominate": 0.4, "pause": 0.5}


def heard(english: CommandSet, forced: str, free: str, score: float) -> tuple[str, int | None] | None:
    command = decide(english, forced, free, score, LOW)
    return None if command is None else (command.command, command.seat)


def test_agreeing_transcripts_give_the_grammars_command(english: CommandSet) -> None:
    assert heard(english, "i nominate player seven", "i nominate layer seven", 0.8) == \
        ("nominate", 7)


def test_a_grammar_command_below_its_threshold_is_no_command(english: CommandSet) -> None:
    assert heard(english, "pause", "those", 0.3) is None
    assert heard(english, "pause", "pas", 0.5) == ("pause", None)


def test_different_seats_give_nothing(english: CommandSet) -> None:
    assert heard(english, "foul ten", "foul seven", 0.9) is None


def test_a_free_transcript_that_is_a_command_word_for_word_stands(english: CommandSet) -> None:
    # The grammar heard only part of a command: the free decoder's whole one is taken.
    assert heard(english, "abandon the", "abandon game", 0.2) == ("abandon", None)
    assert heard(english, "i nominate", "talk about the game", 0.1) is None
