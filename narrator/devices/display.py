"""The AnswerDisplay port: the keypad's screen, where a check's answer is shown when the
box has no answer LEDs (a laptop with `--keypad terminal`, a box without a seat panel).

DESIGN.md invariant 3: the answer is shown for a fixed time, never spoken. The screen
shows one line for exactly the answer's window and then wipes it: the line is drawn with a
carriage return and "erase line", never a newline, so when it is wiped nothing is left on
the screen or in the scrollback. The performer shows a decoy (a dead checker's window)
exactly like an answer, so the screen's activity is the same whoever is alive.

- TerminalDisplay: the terminal the terminal keypad reads (its tty, never a file: a
  redirected stdout would keep the answer). Log lines written to the same terminal while
  an answer is up wipe it first and draw it again after (`guard`), so the answer never
  scrolls up into the scrollback.
- FakeDisplay: records what was shown, when, and when it was wiped.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TextIO

from narrator.clock import Clock
from narrator.devices.timing import Alarm
from narrator.organiser_only import hide_on

# Carriage return + erase the whole line: draws and wipes in place, no newline.
WIPE = "\r\x1b[2K"
# Every answer takes the same width on the screen (a glance at its length tells nothing).
WIDTH = 24

# The screen's words (shown, never spoken): yes / no, and night zero's count of seats heard.
WORDS: dict[str, dict[str, str]] = {
    "en": {"yes": "YES", "no": "NO", "count": "heard: {n}", "answer": "answer",
           "reveal": "the cards"},
    "ru": {"yes": "ДА", "no": "НЕТ", "count": "услышано: {n}", "answer": "ответ",
           "reveal": "карты"},
}


class AnswerDisplay(Protocol):
    def show(self, text: str) -> None:
        """Show `text` until `wipe` (the performer times it: AnswerTimer)."""
        ...

    def wipe(self) -> None: ...


def answer_text(lang: str, answer: str, code: int, card_name: str = "") -> str:
    """What the screen shows for a ShowAnswer: yes/no in the game's language, night zero's
    count, or a card's name (a boxed commissar's check)."""
    words = WORDS.get(lang, WORDS["en"])
    if answer in ("yes", "no"):
        word = words[answer]
    elif answer == "count":
        word = words["count"].format(n=code)
    else:
        word = card_name or answer
    return f"{words['answer']}: {word}"


def reveal_text(lang: str, cards: Sequence[tuple[str, Sequence[int]]]) -> str:
    """The end of a game: the cards not of the town and their seats ("Don 7 · Mafia 2, 4"),
    as the seat LEDs blink them."""
    words = WORDS.get(lang, WORDS["en"])
    shown = " · ".join(f"{name} {', '.join(str(s) for s in seats)}" for name, seats in cards)
    return f"{words['reveal']}: {shown}"


class AnswerTimer:
    """Shows an answer on every display for exactly its time on the clock, then wipes it.
    A new answer replaces the one still up (its time starts again)."""

    def __init__(self, clock: Clock, displays: Sequence[AnswerDisplay]) -> None:
        self.clock = clock
        self.displays = list(displays)
        self._alarm: Alarm | None = None

    def show(self, text: str, seconds: float) -> None:
        if self._alarm is None:  # made here: an Alarm needs the running loop
            self._alarm = Alarm(self.clock, lambda _now: self._wipe())
        for display in self.displays:
            display.show(text)
        self._alarm.at(self.clock.now() + seconds)

    def _wipe(self) -> None:
        for display in self.displays:
            display.wipe()

    def close(self) -> None:
        if self._alarm is not None and self._alarm.when is not None:
            self._alarm.at(None)
            self._wipe()


class TerminalDisplay:
    """One line of a terminal, drawn in place and wiped in place."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.shown = ""  # the line on the screen now ("" : none)
        self._guarded: list[tuple[logging.StreamHandler[TextIO], TextIO]] = []

    @classmethod
    def for_terminal(cls, fd: int) -> TerminalDisplay | None:
        """The display on the terminal of `fd` (opened again for writing), or None when
        `fd` is no terminal: an answer must never go to a file or a pipe."""
        try:
            if not os.isatty(fd):
                return None
            out = open(os.ttyname(fd), "w", encoding="utf-8", errors="replace")  # noqa: SIM115
        except OSError:
            return None
        return cls(out)

    def show(self, text: str) -> None:
        self.shown = f" {text} ".center(WIDTH)
        self._draw()

    def wipe(self) -> None:
        self.shown = ""
        self._write(WIPE)

    def lines(self, lines: Sequence[str]) -> None:
        """Plain lines above the answer's place (the keypad's help)."""
        self._write("".join(f"{WIPE}{line}\n" for line in lines))
        if self.shown:
            self._draw()

    def _draw(self) -> None:
        # Reverse video: a plain line among the log lines would be easy to miss.
        self._write(f"{WIPE}\x1b[7m{self.shown}\x1b[0m" if self.shown else WIPE)

    def _write(self, text: str) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.out.write(text)
            self.out.flush()

    # log lines on the same terminal
    def guard(self, logger: logging.Logger | None = None) -> None:
        """Log handlers that write to this terminal wipe the answer before a line and draw
        it again after, so it never scrolls up into the scrollback."""
        for handler in (logger or logging.getLogger()).handlers:
            if type(handler) is logging.StreamHandler and _same_terminal(handler.stream, self.out):
                old = handler.setStream(_Guarded(handler.stream, self))
                if old is not None:
                    self._guarded.append((handler, old))

    def keep_secrets_off(self, logger: logging.Logger | None = None) -> None:
        """This terminal is the table's: log lines that grant control (the page's PIN) show
        their table text on it (narrator.organiser_only)."""
        for handler in (logger or logging.getLogger()).handlers:
            if type(handler) is logging.StreamHandler and _same_terminal(handler.stream, self.out):
                hide_on(handler)

    def unguard(self) -> None:
        for handler, stream in self._guarded:
            handler.setStream(stream)
        self._guarded.clear()

    def close(self) -> None:
        if self.shown:
            self.wipe()
        self.unguard()
        with contextlib.suppress(OSError):
            self.out.close()


