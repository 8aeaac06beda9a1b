"""What a device may ask of the evening rather than of the game: the next game, or to
abandon the game in play. They travel the devices' sinks like actions but never reach the
engine or the journal: the service takes them (narrator.box.service, narrator.box.evening).

They live beside the actions they travel with, though the engine never sees them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from narrator.engine.actions import Action


@dataclass(frozen=True, slots=True)
class NextGame(Action):
    """Start the next game with the same names and seats (Enter after a game, "next game")."""

    kind: ClassVar[str] = "next_game"


@dataclass(frozen=True, slots=True)
class AbandonGame(Action):
    """End the game in play without a result (asked twice, or confirmed by "yes")."""

    kind: ClassVar[str] = "abandon_game"


EVENING_REQUESTS = (NextGame, AbandonGame)
