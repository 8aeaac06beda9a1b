"""A club evening's set-up values: the game set-up the keypad, voice and organiser's page
share (narrator.evening.setup: the rule set, the table, the names, the next game's) and
where a set-up's check answers show (narrator.evening.answers). The evening's operations
run in narrator.box.evening, and the last set-up is remembered by narrator.box.memory."""

from narrator.evening.setup import Event, GameSetup, Problem, SetupError, parse_names

__all__ = ["Event", "GameSetup", "Problem", "SetupError", "parse_names"]
