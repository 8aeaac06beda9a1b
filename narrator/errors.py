"""The project's errors.

Like gpiozero's, each error subclasses both the project's base error and the builtin a
caller would naturally catch, so `except ValueError` keeps working for library users.
"""

from __future__ import annotations


class NarratorError(Exception):
    """Base of every error this project raises on purpose."""


class RuleError(NarratorError, ValueError):
    """An action that the rules do not allow in the current state. The state is unchanged.

    The message is English, for the log and the journal's readers; `code` (with `params`,
    seat numbers) names the refusal so that the organiser's page can say it in its own
    language (narrator/web/words: `refusals.<code>`). A refusal without a code shows there
    as the page's general "not allowed now"."""

    def __init__(self, message: str, code: str = "", **params: int) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class InputFileError(NarratorError, ValueError):
    """A file we were given (config, rule set, pin map, game record) is wrong.

    The message names the file, the place in it and the problem, on one line, so the
    command line can print it as it is and exit 2.
    """

    def __init__(self, path: str, where: str, problem: str) -> None:
        self.path = path
        self.where = where
        self.problem = problem
        place = f": {where}" if where else ""
        # One line whatever the file holds: a key or a value quoted from it may hold a
        # line break (YAML's `? "a\nb"`) or a terminal's escape sequence.
        super().__init__(_one_line(f"{path}{place}: {problem}"))


# Control characters and every other line break, escaped as Python writes them.
_ESCAPES = {c: repr(chr(c))[1:-1] for c in [*range(32), 0x7F, 0x85, 0x2028, 0x2029] if c != 9}


def _one_line(text: str) -> str:
    return text.translate(_ESCAPES)


class ConfigError(InputFileError):
    """A wrong settings file or command-line value."""


class RuleSetError(InputFileError):
    """A wrong rule-set file."""


class PinMapError(InputFileError):
    """A wrong pin map."""


class SeatsNotWired(PinMapError):
    """A table larger than the pin map wires; `wired`: the seats it has."""

    def __init__(self, path: str, key: str, message: str, wired: int) -> None:
        super().__init__(path, key, message)
        self.wired = wired


class RecordError(InputFileError):
    """An unreadable or malformed game record or journal."""


class DeviceError(NarratorError, OSError):
    """A device (audio, GPIO, keypad, microphone) failed or is missing."""
