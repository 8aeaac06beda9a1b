"""The seating's figures for the fields a federation sees (`narrator bench --only
tournament` runs it): 23, 38, 93, 100 and 300 players, 10 games each, at as many tables as
they fill, by the default rules (narrator/tournament/seating.yaml). For each: the rounds,
the search's time (CPU seconds of this process: the machine's load is other processes'),
its steps and restarts, the pairs' meetings min / max / spread against the target
games x 9 / (players - 1), the seat numbers' weighted spread against its bound, the table
numbers' spread, the sit-outs. Then 93 players of 9 clubs (one of a dozen, one of three,
the rest alone or in pairs) with the clubs kept apart: the kept-apart pairs' meetings.
`--quick`: 23 players only.
"""

from __future__ import annotations

import time

from narrator.tournament.seating import Figures, Seating, seat


def _field(players: int, clubs: list[str] | None = None) -> tuple[Seating, float]:
    start = time.process_time()
    seating = seat(players, 10, clubs=clubs or ())
    return seating, time.process_time() - start


def _clubs(players: int) -> list[str]:
    """A real field's clubs: one large, one small, most players with a friend or alone."""
    out = ["Big"] * 12 + ["Small"] * 3
    out += [f"Pair {i // 2}" for i in range(2 * 7)]
    return (out + [""] * players)[:players]


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
                f"{key}_seat_spread_weighted": f"{f.seat_spread_weighted} (bound {f.seat_spread_bound})",
                f"{key}_table_spread": f.table_spread,
                f"{key}_sat_out": f"{f.sat_out_min}..{f.sat_out_max}",
                f"{key}_games": f"{f.games_min}..{f.games_max}",
            }
        )
    if not quick:
        s, seconds = _field(93, _clubs(93))
        f = s.figures
        out.update(
            {
                "seating_93_clubs_cpu_s": round(seconds, 2),
                "seating_93_clubs_apart_meetings": f.apart_meetings,
                "seating_93_clubs_meetings": _meetings(f),
                "seating_93_clubs_meetings_pairs": _pairs(f),
            }
        )
    return out