class _Guarded:
    """A log stream that keeps the display's line below whatever is logged."""

    def __init__(self, stream: TextIO, display: TerminalDisplay) -> None:
        self.stream = stream
        self.display = display

    def write(self, text: str) -> int:
        up = bool(self.display.shown)
        if up:
            self.stream.write(WIPE)
        n = self.stream.write(text)
        if up:
            self.stream.flush()
            self.display._draw()
        return n

    def flush(self) -> None:
        self.stream.flush()


def _same_terminal(stream: TextIO, out: TextIO) -> bool:
    try:
        a, b = stream.fileno(), out.fileno()
        return os.isatty(a) and os.path.samefile(os.ttyname(a), os.ttyname(b))
    except (AttributeError, OSError, ValueError):
        return False


@dataclass
class Shown:
    text: str
    at: float
    until: float | None = None  # when it was wiped (None: still up)


class FakeDisplay:
    """A keypad's screen for tests: every text shown, with when it came and went on
    `clock` (0.0 without one)."""

    def __init__(self, clock: Clock | None = None) -> None:
        self.clock = clock
        self.shown: list[Shown] = []

    def _now(self) -> float:
        return self.clock.now() if self.clock is not None else 0.0

    @property
    def current(self) -> str:
        return self.shown[-1].text if self.shown and self.shown[-1].until is None else ""

    def show(self, text: str) -> None:
        self.wipe()
        self.shown.append(Shown(text, self._now()))

    def wipe(self) -> None:
        if self.shown and self.shown[-1].until is None:
            self.shown[-1].until = self._now()
