from __future__ import annotations

import pytest

from narrator.engine.actions import (
    AddTime,
    EndSpeech,
    Foul,
    Nominate,
    Pause,
    Remove,
    Repeat,
    Resume,
    StartVoting,
    Undo,
)
from narrator.errors import ConfigError
from narrator.phrases.numbers import cardinal
from narrator.voice.commands import COMMAND_IDS, SEAT_COMMANDS, Command, CommandSet, to_action


def test_every_required_english_form_is_a_command(english: CommandSet) -> None:
    simple = {"thank you": "next_speaker", "next speaker": "next_speaker",
              "pause": "pause", "resume": "resume", "repeat": "repeat", "cancel that": "undo",
              "start voting": "start_voting", "yes": "yes", "no": "no",
              "add thirty seconds": "add_time"}
    for text, name in simple.items():
        heard = english.parse(text)
        assert heard is not None and heard.command == name and heard.seat is None
    assert english.parse("add thirty seconds") == Command("add_time", None, 30,
                                                           "add thirty seconds")
    for n in range(1, 17):
        word = cardinal(n, "en")
        for form in ("nominate {}", "I nominate {}", "i nominate player {}",
                     "I nominate number {}", "I nominate player number {}"):
            heard = english.parse(form.format(word))
            assert heard is not None and (heard.command, heard.seat) == ("nominate", n)
        for form in ("foul {}", "Foul seat {}!"):
            heard = english.parse(form.format(word))
            assert heard is not None and (heard.command, heard.seat) == ("foul", n)
        for form in ("remove player {}", "disqualify player {}"):
            heard = english.parse(form.format(word))
            assert heard is not None and (heard.command, heard.seat) == ("remove", n)


def test_talk_and_partial_commands_are_not_commands(english: CommandSet) -> None:
    for text in ("I think seat four was lying yesterday", "nominate", "foul seat", "pass", "undo",
                 "nominate seventeen", "please pause", "yes yes", "disqualify five"):
        assert english.parse(text) is None


def test_both_languages_have_the_same_commands() -> None:
    en = CommandSet.for_language("en")
    ru = CommandSet.for_language("ru")
    assert {c for c, _ in en.sentences.values()} == set(COMMAND_IDS)
    assert {c for c, _ in ru.sentences.values()} == set(COMMAND_IDS)
    heard = ru.parse("фол игроку семь")
    assert heard is not None and (heard.command, heard.seat) == ("foul", 7)


def test_wake_word_is_required_when_set() -> None:
    woken = CommandSet.for_language("en", wake_word="narrator")
    assert woken.parse("next speaker") is None
    heard = woken.parse("Narrator, next speaker")
    assert heard is not None and heard.command == "next_speaker"


def test_actions_for_commands() -> None:
    expected = {
        Command("next_speaker"): EndSpeech(), Command("pause"): Pause(),
        Command("resume"): Resume(), Command("repeat"): Repeat(), Command("undo"): Undo(),
        Command("start_voting"): StartVoting(), Command("add_time", seconds=30): AddTime(30),
        Command("nominate", 7): Nominate(target=7), Command("foul", 3): Foul(3),
        Command("remove", 5): Remove(5),
    }
    for command, action in expected.items():
        assert to_action(command) == action
    assert to_action(Command("yes")) is None and to_action(Command("no")) is None


def test_json_form() -> None:
    assert Command("foul", 3, None, "foul seat three", 1.234).to_json() == {
        "at": 1.23, "command": "foul", "seat": 3, "text": "foul seat three"}
    assert Command("add_time", None, 30, "add thirty seconds").to_json()["seconds"] == 30


def test_bad_phrase_sets_name_the_problem() -> None:
    seats = ["one", "two"]
    full = {c: [f"{c} {{seat}}" if c in SEAT_COMMANDS else f"word {c}"]
            for c in COMMAND_IDS}
    with pytest.raises(ConfigError, match=r"commands\.dance: unknown command"):
        CommandSet({**full, "dance": ["dance"]}, seats, source="book.yaml")
    with pytest.raises(ConfigError, match=r"commands.foul: 'foul': this command needs \{seat\}"):
        CommandSet({**full, "foul": ["foul"]}, seats, source="book.yaml")
    with pytest.raises(ConfigError, match="also means"):
        CommandSet({**full, "pause": ["word resume"]}, seats, source="book.yaml")
