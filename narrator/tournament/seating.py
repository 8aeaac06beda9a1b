"""Every round's seating: each player meets every other as evenly as the rounds allow, and
sits in each seat position as evenly.

Two steps, each a published method:
1. Who plays at which table: the penalty search the VEKN's tournament seating uses (the
   rules posted to rec.games.trading-cards.jyhad, implemented by the archon/krcg tools),
   here with one penalty, the sum of squares of the meeting counts over all pairs (with
   the total fixed, it is smallest when the counts are as equal as they can be), driven
   down by simulated annealing over swaps of two players at two tables of one round. A
   swap's change is computed from the two tables alone (about 4 x seats operations).
2. Who sits where: an edge colouring of the bipartite graph of players and games, one
   colour per seat position (Konig's theorem: a bipartite graph whose largest degree is
   D has a D-colouring, found by flipping alternating paths). With no more rounds than
   seats every player then sits in a different position each round; with more, each
   player's rounds are cut in runs of `seats` and each run gets every position once.

`evenness` measures a schedule: the spread of pair meetings and of seat positions.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

Schedule = list[list[list[int]]]  # [round][table][seat - 1] -> player index


class SeatingError(ValueError):
    pass


def make_schedule(
    players: int, tables: int, rounds: int, seed: int = 1, steps: int | None = None
) -> Schedule:
    """A schedule for `players` (indexes 0..players-1) at `tables` tables of equal size."""
    if tables < 1 or rounds < 1:
        raise SeatingError("a tournament needs at least one table and one round")
    if players % tables:
        raise SeatingError(
            f"{players} players do not fill {tables} tables evenly "
            f"({players // tables} or {players // tables + 1} a table)"
        )
    seats = players // tables
    rng = random.Random(seed)
    schedule: Schedule = []
    for _ in range(rounds):
        order = list(range(players))
        rng.shuffle(order)
        schedule.append([order[t * seats : (t + 1) * seats] for t in range(tables)])
    if players > 1:
        _anneal(schedule, players, seats, rng, 200 * players * rounds if steps is None else steps)
    _seat(schedule, seats)
    return schedule


def _anneal(schedule: Schedule, n: int, seats: int, rng: random.Random, steps: int) -> None:
    meet = [[0] * n for _ in range(n)]
    for rnd in schedule:
        for table in rnd:
            for a in table:
                for b in table:
                    if b != a:
                        meet[a][b] += 1
    tables = len(schedule[0])
    rounds = len(schedule)
    if tables < 2:
        return
    temp0, temp1 = 2.0, 0.05
    for step in range(steps):
        temp = temp0 * (temp1 / temp0) ** (step / steps)
        rnd = schedule[rng.randrange(rounds)]
        t1, t2 = rng.randrange(tables), rng.randrange(tables)
        if t1 == t2:
            continue
        s1, s2 = rng.randrange(seats), rng.randrange(seats)
        x, y = rnd[t1], rnd[t2]
        a, b = x[s1], y[s2]
        ma, mb = meet[a], meet[b]
        delta = 0
        for c in x:
            if c != a:
                delta += 2 * (mb[c] - ma[c] + 1)
        for d in y:
            if d != b:
                delta += 2 * (ma[d] - mb[d] + 1)
        if delta > 0 and rng.random() >= math.exp(-delta / temp):
            continue
        for c in x:
            if c != a:
                ma[c] -= 1
                meet[c][a] -= 1
                mb[c] += 1
                meet[c][b] += 1
        for d in y:
            if d != b:
                mb[d] -= 1
                meet[d][b] -= 1
                ma[d] += 1
                meet[d][a] += 1
        x[s1], y[s2] = b, a


def _seat(schedule: Schedule, seats: int) -> None:
    """Reorder every table so that each player's seat positions are as even as can be."""
    games = [(r, t) for r in range(len(schedule)) for t in range(len(schedule[r]))]
    played: dict[int, int] = {}
    edges: list[tuple[tuple[int, int], int, int]] = []  # (player, run), game, player
    for g, (r, t) in enumerate(games):
        for p in schedule[r][t]:
            k = played.get(p, 0)
            played[p] = k + 1
            edges.append(((p, k // seats), g, p))
    left: dict[tuple[int, int], list[int | None]] = {}
    right: list[list[tuple[int, int] | None]] = [[None] * seats for _ in games]
    for u, v, _p in edges:
        at_u = left.setdefault(u, [None] * seats)
        a = at_u.index(None)
        b = right[v].index(None)
        if right[v][a] is not None:
            _flip(left, right, v, a, b)
        at_u[a] = v
        right[v][a] = u
    for g, (r, t) in enumerate(games):
        table = [0] * seats
        for c, node in enumerate(right[g]):
            assert node is not None
            table[c] = node[0]
        schedule[r][t] = table


def _flip(
    left: dict[tuple[int, int], list[int | None]],
    right: list[list[tuple[int, int] | None]],
    v: int,
    a: int,
    b: int,
) -> None:
    """Swap colours a and b along the path that leaves game v by colour a (a bipartite
    graph: the path never comes back to v's other end), so that a is free at v."""
    path: list[tuple[tuple[int, int], int, int]] = []  # (player node, game, colour)
    game, colour = v, a
    while True:
        u = right[game][colour]
        if u is None:
            break
        path.append((u, game, colour))
        other = b if colour == a else a
        nxt = left[u][other]
        if nxt is None:
            break
        path.append((u, nxt, other))
        game = nxt
    for u, g, c in path:
        left[u][c] = None
        right[g][c] = None
    for u, g, c in path:
        c2 = b if c == a else a
        left[u][c2] = g
        right[g][c2] = u


@dataclass(frozen=True)
class Evenness:
    meetings_min: int  # the fewest games any two players have played together
    meetings_max: int  # the most
    meetings_spread: int  # max - min over all pairs
    seat_spread_max: int  # the worst player's max - min games in one seat position
    seat_repeat_max: int  # the most games any player had in one seat position
    seat_ideal_max: int  # what that could be at best: ceil(rounds / seats)

    def to_json(self) -> dict[str, int]:
        return dict(self.__dict__)


def evenness(schedule: Sequence[Sequence[Sequence[int]]], players: int) -> Evenness:
    seats = len(schedule[0][0])
    meet = [[0] * players for _ in range(players)]
    pos = [[0] * seats for _ in range(players)]
    for rnd in schedule:
        for table in rnd:
            for s, a in enumerate(table):
                pos[a][s] += 1
                for b in table:
                    meet[a][b] += 1
    pairs = [meet[a][b] for a in range(players) for b in range(a + 1, players)] or [0]
    return Evenness(
        min(pairs),
        max(pairs),
        max(pairs) - min(pairs),
        max(max(p) - min(p) for p in pos),
        max(max(p) for p in pos),
        -(-len(schedule) // seats),
    )
