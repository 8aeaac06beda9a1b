"""The seating's figures for the fields a federation sees (`narrator bench --only
tournament` runs it): 23, 38, 93, 100 and 300 players, 10 games each, at as many tables as
they fill, by the default rules (narrator/tournament/seating.yaml). For each: the rounds,
the search's time (CPU seconds of this process: the machine's load is other processes'),
its steps and restarts, the pairs' meetings min / max / spread against the target
games x 9 / (players - 1) and their variance against a floor no seating of these rounds
can beat (seating_figures.variance_bound), the seat numbers' weighted spread against its
bound, the table numbers' spread, the sit-outs. Then 93 and 300 players of clubs (`clubs`:
two thirds of the field in clubs of 12, 6, 4, 3 and 2) kept apart: the clubmates' meetings
against the fewest the rounds allow (a club of 12 at 9 tables seats two together at 3 of
them). `--quick`: 23 players only.
"""

from __future__ import annotations

import time

from narrator.tournament.seating import Figures, Seating, seat


def _field(players: int, club: list[str] | None = None) -> tuple[Seating, float]:
    start = time.process_time()
    seating = seat(players, 10, clubs=club or ())
    return seating, time.process_time() - start


# A real field's clubs: one of a dozen, smaller ones, players with a friend; a third alone.
CLUB_SIZES = (12, 6, 4, 3, 2, 2)


def clubs(players: int) -> list[str]:
    out: list[str] = []
    while len(out) < players * 2 // 3:
        count = len(set(out))
        out += [f"Club {count}"] * CLUB_SIZES[count % len(CLUB_SIZES)]
    return (out + [""] * players)[:players]


def club_floor(rounds: list[list[list[int]]], club: list[str]) -> int:
    """The fewest meetings of clubmates any seating of these rounds' players can have: a
    club's c players of a round at k tables share some (c // k + 1 at c % k tables)."""
    floor = 0
    for rnd in rounds:
        members: dict[str, int] = {}
        for table in rnd:
            for p in table:
                if club[p]:
                    members[club[p]] = members.get(club[p], 0) + 1
        k = len(rnd)
        for c in members.values():
            q, r = divmod(c, k)
            floor += r * (q + 1) * q // 2 + (k - r) * q * (q - 1) // 2
    return floor


def _meetings(f: Figures) -> str:
    return f"{f.meetings_min}..{f.meetings_max} (spread {f.meetings_spread})"


def _pairs(f: Figures) -> str:
    """How many pairs met how often: "0:1016 1:2339 2:923"."""
    return " ".join(f"{m}:{c}" for m, c in f.meetings_pairs.items())


def run(quick: bool) -> dict[str, float | int | str]:
    sizes = (23,) if quick else (23, 38, 93, 100, 300)
    out: dict[str, float | int | str] = {}
    for n in sizes:
        s, seconds = _field(n)
        f = s.figures
        key = f"seating_{n}"
        out.update(
            {
                f"{key}_rounds": f.rounds,
                f"{key}_cpu_s": round(seconds, 2),
                f"{key}_steps": s.steps,
                f"{key}_restarts": s.restarts,
                f"{key}_target": f.target,
                f"{key}_meetings": _meetings(f),
                f"{key}_meetings_pairs": _pairs(f),
                f"{key}_meetings_variance": f"{f.meetings_variance} (bound {f.variance_bound})",
                f"{key}_seat_spread_weighted": f"{f.seat_spread_weighted} (bound {f.seat_spread_bound})",
                f"{key}_table_spread": f.table_spread,
                f"{key}_sat_out": f"{f.sat_out_min}..{f.sat_out_max}",
                f"{key}_games": f"{f.games_min}..{f.games_max}",
            }
        )
    for n in () if quick else (93, 300):
        club = clubs(n)
        s, seconds = _field(n, club)
        f = s.figures
        out.update(
            {
                f"seating_{n}_clubs_cpu_s": round(seconds, 2),
                f"seating_{n}_clubs_steps": s.steps,
                f"seating_{n}_clubs_apart_meetings": f.apart_meetings,
                f"seating_{n}_clubs_apart_floor": club_floor(s.rounds, club),
                f"seating_{n}_clubs_meetings": _meetings(f),
                f"seating_{n}_clubs_meetings_pairs": _pairs(f),
            }
        )
    return out
