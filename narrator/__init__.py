"""narrator: a box that hosts a game of Mafia at a real table."""

from narrator import compiled

__version__ = "0.1.0"

# The compiled engine when it is built and up to date, else the source (narrator.compiled).
compiled.use()
