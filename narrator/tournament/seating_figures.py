"""A seating's figures, against what the field allows: the pairs' meetings (min, max,
spread, and how many pairs meet how often) against the target games x 9 / (players - 1);
the seat numbers' spread, weighted as the seating weighs them; the table numbers' spread;
the games and sit-outs per player; the pairs kept apart that meet; the judges' conflicts
left. Counted over every round given (a history and the new rounds alike)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from narrator.tournament.seatorder import seat_groups


@dataclass(frozen=True)
class Figures:
    players: int
    rounds: int
    games_min: int  # the fewest games any player has
    games_max: int
    sat_out_min: int  # the fewest rounds any player sat out
    sat_out_max: int
    target: float  # a pair's meetings if all could be equal
    meetings_min: int  # the fewest games any two players (not kept apart) played together
    meetings_max: int  # the most
    meetings_spread: int  # max - min
    meetings_pairs: dict[int, int]  # meetings -> pairs that met that often
    meetings_variance: float  # of all pairs' meetings
    variance_bound: float  # the least any seating of these rounds' players could have
    apart_meetings: int  # games shared by pairs kept apart
    seat_spread_weighted: float  # over seats, weighted: max - min of the players' games there
    seat_spread_bound: int  # what it could be at best: 0 when the games fill the seats evenly, else 1
    seat_spread_max: int  # the worst player's max - min games in one seat number
    seat_repeat_max: int  # the most games any player had in one seat number
    seat_ideal_max: int  # what that could be at best: ceil(games / seats)
    seat_pair_spread: int  # the worst player's max - min games in one seat pair (1-2, 3-4...)
    half_spread: int  # the worst player's |games in seats 1-5 - games in seats 6-10|
    table_spread: int  # the worst player's max - min games at one table number (of those in use)
    judge_conflicts: int
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        out["meetings_pairs"] = {str(k): v for k, v in self.meetings_pairs.items()}
        out.update(out.pop("extra"))
        return out


def figures(
    rounds: Sequence[Sequence[Sequence[int]]],
    players: int,
    *,
    seat_weights: Sequence[float] | None = None,
    apart: Collection[tuple[int, int]] = (),
    judges: Mapping[int, str] | None = None,
    conflicts: Collection[tuple[str, int]] = (),
    present: Collection[int] | None = None,
) -> Figures:
    """Figures of `rounds` ([round][table][seat - 1] -> player index)."""
    seats = max((len(t) for r in rounds for t in r), default=10)
    weights = [*(seat_weights or ())][:seats]
    weights += [1.0] * (seats - len(weights))
    who = sorted(present) if present is not None else list(range(players))
    meet = [[0] * players for _ in range(players)]
    seat = [[0] * seats for _ in range(players)]
    table_at: list[Counter[int]] = [Counter() for _ in range(players)]
    games = [0] * players
    sat = [0] * players
    for rnd in rounds:
        seated = set()
        for t, table in enumerate(rnd):
            for s, a in enumerate(table):
                seated.add(a)
                games[a] += 1
                seat[a][s] += 1
                table_at[a][t] += 1
                row = meet[a]
                for b in table:
                    if b != a:
                        row[b] += 1
        for p in who:
            if p not in seated:
                sat[p] += 1
    kept = {(min(a, b), max(a, b)) for a, b in apart}
    pairs = [meet[a][b] for i, a in enumerate(who) for b in who[i + 1 :] if (a, b) not in kept] or [0]
    total = sum(games[p] for p in who)
    target = total * (seats - 1) / max(1, len(who) * (len(who) - 1))
    spreads = (
        [max(seat[p][s] for p in who) - min(seat[p][s] for p in who) for s in range(seats)] if who else [0]
    )
    pair_of, half_of = seat_groups(seats)
    tables_used = max((len(r) for r in rounds), default=1)
    per_game = [games[p] for p in who] or [0]

    def grouped(p: int, of: list[int]) -> list[int]:
        out = [0] * (max(of) + 1)
        for s, c in enumerate(seat[p]):
            out[of[s]] += c
        return out

    bad = set(conflicts)
    return Figures(
        players=len(who),
        rounds=len(rounds),
        games_min=min(per_game),
        games_max=max(per_game),
        sat_out_min=min((sat[p] for p in who), default=0),
        sat_out_max=max((sat[p] for p in who), default=0),
        target=round(target, 3),
        meetings_min=min(pairs),
        meetings_max=max(pairs),
        meetings_spread=max(pairs) - min(pairs),
        meetings_pairs=dict(sorted(Counter(pairs).items())),
        meetings_variance=round(_variance([meet[a][b] for i, a in enumerate(who) for b in who[i + 1 :]]), 3),
        variance_bound=round(variance_bound(rounds, who), 3),
        apart_meetings=sum(meet[a][b] for a, b in kept if a < players and b < players),
        seat_spread_weighted=round(
            sum(w * s for w, s in zip(weights, spreads, strict=True)) / sum(weights), 3
        ),
        seat_spread_bound=0 if all(games[p] % seats == 0 for p in who) and len(set(per_game)) == 1 else 1,
        seat_spread_max=max((max(seat[p]) - min(seat[p]) for p in who), default=0),
        seat_repeat_max=max((max(seat[p]) for p in who), default=0),
        seat_ideal_max=math.ceil(max(per_game) / seats),
        seat_pair_spread=max((max(g) - min(g) for p in who if (g := grouped(p, pair_of))), default=0),
        half_spread=max((abs(h[0] - h[-1]) for p in who if (h := grouped(p, half_of))), default=0),
        table_spread=max(
            (
                max(table_at[p][t] for t in range(tables_used))
                - min(table_at[p][t] for t in range(tables_used))
            )
            for p in who
        )
        if who
        else 0,
        judge_conflicts=sum(
            1
            for rnd in rounds
            for t, table in enumerate(rnd)
            if (name := (judges or {}).get(t + 1)) is not None
            for p in table
            if (name, p) in bad
        ),
    )


def _variance(values: Sequence[int]) -> float:
    if not values:
        return 0.0
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) / len(values)


def variance_bound(rounds: Sequence[Sequence[Sequence[int]]], who: Sequence[int]) -> float:
    """A floor under the variance of the pairs' meetings, whoever sits where: two rounds
    share at least the pairs that the players common to both must form (a round's table
    of them split as evenly as can be over the other round's tables), and a pair meeting
    m times is in C(m, 2) such round pairs; so the sum of m^2 has a floor (the total of
    meetings is fixed). Nor can whole numbers be nearer their mean than its fraction
    allows. (Why 23 players at 2 tables a round cannot all meet 3 to 5 times.)"""
    n = len(who)
    pairs = n * (n - 1) // 2
    if pairs == 0:
        return 0.0
    total = sum(len(t) * (len(t) - 1) // 2 for r in rounds for t in r)
    mean = total / pairs
    present = set(who)
    sets = [{p for t in r for p in t if p in present} for r in rounds]
    shared = 0
    for i, rnd in enumerate(rounds):
        for j in range(i + 1, len(rounds)):
            k = len(rounds[j])
            for table in rnd:
                c = sum(1 for p in table if p in sets[j])
                q, extra = divmod(c, k)
                shared += extra * (q + 1) * q // 2 + (k - extra) * q * (q - 1) // 2
    by_overlap = (2 * shared + total) / pairs - mean**2
    frac = mean - math.floor(mean)
    return max(by_overlap, frac * (1 - frac))
