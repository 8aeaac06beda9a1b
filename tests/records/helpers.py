"""Whole games played by simulated players through a GameSession, for the journal and
protocol tests. Nothing waits: `at` counts actions and the wall clock is a counter."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from pathlib import Path

from narrator.engine.actions import Action, Undo, WindowClosed
from narrator.engine.deal import deal
from narrator.engine.game import Game
from narrator.engine.state import State
from narrator.errors import RuleError
from narrator.records.journal import GameHeader
from narrator.rules.loader import load_bundled
from narrator.sim.players import Table

DATA = Path(__file__).resolve().parents[1] / "data" / "polemica"
COMPLETE_GAMES = ["270561", "272910", "334187", "598995"]


class FakeWall:
    """A wall clock that moves one second per reading, so files get stable times."""

    def __init__(self, start: float = 1_750_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def header(seed: int, rules: str = "sport", lang: str = "en") -> GameHeader:
    rule_set = load_bundled(rules)
    seats = rule_set.min_seats
    return GameHeader(rules=rules, seats=seats, seed=seed, lang=lang,
                      roles=tuple(deal(rule_set, seats, seed)), game_id=f"game-{seed}",
                      started="2025-06-15T12:00:00")


def drive(rules: str, seed: int, apply: Callable[[Action], object], state_of: Callable[[], State],
          undo_rate: float = 0.0, limit: int = 20_000) -> int:
    """Play until the game is over; returns how many actions were applied. `apply` raises
    RuleError for an action the rules refuse; `state_of()` is the game's state now (the
    session behind it may be replaced by a restart). With `undo_rate` the host sometimes
    undoes the action just made."""
    table = Table(load_bundled(rules), seed)
    rng = random.Random(seed)
    applied = 0
    for _ in range(limit):
        if state_of().phase == "over":
            return applied
        batch = [*table.respond(state_of()), WindowClosed(state_of().window)]
        for action in batch:
            if isinstance(action, WindowClosed):
                action = WindowClosed(state_of().window)
            try:
                apply(action)
            except RuleError:
                continue
            applied += 1
            if state_of().phase == "over":
                return applied
            if rng.random() < undo_rate:
                apply(Undo())
                applied += 1
                if isinstance(action, WindowClosed):
                    break  # the window is open again; the players may act anew
    raise AssertionError(f"seed {seed}: no end in {limit} rounds")


class Reached(Exception):
    """Raised by a driven game's apply to stop the simulated table where a test wants it."""


def game_at(rules: str, seed: int, where: Callable[[State], bool]) -> Game:
    """A game played by the simulated table until `where(state)` holds."""
    rule_set = load_bundled(rules)
    game = Game(rule_set, roles=deal(rule_set, rule_set.min_seats, seed))

    def apply(action: Action) -> None:
        game.apply(action)
        if where(game.state):
            raise Reached

    with contextlib.suppress(Reached):
        drive(rules, seed, apply, lambda: game.state)
    assert where(game.state), "the game never got there"
    return game
