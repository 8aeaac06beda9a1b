"""The voice commands' table (narrator/voice/commands.py, COMMANDS): every row is whole
(words in both phrase books, an action unless it is an answer, a seat in its phrases when
its action needs one, both recognizer thresholds), and the lists the recognizer and the
confirmation read are the table's."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from narrator.clock import FakeClock
from narrator.engine.actions import Action, AddTime, Forfeit
from narrator.phrases.book import PhraseBook
from narrator.phrases.numbers import LANGUAGES
from narrator.voice.command_confirm import Act, Ask, Confirmer
from narrator.voice.commands import (
    ADD_TIME_SECONDS,
    BY_ID,
    COMMAND_IDS,
    COMMANDS,
    Command,
    VoiceCommand,
    to_action,
)
from narrator.voice.pocketsphinx_settings import ADAPTED_THRESHOLDS, THRESHOLDS

Books = Mapping[str, PhraseBook]


def books() -> Books:
    return {lang: PhraseBook.load(lang) for lang in LANGUAGES}


def row_problems(row: VoiceCommand, phrases: Books) -> list[str]:
    problems = []
    for lang, book in phrases.items():
        # What the box says back before a confirmed command acts (service/confirm.py).
        if row.confirm and not book.has(f"confirm_{row.id}"):
            problems.append(f"no {lang} words to confirm it")
        templates = book.commands.get(row.id)
        if not templates:
            problems.append(f"no {lang} words")
        elif any(("{seat}" in t) != row.seat for t in templates):
            problems.append(f"{lang} words and its seat disagree")
    if not (0 < row.threshold <= 1 and 0 < row.adapted <= 1):
        problems.append("no recognizer thresholds")
    try:
        action = row.act(Command(row.id, 7 if row.seat else None, row.seconds))
    except ValueError:
        return [*problems, "its action needs a seat its words lack"]
    if row.answer != (action is None):
        problems.append("an answer with an action" if row.answer else "no action")
    if action is not None and not isinstance(action, Action):
        problems.append("its action is no engine action")
    if row.answer and row.confirm:
        problems.append("an answer that waits for an answer")
    return problems


def test_every_row_is_whole() -> None:
    phrases = books()
    assert len(COMMAND_IDS) == len(COMMANDS) == len(set(COMMAND_IDS))
    assert {row.id: row_problems(row, phrases) for row in COMMANDS} == {i: [] for i in COMMAND_IDS}
    # The phrase books hold no command the table lacks.
    assert all(set(book.commands) == set(COMMAND_IDS) for book in phrases.values())


def test_an_incomplete_row_is_caught() -> None:
    phrases = books()
    foul = BY_ID["foul"]
    new = dataclasses.replace(foul, id="warn")  # a row whose words nobody wrote
    assert row_problems(new, phrases) == ["no en words to confirm it", "no en words",
                                          "no ru words to confirm it", "no ru words"]
    no_seat = dataclasses.replace(foul, seat=False)
    assert row_problems(no_seat, phrases) == ["en words and its seat disagree",
                                              "ru words and its seat disagree",
                                              "its action needs a seat its words lack"]
    silent = dataclasses.replace(BY_ID["pause"], act=lambda _c: None)
    assert row_problems(silent, phrases) == ["no action"]
    untuned = dataclasses.replace(BY_ID["pause"], adapted=0.0)
    assert row_problems(untuned, phrases) == ["no recognizer thresholds"]


def test_the_recognizer_and_the_confirmation_read_the_table() -> None:
    assert {r.id: r.threshold for r in COMMANDS} == THRESHOLDS
    assert {r.id: r.adapted for r in COMMANDS} == ADAPTED_THRESHOLDS
    for row in COMMANDS:
        confirmer = Confirmer(FakeClock())
        decisions = confirmer.hear(Command(row.id, 3 if row.seat else None, row.seconds))
        kinds = {type(d) for d in decisions}
        if row.confirm:
            assert kinds == {Ask}, row.id
        elif not row.answer:
            assert kinds == {Act}, row.id
    assert to_action(Command("forfeit", 4)) == Forfeit(4)
    assert to_action(Command("add_time", None, ADD_TIME_SECONDS)) == AddTime(ADD_TIME_SECONDS)
