"""Which table number each of a round's tables gets, once the search is done: each
player's games at each table number as even as they can be, and no player at a table
whose judge they conflict with. Renumbering a round's tables changes no meeting and no
seat, so it comes free (and is solved exactly, round by round); a conflict that
renumbering leaves (two players of one table conflicting with every judge free) is
resolved by swapping the player with one of another table of the round: the swap that
costs the meetings least.
"""

from __future__ import annotations

from collections.abc import Sequence

from narrator.tournament.tablesearch import Found

Round = list[list[int]]  # [table no - 1] -> players


def number_tables(rounds: list[Round], found: Found, history: Sequence[Sequence[Sequence[int]]] = ()) -> None:
    """Reorder each round's tables in place (table number = index + 1): round by round,
    the best numbering given all the other rounds' (an assignment problem, solved
    exactly), over the rounds a few times until no round changes. The costs are the
    search's (`found`): the table counts' and the judges' conflicts."""
    up, clash = found.table_up, found.clash
    count: dict[int, dict[int, int]] = {}

    def add(rnd: Sequence[Sequence[int]], by: int) -> None:
        for t, table in enumerate(rnd):
            for p in table:
                c = count.setdefault(p, {})
                c[t] = c.get(t, 0) + by

    for rnd in [*history, *rounds]:
        add(rnd, 1)
    for _ in range(4):
        changed = False
        for r, rnd in enumerate(rounds):
            if len(rnd) < 2:
                continue
            add(rnd, -1)
            k = len(rnd)
            cost = [
                [sum(up[count[p].get(t, 0)] + clash[p][t] for p in table) for t in range(k)] for table in rnd
            ]
            at = assign(cost)
            if sum(cost[g][t] for g, t in enumerate(at)) < sum(cost[g][g] for g in range(k)) - 1e-9:
                new: Round = [[] for _ in range(k)]
                for g, t in enumerate(at):
                    new[t] = rnd[g]
                rounds[r] = rnd = new
                changed = True
            add(rnd, 1)
        if not changed:
            break


def assign(cost: list[list[float]]) -> list[int]:
    """The cheapest assignment of rows to columns of a square matrix: row -> column (the
    Hungarian method with potentials, O(n^3))."""
    n = len(cost)
    inf = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (n + 1)
    owner = [0] * (n + 1)  # column -> row (1-based; 0: none)
    way = [0] * (n + 1)
    for i in range(1, n + 1):
        owner[0] = i
        j0 = 0
        low = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = owner[j0], inf, 0
            for j in range(1, n + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < low[j]:
                        low[j], way[j] = cur, j0
                    if low[j] < delta:
                        delta, j1 = low[j], j
            for j in range(n + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    low[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    out = [0] * n
    for j in range(1, n + 1):
        out[owner[j] - 1] = j - 1
    return out


def resolve_conflicts(rounds: list[Round], found: Found) -> int:
    """Swap each player left at a conflicting judge's table with the player of another
    table of the round who conflicts with neither judge and whose swap costs the meetings
    least. `found` holds the same tables (`rounds` is its tables renumbered): its meetings
    follow the swaps. How many conflicts no swap could resolve."""
    clash = found.clash
    unresolved = 0
    for rnd in rounds:
        for t, x in enumerate(rnd):
            for p in [p for p in x if clash[p][t]]:
                options = [
                    (found.swap_cost(x, y, p, q), u, q)
                    for u, y in enumerate(rnd)
                    if u != t and not clash[p][u]
                    for q in y
                    if not clash[q][t]
                ]
                if not options:
                    unresolved += 1
                    continue
                _, u, q = min(options)
                found.swap(x, rnd[u], p, q)
    return unresolved
