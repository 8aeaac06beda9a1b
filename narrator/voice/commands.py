"""Voice commands: the value a recognizer hears, the command set built from a phrase book,
and the one place that says which engine action each command means.

A phrase in the book is a template; `{seat}` stands for a seat number word ("seven",
"семь"), seats 1 to MAX_SEAT. Every expanded phrase is a sentence of the grammar, and a
recognizer's words count as a command only when they are one of those sentences exactly.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from narrator.engine.actions import (
    Action,
    AddTime,
    EndSpeech,
    Forfeit,
    Foul,
    Nominate,
    Pause,
    Remove,
    Repeat,
    Resume,
    StartVoting,
    Undo,
)
from narrator.engine.requests import AbandonGame, NextGame
from narrator.errors import ConfigError
from narrator.phrases import numbers

MAX_SEAT = 16
ADD_TIME_SECONDS = 30

COMMAND_IDS: tuple[str, ...] = (
    "next_speaker", "pause", "resume", "repeat", "undo", "start_voting", "yes", "no",
    "add_time", "nominate", "foul", "remove", "next_game", "abandon", "forfeit",
)
SEAT_COMMANDS = frozenset({"nominate", "foul", "remove", "forfeit"})
# These change the game in a way that is hard to take back, so they are repeated back and
# wait for a "yes" ("abandon" ends the game: the evening's command, when it is spoken;
# "forfeit", sport's severe breach, gives the game to the other team).
# "next_speaker" and the timer commands act at once: a wrong one costs seconds.
DESTRUCTIVE = frozenset({"nominate", "foul", "remove", "undo", "abandon", "forfeit"})
# Answers to a confirmation (or to any yes/no question); they are no action of their own.
ANSWERS = frozenset({"yes", "no"})


@dataclass(frozen=True, slots=True)
class Command:
    """One recognised command. `at`: seconds from the start of the audio stream to the
    start of the spoken command; `text`: the words heard."""

    command: str
    seat: int | None = None
    seconds: int | None = None
    text: str = ""
    at: float = 0.0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"at": round(self.at, 2), "command": self.command}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.seconds is not None:
            out["seconds"] = self.seconds
        out["text"] = self.text
        return out


def to_action(command: Command) -> Action | None:
    """The engine action a command means; None for the answers "yes" and "no"."""
    name = command.command
    if name in SEAT_COMMANDS:
        if command.seat is None:
            raise ValueError(f"{name} needs a seat")
        if name == "nominate":
            return Nominate(target=command.seat)
        if name == "forfeit":
            return Forfeit(command.seat)
        return Foul(command.seat) if name == "foul" else Remove(command.seat)
    if name == "add_time":
        return AddTime(command.seconds or ADD_TIME_SECONDS)
    simple: dict[str, Action] = {
        "next_speaker": EndSpeech(), "pause": Pause(), "resume": Resume(), "repeat": Repeat(),
        "undo": Undo(), "start_voting": StartVoting(),
        "next_game": NextGame(), "abandon": AbandonGame(),
    }
    if name in simple:
        return simple[name]
    if name in ANSWERS:
        return None
    raise ValueError(f"unknown command {name!r}")


_WORD = re.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*")


def words_of(text: str) -> list[str]:
    """Lower-case words, punctuation dropped: how phrases and heard text are compared."""
    return _WORD.findall(text.lower())


class CommandSet:
    """Every sentence that is a command in one language, and what each one means."""

    def __init__(self, phrases: Mapping[str, Sequence[str]], seat_words: Sequence[str],
                 wake_word: str | None = None, source: str = "commands") -> None:
        self.source = source
        self.seat_words = tuple(" ".join(words_of(w)) for w in seat_words)
        self.wake = tuple(words_of(wake_word)) if wake_word else ()
        sentences: dict[str, tuple[str, int | None]] = {}
        for name, templates in phrases.items():
            if name not in COMMAND_IDS:
                raise ConfigError(source, f"commands.{name}",
                                  f"unknown command (known: {', '.join(COMMAND_IDS)})")
            for template in templates:
                for sentence, seat in self._expand(name, template):
                    other = sentences.get(sentence)
                    if other is not None and other != (name, seat):
                        raise ConfigError(source, f"commands.{name}",
                                          f"{sentence!r} also means {other[0]}")
                    sentences[sentence] = (name, seat)
        missing = [c for c in COMMAND_IDS if c not in phrases]
        if missing:
            raise ConfigError(source, "commands", f"no phrases for {', '.join(missing)}")
        self._sentences = sentences

    @classmethod
    def for_language(cls, lang: str, wake_word: str | None = None) -> CommandSet:
        """The commands of the bundled phrase book for `lang`."""
        from narrator.phrases.book import PhraseBook

        book = PhraseBook.load(lang)
        seats = [numbers.cardinal(n, lang) for n in range(1, MAX_SEAT + 1)]
        return cls(book.commands, seats, wake_word, book.source)

    def _expand(self, name: str, template: str) -> list[tuple[str, int | None]]:
        has_seat = "{seat}" in template
        if has_seat != (name in SEAT_COMMANDS):
            need = "needs" if name in SEAT_COMMANDS else "takes no"
            raise ConfigError(self.source, f"commands.{name}",
                              f"{template!r}: this command {need} {{seat}}")
        head, _, tail = template.partition("{seat}")
        if not words_of(template.replace("{seat}", "")) and not has_seat:
            raise ConfigError(self.source, f"commands.{name}", f"{template!r} has no words")
        if not has_seat:
            return [(self._sentence(template), None)]
        return [(self._sentence(f"{head} {word} {tail}"), n)
                for n, word in enumerate(self.seat_words, start=1)]

    def _sentence(self, text: str) -> str:
        return " ".join((*self.wake, *words_of(text)))

    @property
    def sentences(self) -> Mapping[str, tuple[str, int | None]]:
        """Every command sentence (wake word included) and its (command id, seat)."""
        return self._sentences

    def vocabulary(self) -> set[str]:
        return {w for s in self._sentences for w in s.split()}

    def parse(self, text: str, at: float = 0.0) -> Command | None:
        """The command these words are, or None when they are not exactly a command."""
        sentence = " ".join(words_of(text))
        found = self._sentences.get(sentence)
        if found is None:
            return None
        name, seat = found
        seconds = ADD_TIME_SECONDS if name == "add_time" else None
        return Command(name, seat, seconds, sentence, at)
