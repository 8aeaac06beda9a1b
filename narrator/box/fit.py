"""What this box can play, by the devices it has: the input method a set-up's cues name,
where a check's answer shows, and why a set-up can't be played here."""

from __future__ import annotations

from narrator.box.ports import Ports, input_method
from narrator.devices.display import AnswerDisplay
from narrator.evening import GameSetup, Problem
from narrator.evening.answers import answer_display_problem, answer_place, without_display
from narrator.keypad_kinds import no_screen


class Fit:
    def __init__(self, ports: Ports, input_setting: str) -> None:
        self.ports = ports
        self.input_setting = input_setting

    def method(self, setup: GameSetup) -> str:
        """The game's input method: its set-up's (the page's choice), else the box's
        `input` setting; auto by the devices the box has."""
        chosen = setup.input if setup.input != "auto" else self.input_setting
        return input_method(chosen, self.ports)

    @property
    def displays(self) -> list[AnswerDisplay]:
        """The keypads' screens (answers show there when there is no seat panel)."""
        return [k.display for k in self.ports.keypads if k.display is not None]

    @property
    def screens(self) -> list[AnswerDisplay]:
        """Where the keypads' screens show the answers: without a seat panel, or with one on
        mock pins (a laptop: LEDs nobody sees)."""
        panel = self.ports.panel
        return self.displays if panel is None or panel.mock else []

    @property
    def answer_place(self) -> str:
        """Where a check's answer shows on this box (phrases.book.ANSWER_PLACES), which the
        checkers' cues name: the hardware decides, the same for every game and every role."""
        panel = self.ports.panel
        return answer_place(bool(self.displays), panel is not None and not panel.mock)

    def check(self, setup: GameSetup) -> Problem | None:
        """Why this box can't play `setup` (None: it can): the players must have what the
        cues tell them to use, and the answers somewhere to show."""
        method = self.method(setup)
        if method in ("pads", "both") and self.ports.panel is None:
            return Problem("input", "input_no_pads",
                           f"input: {method}, but this box has no seat pads (no seat panel): "
                           f"choose keypad or auto")
        if method in ("keypad", "both") and not self.ports.keypads:
            return Problem("input", "input_no_keypad",
                           f"input: {method}, but this box has no keypad (keypad: none): "
                           f"choose pads or auto, or set keypad: in the config")
        panel = self.ports.panel
        mock = panel is not None and panel.mock  # a laptop's mock pins: LEDs nobody sees
        if (panel is not None and not mock) or self.displays:
            return None
        words = [no_screen(k.kind) for k in self.ports.keypads]
        return answer_display_problem(setup, without_display(words, mock))
