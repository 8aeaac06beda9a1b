"""The project's errors.

Like gpiozero's, each error subclasses both the project's base error and the builtin a
caller would naturally catch, so `except ValueError` keeps working for library users.
"""

from __future__ import annotations


class NarratorError(Exception):
    """Base of every error this project raises on purpose."""


class RuleError(NarratorError, ValueError):
    """An action that the rules do not allow in the current state. The state is unchanged."""


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
        super().__init__(f"{path}{place}: {problem}")


class ConfigError(InputFileError):
    """A wrong settings file or command-line value."""


class RuleSetError(InputFileError):
    """A wrong rule-set file."""


class PinMapError(InputFileError):
    """A wrong pin map."""


class RecordError(InputFileError):
    """An unreadable or malformed game record or journal."""


class DeviceError(NarratorError, OSError):
    """A device (audio, GPIO, keypad, microphone) failed or is missing."""
