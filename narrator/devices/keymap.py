"""The keypad map: every key of every keypad, and what it means. The one place for it.

All keypads (USB numeric via evdev, 4x4 GPIO matrix, terminal) and the host's buttons
turn their keys into the same key names, and `KeypadDecoder` turns key names into
actions:

| keys                    | action                                    |
|-------------------------|-------------------------------------------|
| digits, Enter           | Entry(number)  (0 = nobody)               |
| Enter (nothing typed)   | Count(): the hands for this candidate are counted |
| M  .  N, Enter          | Nominate(N, by=M): seat M nominates, proposes or accuses N |
| /  digits, Enter        | Foul(seat)                                |
| /  Enter                | StartVoting()                             |
| /  0  Enter             | AbandonGame() (twice within 15 s to confirm) |
| /  /  N, Enter          | Forfeit(N): sport's severe breach (twice, as the abandon) |
| .  (Del)                | EndSpeech()    ("next speaker")           |
| -                       | Pause(), or Resume() when paused          |
| +                       | AddTime(30); digits then + adds that many |
| *                       | Undo(); while typing, deletes a digit (after M ., back to M) |
| Backspace               | deletes a digit (then leaves / mode)      |
| Esc                     | clears what is typed                      |

On a 4x4 membrane keypad: A = /, B = -, C = +, D = ., # = Enter, * = *.
Host buttons: next = ., pause = -, undo = *, add_time = +.

A ballot the host counts (a voter's seat typed, or a table without pads) waits for the bare
Enter: the rule set's seconds are the pads' limit, not the host's.

`M . N Enter` names who nominates: classic's accuser (so the accuser cannot second their
own accusation and is called by number to explain), the boxed proposer, or the speaker.
The dot, not `*`: `*` is the only delete key of a 4x4 membrane keypad. A dot with nothing
typed is still "next speaker".
"""

from __future__ import annotations

from dataclasses import dataclass

from narrator.engine.actions import (
    Action,
    AddTime,
    Count,
    EndSpeech,
    Entry,
    Forfeit,
    Foul,
    Nominate,
    Pause,
    Resume,
    StartVoting,
    Undo,
)
from narrator.engine.requests import AbandonGame

DIGITS = tuple("0123456789")
KEYS = (*DIGITS, "enter", "backspace", "clear", "/", "*", "-", "+", ".")
MAX_DIGITS = 3
DEFAULT_ADD_SECONDS = 30

# evdev key code names -> key names. The keypad codes are the same with NumLock off:
# the kernel reports keys, NumLock is applied later by the console or X.
EVDEV_KEYS: dict[str, str] = {
    **{f"KEY_KP{d}": d for d in DIGITS},
    **{f"KEY_{d}": d for d in DIGITS},
    "KEY_KPENTER": "enter", "KEY_ENTER": "enter",
    "KEY_BACKSPACE": "backspace", "KEY_ESC": "clear",
    "KEY_KPSLASH": "/", "KEY_SLASH": "/",
    "KEY_KPASTERISK": "*",
    "KEY_KPMINUS": "-", "KEY_MINUS": "-",
    "KEY_KPPLUS": "+",
    "KEY_KPDOT": ".", "KEY_KPCOMMA": ".", "KEY_DOT": ".", "KEY_DELETE": ".",
}

# Labels printed on a 4x4 membrane keypad -> key names.
MATRIX_KEYS: dict[str, str] = {
    **{d: d for d in DIGITS},
    "A": "/", "B": "-", "C": "+", "D": ".", "#": "enter", "*": "*",
}

# Characters typed on a terminal -> key names.
TERMINAL_KEYS: dict[str, str] = {
    **{d: d for d in DIGITS},
    "\n": "enter", "\r": "enter", "\x7f": "backspace", "\b": "backspace", "\x1b": "clear",
    "/": "/", "*": "*", "-": "-", "+": "+", ".": ".",
}

