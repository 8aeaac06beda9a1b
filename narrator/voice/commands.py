"""Voice commands: the value a recognizer hears, the table of commands (one row each: its
id, the action it means, whether it names a seat or waits for a "yes", its recognizer
thresholds), and the command set built from a phrase book.

A phrase in the book is a template; `{seat}` stands for a seat number word ("seven",
"семь"), seats 1 to MAX_SEAT. Every expanded phrase is a sentence of the grammar, and a
recognizer's words count as a command only when they are one of those sentences exactly.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
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


def _seat(command: Command) -> int:
    if command.seat is None:
        raise ValueError(f"{command.command} needs a seat")
    return command.seat


@dataclass(frozen=True, slots=True)
class VoiceCommand:
    """One voice command: the one place it is known. Its words are in the phrase books
    (en.yaml, ru.yaml) under `commands:` and its id."""

    id: str
    # The engine action it means; None for an answer ("yes", "no") to a confirmation.
    act: Callable[[Command], Action | None]
    # How closely PocketSphinx's two decoders must agree before the command stands
    # (narrator/voice/pocketsphinx_settings.py), without and with the club's adapted model.
    threshold: float
    adapted: float
    seat: bool = False  # its phrases name a seat: "{seat}"
    # Hard to take back, so it is repeated back and waits for a "yes"
    # (narrator/voice/command_confirm.py); the others act at once: a wrong one costs seconds.
    confirm: bool = False
    answer: bool = False  # "yes" or "no": no action of its own
    seconds: int | None = None  # the seconds it carries (add_time)


# PocketSphinx thresholds, per command (scripts/tune-listen on the tuning part: 14 commands,
# whole utterances, trim 15 dB, the free decoder without its flat pass, no early end, no
# threshold under 0.3: 32 talk clips cannot vouch for less): right 96 of 112 tuning
# commands, none of 32 tuning talk clips taken (99 with the tuned nominate 0.4 and repeat
# 0.35). Nominate and repeat stay at 0.55 all the same: lower, long nominations in
# tests/listen are heard with the wrong seat and "let me finish my thought" as "repeat my
# thought" (0.5). Forfeit is not tuned by scripts/tune-listen yet: 0.65 is the value its
# phrase was chosen with (p-fix).
# `adapted`: with an adaptation of the acoustic model (narrator adapt) both decoders hear
# commands alike more often, so the same rule picks stricter thresholds: scripts/tune-
# listen's rule on the tuning part, with the model scripts/adapt-listen makes from it (MAP
# means): 116 of 120 right, none of 32 talk clips taken (114 and none with `threshold`).
COMMANDS: tuple[VoiceCommand, ...] = (
    VoiceCommand("next_speaker", lambda _c: EndSpeech(), 0.35, 0.65),
    VoiceCommand("pause", lambda _c: Pause(), 0.65, 0.65),
    VoiceCommand("resume", lambda _c: Resume(), 0.65, 0.35),
    VoiceCommand("repeat", lambda _c: Repeat(), 0.55, 0.65),
    VoiceCommand("undo", lambda _c: Undo(), 0.35, 0.65, confirm=True),
    VoiceCommand("start_voting", lambda _c: StartVoting(), 0.65, 0.55),
    VoiceCommand("yes", lambda _c: None, 0.65, 0.7, answer=True),
    VoiceCommand("no", lambda _c: None, 0.7, 0.65, answer=True),
    VoiceCommand("add_time", lambda c: AddTime(c.seconds or ADD_TIME_SECONDS), 0.4, 0.55,
                 seconds=ADD_TIME_SECONDS),
    VoiceCommand("nominate", lambda c: Nominate(target=_seat(c)), 0.55, 0.75, seat=True,
                 confirm=True),
    VoiceCommand("foul", lambda c: Foul(_seat(c)), 0.65, 0.65, seat=True, confirm=True),
    VoiceCommand("remove", lambda c: Remove(_seat(c)), 0.45, 0.65, seat=True, confirm=True),
    VoiceCommand("next_game", lambda _c: NextGame(), 0.65, 0.45),
    # "abandon" ends the game: the evening's command, when it is spoken.
    VoiceCommand("abandon", lambda _c: AbandonGame(), 0.4, 0.65, confirm=True),
    # Sport's severe breach: gives the game to the other team.
    VoiceCommand("forfeit", lambda c: Forfeit(_seat(c)), 0.65, 0.55, seat=True, confirm=True),
)
BY_ID: Mapping[str, VoiceCommand] = MappingProxyType({c.id: c for c in COMMANDS})
# Views of the table, for those that need only one side of it.
COMMAND_IDS: tuple[str, ...] = tuple(BY_ID)
SEAT_COMMANDS = frozenset(c.id for c in COMMANDS if c.seat)
DESTRUCTIVE = frozenset(c.id for c in COMMANDS if c.confirm)
ANSWERS = frozenset(c.id for c in COMMANDS if c.answer)


def to_action(command: Command) -> Action | None:
    """The engine action a command means; None for the answers "yes" and "no"."""
    row = BY_ID.get(command.command)
    if row is None:
        raise ValueError(f"unknown command {command.command!r}")
    return row.act(command)


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
        return Command(name, seat, BY_ID[name].seconds, sentence, at)
