"""The state of every table of a round, as the organiser's page shows it: seated (its
round not sent yet), sent to its box, playing (since when, in which phase, as the box
says), delivered, or silent (its box has said nothing for a while: dead, off, out of the
network), with the games waiting in its box's outbox.

Pure: the caller gives the time (`now`) and the store's rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from narrator.tournament.store import BoxRow, GameRecord, Order

SILENT_AFTER = 60.0  # seconds without a word from a box: it is shown as silent


@dataclass(frozen=True)
class TableState:
    round: int
    table: int
    state: str  # "delivered", "playing", "sent", "seated", "no_box", "silent"
    box: str = ""
    since: float | None = None  # delivered at / playing since / sent at
    phase: str = ""  # "day" or "night" while playing, with its number
    number: int = 0
    heard: float | None = None  # the box's last word
    silent_for: float = 0.0  # seconds since it, when silent
    waiting: int = 0  # games waiting in its box's outbox
    game: str = ""  # the counted game's id


def current_round(seating: Mapping[int, Mapping[int, Sequence[int]]], games: Sequence[GameRecord]) -> int:
    """The first round with a table whose game is not in yet (the last when all are)."""
    done = {(g.round, g.table) for g in games}
    for rnd in sorted(seating):
        if any((rnd, table) not in done for table in seating[rnd]):
            return rnd
    return max(seating, default=1)


def tables(
    rnd: int,
    seating: Mapping[int, Mapping[int, Sequence[int]]],
    boxes: Sequence[BoxRow],
    orders: Sequence[Order],
    games: Sequence[GameRecord],
    tournament: str,
    now: float,
    silent_after: float = SILENT_AFTER,
) -> list[TableState]:
    by_table = {b.table: b for b in boxes if b.table is not None}
    counted = {(g.round, g.table): g for g in games}
    out = []
    for table in sorted(seating.get(rnd, {})):
        game = counted.get((rnd, table))
        box = by_table.get(table)
        if game is not None:
            out.append(TableState(rnd, table, "delivered", game.box, game.received, game=game.uid))
            continue
        sent = [o for o in orders if o.round == rnd and o.table == table]
        if box is None:
            out.append(TableState(rnd, table, "no_box"))
            continue
        status = box.status or {}
        waiting = int(status.get("waiting") or 0)
        mine = next((o for o in sent if o.box == box.name), None)
        if mine is None:
            # Sent to another box (a dead one this spare replaces): this one has not taken it.
            out.append(TableState(rnd, table, "seated", box.name, heard=box.heard, waiting=waiting))
            continue
        last = box.heard if box.heard is not None else mine.at
        quiet = now - last
        if quiet > silent_after:
            out.append(
                TableState(
                    rnd,
                    table,
                    "silent",
                    box.name,
                    mine.at,
                    heard=box.heard,
                    silent_for=quiet,
                    waiting=waiting,
                )
            )
            continue
        playing = (
            status.get("playing")
            and status.get("tournament") == tournament
            and (status.get("round"), status.get("table")) == (rnd, table)
        )
        if playing:
            since = status.get("since")
            out.append(
                TableState(
                    rnd,
                    table,
                    "playing",
                    box.name,
                    float(since) if since else None,
                    str(status.get("phase") or ""),
                    int(status.get("number") or 0),
                    box.heard,
                    waiting=waiting,
                )
            )
        else:
            out.append(TableState(rnd, table, "sent", box.name, mine.at, heard=box.heard, waiting=waiting))
    return out
