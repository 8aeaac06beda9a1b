"""Who takes which seat at each table (the tables' players are decided): each player's
games in each seat number as even as they can be, seat 1 weighing most (the weights of
narrator/tournament/seating.yaml), and so the seat pairs (1-2, 3-4...) and the table's
halves (1-5, 6-10).

First an edge colouring of the bipartite graph of players and games, one colour per seat
number (Konig's theorem: a bipartite graph whose largest degree is D has a D-colouring,
found by flipping alternating paths): each player's games are cut in runs of `seats` and
each run gets every seat once, so every player's count in every seat is within one of
every other's. Then a short annealing over swaps of two players' seats at one table, by
the weighted cost (each seat number's, pair's and half's count, squared, over the players,
with the rounds already played counted): it evens the pairs and halves where the games are
not a multiple of the seats, and weighs seat 1 before seat 5 where not all can be even.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

Round = list[list[int]]  # [table][seat - 1] -> player


def seat_groups(seats: int) -> tuple[list[int], list[int]]:
    """Each seat's pair (1-2 -> 0, 3-4 -> 1...) and half (1-5 -> 0, 6-10 -> 1)."""
    return [s // 2 for s in range(seats)], [s * 2 // seats for s in range(seats)]


def order_seats(
    rounds: list[Round],
    seats: int,
    weights: Sequence[float],
    pairs: float,
    halves: float,
    rng: random.Random,
    steps: int,
    history: Sequence[Sequence[Sequence[int]]] = (),
) -> None:
    """Reorder every table of `rounds` in place. `weights`: by seat (index seat - 1)."""
    _colour(rounds, seats)
    tables = [t for rnd in rounds for t in rnd if len(t) > 1]
    if not tables or steps <= 0:
        return
    pair_of, half_of = seat_groups(seats)
    seat: dict[int, list[int]] = {}
    pair: dict[int, list[int]] = {}
    half: dict[int, list[int]] = {}

    def count(p: int, s: int, by: int) -> None:
        seat.setdefault(p, [0] * seats)[s] += by
        pair.setdefault(p, [0] * (pair_of[-1] + 1))[pair_of[s]] += by
        half.setdefault(p, [0, 0])[half_of[s]] += by

    for rnd in [*history, *rounds]:
        for table in rnd:
            for s, p in enumerate(table):
                count(p, s, 1)

    def move(p: int, s1: int, s2: int) -> float:
        """The cost's change as p moves from seat s1 to s2 (s1 != s2)."""
        c = seat[p]
        d = weights[s2] * (2 * c[s2] + 1) - weights[s1] * (2 * c[s1] - 1)
        g1, g2 = pair_of[s1], pair_of[s2]
        if g1 != g2:
            q = pair[p]
            d += pairs * (2 * (q[g2] - q[g1]) + 2)
        h1, h2 = half_of[s1], half_of[s2]
        if h1 != h2:
            h = half[p]
            d += halves * (2 * (h[h2] - h[h1]) + 2)
        return d

    # A descent, not an annealing: the colouring is even already, and a worse step taken
    # here would rarely be undone.
    rand = rng.random
    for _ in range(steps):
        table = tables[int(rand() * len(tables))]
        s1 = int(rand() * len(table))
        s2 = int(rand() * (len(table) - 1))
        s2 += s2 >= s1
        a, b = table[s1], table[s2]
        if move(a, s1, s2) + move(b, s2, s1) > 0:
            continue
        count(a, s1, -1)
        count(b, s2, -1)
        count(a, s2, 1)
        count(b, s1, 1)
        table[s1], table[s2] = b, a


def _colour(rounds: list[Round], seats: int) -> None:
    games = [(r, t) for r in range(len(rounds)) for t in range(len(rounds[r]))]
    played: dict[int, int] = {}
    edges: list[tuple[tuple[int, int], int]] = []  # ((player, run), game)
    for g, (r, t) in enumerate(games):
        for p in rounds[r][t]:
            k = played.get(p, 0)
            played[p] = k + 1
            edges.append(((p, k // seats), g))
    left: dict[tuple[int, int], list[int | None]] = {}
    right: list[list[tuple[int, int] | None]] = [[None] * seats for _ in games]
    for u, v in edges:
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
        rounds[r][t] = table


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
