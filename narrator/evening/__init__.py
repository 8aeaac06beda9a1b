"""A club evening: the game set-up the keypad, voice and organiser's page share, the names
remembered on this box, and the evening's three operations (start a game with a set-up,
the next game with the same names, abandon the game). See narrator.evening.host."""

from narrator.evening.host import Evening, EveningError
from narrator.evening.setup import Event, GameSetup, Problem, SetupError, parse_names

__all__ = ["Evening", "EveningError", "Event", "GameSetup", "Problem", "SetupError", "parse_names"]
