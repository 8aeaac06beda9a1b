"""The field changing between rounds: a late arrival, a withdrawal (the rounds not yet
sent are seated again for the players present, the rounds sent or played counting in
every balance), and a substitute in one seat of a round whose game is not in.

A re-seat keeps every player at the tournament's games (a tournament of "every player
every round" takes its rounds as the games); when the games left do not fill whole
tables, the players with the most games left play one fewer (a late arrival before the
others), and the notice names them. Once a later stage is seated the field is fixed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from narrator.errors import ConfigError
from narrator.tournament.event import Tournament
from narrator.tournament.field import short_of_tables
from narrator.tournament.seating import SeatingError, seat_named
from narrator.tournament.store import Player, Store, StoreError


class Collector(Protocol):
    """What a change of the field needs of the collector."""

    store: Store
    t: Tournament


@dataclass(frozen=True)
class Reseated:
    first: int  # the first round seated again
    last: int
    fewer: list[str]  # the players who play one game fewer


def withdrawn(c: Collector) -> set[int]:
    return {int(p) for p in c.store.get("withdrawn", [])}


def find(c: Collector, name: str) -> Player:
    key = name.strip().casefold()
    for p in c.store.players():
        if p.name.casefold() == key:
            return p
    raise StoreError("no_player", name=name.strip() or "-")


def withdraw(c: Collector, name: str) -> Reseated:
    player = find(c, name)
    gone = withdrawn(c)
    if player.id in gone:
        raise StoreError("withdrawn_already", name=player.name)
    _fixed(c)
    before = sorted(gone)
    c.store.put(withdrawn=sorted(gone | {player.id}))
    try:
        return reseat(c)
    except StoreError:
        c.store.put(withdrawn=before)
        raise


def arrive(c: Collector, name: str, club: str = "", rating_id: str = "") -> Reseated:
    _fixed(c)
    c.store.add_player(name, club, rating_id, late=True)
    return reseat(c)


def _fixed(c: Collector) -> None:
    if not c.store.seated():
        raise StoreError("not_seated")
    if len(c.store.get("stages") or {}) > 1:
        raise StoreError("stage_seated")


def reseat(c: Collector) -> Reseated:
    """The rounds after the last one sent or played, seated again for the players present."""
    t = c.t
    players = c.store.players()
    gone = withdrawn(c)
    seating = c.store.seating()
    first = max(c.store.started(), default=0) + 1
    index = {p.id: i for i, p in enumerate(players)}
    history = [
        [[index[p] for p in seating[r][n]] for n in sorted(seating[r])] for r in sorted(seating) if r < first
    ]
    present = [index[p.id] for p in players if p.id not in gone]
    games = t.games or t.rounds  # "every round": the rounds first seated are the games
    try:
        fewer = short_of_tables(present, games, history, t.seats)
        seated = seat_named(
            [p.name for p in players],
            [p.club for p in players],
            games,
            t.tables or None,
            t.seating_rules(),
            t.seed + first,  # another draw than the first seating's
            t.seats,
            history=history,
            present=present,
            fewer=fewer,
        )
    except (SeatingError, ConfigError) as exc:
        raise StoreError("seating", problem=str(exc)) from None
    c.store.replace_rounds(
        first,
        [{n: [players[i].id for i in table] for n, table in enumerate(rnd, 1)} for rnd in seated.rounds],
    )
    last = first - 1 + len(seated.rounds)
    c.t = replace(t, rounds=last, games=games)
    c.store.set_tournament(c.t)
    c.store.put(stages={"main": [1, last]})
    return Reseated(first, last, [players[i].name for i in fewer])


def substitute(c: Collector, rnd: int, table: int, seat: int, name: str, club: str = "") -> str:
    """`name` in a seat of round `rnd` at `table` (a player of the field sitting the round
    out, or someone new, added as a late player): the name of the player replaced."""
    seats = c.store.seating().get(rnd, {}).get(table, [])
    if not 1 <= seat <= len(seats):
        raise StoreError("no_seat", round=rnd, table=table, seat=seat)
    if any((g.round, g.table) == (rnd, table) for g in c.store.games()):
        raise StoreError("table_played", round=rnd, table=table)
    key = name.strip().casefold()
    known = next((p for p in c.store.players() if p.name.casefold() == key), None)
    player = known or c.store.add_player(name, club, late=True)
    replaced = c.store.substitute(rnd, table, seat, player.id)
    return next(p.name for p in c.store.players() if p.id == replaced)
