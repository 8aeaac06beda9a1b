"""A club evening's set-up values: the game set-up the keypad, voice and organiser's page
share (narrator.evening.setup), the names and last set-up remembered on this box
(narrator.evening.memory) and where a set-up's check answers show
(narrator.evening.answers). The evening's operations run in narrator.box.evening."""

from narrator.evening.setup import Event, GameSetup, Problem, SetupError, parse_names

__all__ = ["Event", "GameSetup", "Problem", "SetupError", "parse_names"]
