"""Each round's tables: who plays with whom, and at which table number. Every pair meets as
near the target (games x (seats - 1) / (players - 1)) as the field allows, the pairs kept
apart as little as it allows, each player sits at each table number as evenly, and no
player under a judge they conflict with.

The cost, a sum of terms by the weights of seating.yaml:
- each pair: weight x |meetings - target| ** power, and for a pair kept apart its own
  weight per meeting. With the total of meetings fixed by the games, a power of 2 cannot
  tell one pair meeting three times from three pairs meeting twice (4 tables x 3 rounds:
  both cost the same, and the old annealing left 6 pairs meeting every round); 3 can;
- each player and table number: balance x |games there - games / tables| ** power;
- each player at a table whose judge they conflict with: the judge weight.

The search is simulated annealing (the VEKN seating's method; archon/krcg) over two moves
in one round: two players of two tables swap, or two tables swap numbers. A move's change
is read from the tables it touches (4 x (seats - 1) pairs, by lookup tables of the cost's
steps). Half the steps are aimed at what costs most: a pair meeting too often (or kept
apart and meeting), in a round where it sits together, one of the two moved. The search
stops early once nothing is out of place: every pair within one of the target, none kept
apart meeting, no conflict, every table count within one of its share.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

Tables = list[list[int]]  # [table no - 1] -> players, in no order yet


@dataclass
class Found:
    """One search's outcome: the new rounds' tables and their pairs' meetings."""

    rounds: list[Tables]
    meet: list[list[int]]  # [a][b]: games a and b played together, history included (kept apart: + an offset)
    cost: float
    steps: int  # steps the search took (fewer than its budget when it stopped early)
    perfect: bool  # nothing out of place: another search could do little better
    up: list[float]  # the cost of a pair's next meeting, by its meetings so far
    down: list[float]  # ... of one meeting fewer
    table_up: list[float]  # the cost of a player's next game at a table number, by their games there
    clash: list[list[float]]  # [p][table no - 1]: the cost of p at that judge's table

    def swap_cost(self, x: Sequence[int], y: Sequence[int], a: int, b: int) -> float:
        """What swapping player a of table x with player b of table y adds to the meetings."""
        return _meet_delta(self.meet, self.up, self.down, x, y, a, b)

    def swap(self, x: list[int], y: list[int], a: int, b: int) -> None:
        _move(self.meet, x, y, a, b)
        x[x.index(a)], y[y.index(b)] = b, a


@dataclass(frozen=True)
class Weights:
    meetings: float
    power: float
    tables: float
    judge: float


