"""What a device may ask of the evening rather than of the game: the next game, or to
abandon the game in play. They travel the devices' sinks like actions but never reach the
engine or the journal: the service takes them (narrator.service, narrator.evening).

They live in the engine's package, though the engine never sees them, because they are
actions: compiled by mypyc (scripts/build_engine.py), `Action` cannot be subclassed by an
interpreted class."""

from __future__ import annotations

from dataclasses import dataclass

from narrator.engine.actions import Action


@dataclass(frozen=True, slots=True)
class NextGame(Action):
    """Start the next game with the same names and seats (Enter after a game, "next game")."""


NextGame.kind = "next_game"


@dataclass(frozen=True, slots=True)
class AbandonGame(Action):
    """End the game in play without a result (asked twice, or confirmed by "yes")."""


AbandonGame.kind = "abandon_game"

EVENING_REQUESTS = (NextGame, AbandonGame)
