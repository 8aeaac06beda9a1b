"""A pseudo-terminal for `narrator run`'s terminal keypad in the benches: a box must have
somewhere to show the checks' answers (mock pins are LEDs nobody sees), or it refuses
sport's set-up; the terminal keypad has a screen, but only on a terminal."""

from __future__ import annotations

import os
import pty
from collections.abc import Iterator
from contextlib import contextmanager

RUN_KEYPAD = ["--keypad", "terminal"]


@contextmanager
def keypad_terminal() -> Iterator[int]:
    """The terminal's end to give `narrator run` as stdin (closed on leaving; the keys'
    end is held open meanwhile so the keypad does not read an end of input)."""
    keys, terminal = pty.openpty()
    try:
        yield terminal
    finally:
        os.close(terminal)
        os.close(keys)
