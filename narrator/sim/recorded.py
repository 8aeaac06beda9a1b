"""A simulated game written as a box writes it: its journal (narrator.records.journal) and
its protocol files, in a state folder, in a fraction of a second (no clock, no box). The
simulated players (narrator.sim.selfplay) play it; every action they took is then played
again through a GameSession, which journals it and writes the protocol at the end.

For the tournament's benchmark and tests: many finished games of given players at given
tables, each one a box could have delivered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from narrator.engine.actions import Action
from narrator.engine.deal import deal
from narrator.records.journal import GameHeader, games_dir
from narrator.records.protocol import protocol_paths
from narrator.records.session import GameSession, protocols_dir
from narrator.rules.configured import resolve
from narrator.sim.selfplay import play


@dataclass(frozen=True)
class Recorded:
    game_id: str
    protocol: Path
    journal: Path


def record_game(
    state_dir: Path,
    rules: str,
    seed: int,
    names: Sequence[str] = (),
    event: Mapping[str, Any] | None = None,
    settings: Mapping[str, Any] | None = None,
    seats: int = 10,
    game_id: str = "",
    wall: float = 1_790_000_000.0,
) -> Recorded:
    """One whole game of simulated players, journalled and its protocol written."""
    configured = resolve(rules, settings or {}, seats)
    actions: list[Action] = []
    play(configured.rules, seed, seats, record=actions)
    cards = tuple(deal(configured.rules, seats, seed))
    header = GameHeader(
        rules=rules,
        seats=seats,
        seed=seed,
        settings=configured.resolved_settings(),
        roles=cards,
        game_id=game_id,
        names=tuple(names),
        event=dict(event or {}),
        deal="phone",
        input="pads",
    )
    clock = [wall]

    def now() -> float:
        clock[0] += 1.0
        return clock[0]

    session, _opening = GameSession.start(state_dir, header, wall=now)
    for at, action in enumerate(actions):
        session.apply(action, float(at))
    if not session.over:
        raise RuntimeError(f"seed {seed}: the replayed game did not end")
    gid = session.header.game_id
    return Recorded(
        gid, protocol_paths(protocols_dir(state_dir), gid)["json"], games_dir(state_dir) / f"{gid}.jsonl"
    )
