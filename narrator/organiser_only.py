"""Log lines that hold what grants control (the page's PIN), kept off the table's terminal.

On a laptop (`narrator run --keypad terminal`) the log goes to the terminal every player
types on at night: a PIN printed there is seen by the table for the whole evening (in
the scrollback too), and in a judge's game it opens the judge's page with every role. A
record logged with `extra=table_text("...")` is written as it is to every other log (the
journal on a Pi, a file), and as the text given to a terminal the table reads: the
terminal keypad marks its own terminal's log handlers with `hide_on` when it is made, so
the record is replaced before anything reaches the screen.
"""

from __future__ import annotations

import logging

_KEY = "narrator_table_text"


def table_text(words: str) -> dict[str, object]:
    """`extra=` for a record the table may not read: `words` are shown in its place."""
    return {_KEY: words}


class _TableFormatter(logging.Formatter):
    """The handler's own formatter, with an organiser-only record's table text put in."""

    def __init__(self, inner: logging.Formatter | None) -> None:
        super().__init__()
        self.inner = inner or logging.Formatter()

    def format(self, record: logging.LogRecord) -> str:
        words = getattr(record, _KEY, None)
        if isinstance(words, str):
            record = logging.makeLogRecord({**record.__dict__, "msg": words, "args": None})
        return self.inner.format(record)


def hide_on(handler: logging.Handler) -> None:
    """`handler` writes where the table reads: organiser-only records show their table
    text there."""
    if not isinstance(handler.formatter, _TableFormatter):
        handler.setFormatter(_TableFormatter(handler.formatter))