# What the terminal keypad prints once when it starts: a laptop's players learn the keys
# from the screen they type on (nothing typed shows there). Both languages, line by line.
TERMINAL_HELP: dict[str, tuple[str, ...]] = {
    "en": (
        "The keypad is this keyboard; nothing typed shows on the screen.",
        "  N Enter   seat N: your choice at night, the speaker's nomination by day (0 Enter: nobody)",
        "  Enter     alone, in a ballot: the hands are counted",
        "  M . N Enter  seat M nominates N    / N Enter  a foul on N    / Enter  to the vote",
        "  .  next speaker   -  pause, resume   +  30 s more   *  undo   Esc  clear what is typed",
        "  / 0 Enter  (twice) abandon the game",
    ),
    "ru": (
        "Эта клавиатура — клавиатура игры; набранное на экране не видно.",
        "  N Enter   место N: ваш выбор ночью, выставление говорящего днём (0 Enter: никто)",
        "  Enter     один, в голосовании: руки подсчитаны",
        "  M . N Enter  место M выставляет N    / N Enter  фол месту N    / Enter  к голосованию",
        "  .  следующий   -  пауза, продолжить   +  ещё 30 с   *  отменить   Esc  стереть набранное",
        "  / 0 Enter  (дважды) прервать игру",
    ),
}

# The host's optional buttons (pin map `host_buttons`) -> key names.
HOST_BUTTON_KEYS: dict[str, str] = {"next": ".", "pause": "-", "undo": "*", "add_time": "+"}


@dataclass(slots=True)
class KeypadDecoder:
    """Key names in, actions out. Holds what is typed so far and whether the game is paused
    (the daemon calls `set_paused` when it carries out PauseTimers / ResumeTimers)."""

    typed: str = ""
    host_mode: bool = False
    paused: bool = False
    by: str = ""  # M of `M . N Enter`, once the dot is pressed
    severe: bool = False  # `/ /`: the host's severe-breach key (forfeit), not a foul

    def set_paused(self, paused: bool) -> None:
        self.paused = paused

    def press(self, key: str) -> Action | None:
        if key in DIGITS:
            if len(self.typed) < MAX_DIGITS:
                self.typed += key
            return None
        if key == "backspace" or (key == "*" and (self.typed or self.host_mode or self.by)):
            if self.typed:
                self.typed = self.typed[:-1]
            elif self.by:
                self.typed, self.by = self.by, ""  # back to editing M
            elif self.severe:
                self.severe = False  # back to `/`
            else:
                self.host_mode = False
            return None
        if key == "." and self.typed and not self.host_mode and not self.by:
            self.typed, self.by = "", self.typed
            return None
        if key == "clear":
            self._reset()
            return None
        if key == "/":
            # A second `/` with nothing typed: the forfeit, confirmed by the box (`/ 3 /`
            # still starts `/` again).
            self.severe = self.host_mode and not self.typed
            self.typed, self.host_mode = "", True
            return None
        action = self._command(key)
        self._reset()
        return action

    def _command(self, key: str) -> Action | None:
        if key == "enter":
            if self.by:
                return Nominate(int(self.typed), by=int(self.by)) if self.typed else None
            if self.severe:
                return Forfeit(int(self.typed)) if self.typed and int(self.typed) else None
            if self.host_mode:
                if self.typed and int(self.typed) == 0:
                    return AbandonGame()  # no seat 0: the evening's abandon
                return Foul(int(self.typed)) if self.typed else StartVoting()
            return Entry(int(self.typed)) if self.typed else Count()
        if key == "*":
            return Undo()
        if key == "-":
            self.paused = not self.paused
            return Pause() if self.paused else Resume()
        if key == "+":
            return AddTime(int(self.typed) if self.typed else DEFAULT_ADD_SECONDS)
        if key == ".":
            return EndSpeech()
        raise ValueError(f"unknown key {key!r} (known: {', '.join(KEYS)})")

    def _reset(self) -> None:
        self.typed, self.host_mode, self.by, self.severe = "", False, "", False

    def keys(self, keys: str | list[str]) -> list[Action]:
        """Press several keys; a string is read as terminal characters."""
        names = [TERMINAL_KEYS[c] for c in keys if c in TERMINAL_KEYS] \
            if isinstance(keys, str) else keys
        return [a for k in names if (a := self.press(k)) is not None]


class HostKeys:
    """The host's buttons: each press is one key of the same map."""

    def __init__(self) -> None:
        self.decoder = KeypadDecoder()

    def set_paused(self, paused: bool) -> None:
        self.decoder.set_paused(paused)

    def button(self, name: str) -> Action | None:
        self.decoder._reset()
        return self.decoder.press(HOST_BUTTON_KEYS[name])