def search(
    players: int,
    rounds: Sequence[Sequence[int]],
    seats: int,
    rng: random.Random,
    steps: int,
    weights: Weights,
    *,
    history: Sequence[Sequence[Sequence[int]]] = (),
    apart: Mapping[tuple[int, int], float] | None = None,
    judges: Mapping[int, str] | None = None,
    conflicts: Collection[tuple[str, int]] = (),
) -> Found:
    """Split each of `rounds` (the players who play it) into numbered tables of `seats`.

    `history`: rounds already played ([round][table] -> players), counted, never moved.
    `apart`: (a, b) with a < b -> the cost of each of their meetings."""
    n = players
    # A pair kept apart counts its meetings from an offset, where the cost's steps are its
    # own weight (and the target nothing to it): one lookup for every pair in the steps.
    top = len(history) + len(rounds) + 2  # more than any pair can meet, or player sit at one table
    stride = top + 2
    kinds = sorted(set((apart or {}).values()))
    meet = [[0] * n for _ in range(n)]
    for (a, b), w in (apart or {}).items():
        meet[a][b] = meet[b][a] = stride * (1 + kinds.index(w))
    k = max([len(r) // seats for r in rounds] + [len(r) for r in history] + [1])
    at = [[0] * k for _ in range(n)]  # [p][table no - 1]: games there
    for rnd in history:
        for t, table in enumerate(rnd):
            _count(meet, table)
            for p in table:
                at[p][t] += 1
    # A pair's target: each player's games (on average) x (seats - 1) / (players - 1);
    # a player's share of a table number: their games / the tables.
    player_games = sum(len(t) for r in history for t in r) + sum(len(r) for r in rounds)
    target = player_games * (seats - 1) / max(1, n * (n - 1))
    share = player_games / max(1, n) / k
    f = [weights.meetings * abs(m - target) ** weights.power for m in range(stride)]
    for w in kinds:
        f += [w * m for m in range(stride)]
    ft = [weights.tables * abs(c - share) ** weights.power for c in range(stride)]
    up, down = _steps(f)
    tup, tdown = _steps(ft)
    clash = [[0.0] * k for _ in range(n)]
    by_name = {name: t - 1 for t, name in (judges or {}).items() if 1 <= t <= k}
    for name, p in conflicts:
        if name in by_name and 0 <= p < n:
            clash[p][by_name[name]] = weights.judge
    tables = [_greedy(playing, seats, meet, at, up, tup, clash, rng) for playing in rounds]
    band = (math.floor(target), math.ceil(target))
    s = _State(n, tables, meet, at, stride, clash, band, share, weights.tables > 0)
    run = _anneal(s, up, down, tup, tdown, rng, steps)
    cost = sum(f[meet[a][b]] for a in range(n) for b in range(a + 1, n))
    cost += sum(ft[c] for p in s.playing for c in at[p])
    cost += sum(clash[p][t] for rnd in tables for t, table in enumerate(rnd) for p in table)
    return Found(tables, meet, cost, run, s.perfect(), up, down, tup, clash)


def _steps(f: list[float]) -> tuple[list[float], list[float]]:
    """The cost's step up from each count, and down (none from 0)."""
    return [f[m + 1] - f[m] for m in range(len(f) - 1)], [0.0] + [
        f[m - 1] - f[m] for m in range(1, len(f) - 1)
    ]


def _greedy(
    playing: Sequence[int],
    seats: int,
    meet: list[list[int]],
    at: list[list[int]],
    up: list[float],
    tup: list[float],
    clash: list[list[float]],
    rng: random.Random,
) -> Tables:
    """A round's first split: its players in a random order, each to the table (with a
    seat free) where what it adds costs least. Counts the round's meetings."""
    order = list(playing)
    rng.shuffle(order)
    k = len(order) // seats
    tables: Tables = [[] for _ in range(k)]
    for p in order:
        mp, ap, cp = meet[p], at[p], clash[p]
        best, best_cost = -1, 0.0
        start = int(rng.random() * k)  # ties go to a random table, not always the first
        for i in range(k):
            t = (start + i) % k
            table = tables[t]
            if len(table) == seats:
                continue
            cost = sum(up[mp[c]] for c in table) + tup[ap[t]] + cp[t]
            if best < 0 or cost < best_cost:
                best, best_cost = t, cost
        tables[best].append(p)
    for t, table in enumerate(tables):
        _count(meet, table)
        for p in table:
            at[p][t] += 1
    return tables


def _count(meet: list[list[int]], table: Sequence[int]) -> None:
    for a in table:
        row = meet[a]
        for b in table:
            if b != a:
                row[b] += 1


def _meet_delta(
    meet: list[list[int]],
    up: list[float],
    down: list[float],
    x: Sequence[int],
    y: Sequence[int],
    a: int,
    b: int,
) -> float:
    """The meetings' cost change as a (at x) and b (at y) swap: 4 x (seats - 1) lookups."""
    ma, mb = meet[a], meet[b]
    d = 0.0
    for c in x:
        if c != a:
            d += up[mb[c]] + down[ma[c]]
    for c in y:
        if c != b:
            d += up[ma[c]] + down[mb[c]]
    return d


def _move(meet: list[list[int]], x: Sequence[int], y: Sequence[int], a: int, b: int) -> None:
    """The meetings once a (at x) and b (at y) have swapped; the tables are the caller's."""
    ma, mb = meet[a], meet[b]
    for c in x:
        if c != a:
            mc = meet[c]
            ma[c] -= 1
            mc[a] -= 1
            mb[c] += 1
            mc[b] += 1
    for c in y:
        if c != b:
            mc = meet[c]
            mb[c] -= 1
            mc[b] -= 1
            ma[c] += 1
            mc[a] += 1


class _State:
    """The tables, the counts, where each player sits each round, and (as of the last
    count) what is out of place: the pairs meeting above the target's ceiling or kept apart
    and meeting, the pairs below its floor, the conflicts, the table counts off their share."""

    def __init__(
        self,
        n: int,
        tables: list[Tables],
        meet: list[list[int]],
        at: list[list[int]],
        stride: int,
        clash: list[list[float]],
        band: tuple[int, int],
        share: float,
        weighed: bool,
    ) -> None:
        self.n, self.tables, self.meet, self.at, self.stride, self.clash = n, tables, meet, at, stride, clash
        self.lo, self.hi = band
        self.share = share
        self.weighed = weighed  # whether table numbers count at all
        self.movable = [r for r in range(len(tables)) if len(tables[r]) > 1]
        self.playing = sorted({p for rnd in tables for table in rnd for p in table})
        self.where = [[-1] * n for _ in tables]
        for r, rnd in enumerate(tables):
            for t, table in enumerate(rnd):
                for p in table:
                    self.where[r][p] = t
        # (a, b): a pair that meets too often or is kept apart; (p, -1 - r): p under a
        # judge they conflict with in round r
        self.hot: list[tuple[int, int]] = []
        self.spare: list[tuple[int, int]] = []  # (p, -1 - r): at a table number too often
        self.off = 0
        self.recount()

    def recount(self) -> None:
        """Counted afresh now and then rather than kept at every move: a swap changes 36
        pairs, and most steps are taken at first. `hot`: what the aimed moves go for;
        `off`: what keeps the search from stopping (a table count may be one off its share
        rounded: with many tables, a player's every game at a new table number and every
        pair's meetings in the band are rarely both possible)."""
        meet, stride, lo, hi, n = self.meet, self.stride, self.lo, self.hi, self.n
        self.hot = []
        self.spare = []
        self.off = 0
        for a in range(n):
            ma = meet[a]
            for b in range(a + 1, n):
                m = ma[b]
                if (hi < m < stride) or (m > stride and m % stride):
                    self.hot.append((a, b))
                    self.off += 1
                elif m < lo:
                    self.off += 1
        at, share, low, high = self.at, self.share, math.floor(self.share) - 1, math.ceil(self.share) + 1
        for r, rnd in enumerate(self.tables):
            for t, table in enumerate(rnd):
                for p in table:
                    if self.clash[p][t]:
                        self.hot.append((p, -1 - r))
                        self.off += 1
                    elif at[p][t] > share + 1:
                        self.spare.append((p, -1 - r))
        if self.weighed:
            self.off += sum(1 for p in self.playing for c in at[p] if not low <= c <= high)

    def perfect(self) -> bool:
        return not self.off


def _anneal(
    s: _State,
    up: list[float],
    down: list[float],
    tup: list[float],
    tdown: list[float],
    rng: random.Random,
    steps: int,
) -> int:
    if not s.movable or steps <= 0:
        return 0
    meet, at, clash, tables, where, movable = s.meet, s.at, s.clash, s.tables, s.where, s.movable
    rand, exp = rng.random, math.exp
    n_movable = len(movable)
    hot, spare = s.hot, s.spare

    def pick() -> tuple[int, int, int, int, int, bool]:
        """(round, table, seat, other table, other seat, whether the two tables swap
        numbers rather than two players swap tables): aimed half the time."""
        r = -1
        whole = rand() < renumber
        if (hot or spare) and rand() < 0.5:
            # the meetings and conflicts first: a table count weighs less
            aims = hot if hot and (not spare or rand() < 0.8) else spare
            u, v = aims[int(rand() * len(aims))]
            if v < 0:  # a player at the wrong table number: renumber it half the time
                r, mover = -1 - v, u
                if where[r][u] < 0 or len(tables[r]) < 2:
                    r = -1
                whole = rand() < 0.5
            else:
                both = [r for r in movable if where[r][u] == where[r][v] != -1]
                r = both[int(rand() * len(both))] if both else -1
                mover = u if rand() < 0.5 else v
            if r >= 0:
                t1 = where[r][mover]
                s1 = tables[r][t1].index(mover)
        if r < 0:
            r = movable[int(rand() * n_movable)]
            t1 = int(rand() * len(tables[r]))
            s1 = int(rand() * len(tables[r][t1]))
        t2 = int(rand() * (len(tables[r]) - 1))
        t2 += t2 >= t1
        return r, t1, s1, t2, int(rand() * len(tables[r][t2])), whole

    def swap_delta(x: list[int], y: list[int], a: int, b: int, t1: int, t2: int) -> float:
        aa, ab, ca, cb = at[a], at[b], clash[a], clash[b]
        d = tup[aa[t2]] + tdown[aa[t1]] + tup[ab[t1]] + tdown[ab[t2]] + ca[t2] - ca[t1] + cb[t1] - cb[t2]
        return d + _meet_delta(meet, up, down, x, y, a, b)

    def renumber_delta(x: list[int], y: list[int], t1: int, t2: int) -> float:
        d = 0.0
        for p in x:
            ap = at[p]
            d += tup[ap[t2]] + tdown[ap[t1]] + clash[p][t2] - clash[p][t1]
        for p in y:
            ap = at[p]
            d += tup[ap[t1]] + tdown[ap[t2]] + clash[p][t1] - clash[p][t2]
        return d

    # The starting temperature: a tenth of a typical worsening step (the greedy start is
    # good already: a hotter start only undoes it); the last, a hundredth of that.
    renumber = 0.0
    sample = []
    for _ in range(200):
        r, t1, s1, t2, s2, _whole = pick()
        x, y = tables[r][t1], tables[r][t2]
        d = swap_delta(x, y, x[s1], y[s2], t1, t2)
        if d > 0:
            sample.append(d)
    sample.sort()
    temp0 = sample[len(sample) // 2] / 10 if sample else 1.0
    ratio = 0.01
    renumber = 0.1 if any(tup) or any(any(row) for row in clash) else 0.0
    chunk = 4096
    done = 0
    while done < steps:
        if done:
            s.recount()
            hot, spare = s.hot, s.spare
            if s.perfect():
                break
        for i in range(done, min(done + chunk, steps)):
            r, t1, s1, t2, s2, whole = pick()
            rnd = tables[r]
            x, y = rnd[t1], rnd[t2]
            a, b = x[s1], y[s2]
            d = renumber_delta(x, y, t1, t2) if whole else swap_delta(x, y, a, b, t1, t2)
            if d > 0 and rand() >= exp(-d / (temp0 * ratio ** (i / steps))):
                continue
            wr = where[r]
            if whole:
                for p in x:
                    at[p][t1] -= 1
                    at[p][t2] += 1
                    wr[p] = t2
                for p in y:
                    at[p][t2] -= 1
                    at[p][t1] += 1
                    wr[p] = t1
                rnd[t1], rnd[t2] = y, x
                continue
            _move(meet, x, y, a, b)
            x[s1], y[s2] = b, a
            wr[a], wr[b] = t2, t1
            at[a][t1] -= 1
            at[a][t2] += 1
            at[b][t2] -= 1
            at[b][t1] += 1
        done = min(done + chunk, steps)
    return done
