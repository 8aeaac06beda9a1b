"""narrator: a box that hosts a game of Mafia at a real table."""

__version__ = "0.1.0"
