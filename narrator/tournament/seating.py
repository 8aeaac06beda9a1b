"""Every round's seating for any field: every player plays the same number of games, meets
every other as near the target as the field allows, sits in each seat number as evenly
(seat 1 weighing most), at each table number as evenly, apart from the players they are
kept apart from, and never under a judge they conflict with.

The steps, each in its own module:
1. `field`: which players play each round (those with the most games left; the rest sit
   out, evenly), and the error naming the nearest counts that work;
2. `meetings`: who plays at one table with whom (an annealing of the pairs' meetings);
   run `restarts` times from different seeds, the cheapest kept;
3. `tablenumbers`: which table number each table of a round gets, and the judges'
   conflicts resolved by swapping;
4. `seatorder`: who takes which seat.
The weights are `seating_rules` (the defaults in seating.yaml). `seating_figures` tells how
good a seating is.

A later round can be seated again (after a withdrawal, a late arrival): pass the rounds
played as `history` and the players `present`; they count in every balance, and only the
games left are seated.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from narrator.errors import ConfigError
from narrator.tournament.field import SeatingError, check_field, games_left, plan_rounds
from narrator.tournament.seating_figures import Figures, figures
from narrator.tournament.seating_rules import SeatingRules, default_rules
from narrator.tournament.seatorder import order_seats
from narrator.tournament.tablenumbers import number_tables, resolve_conflicts
from narrator.tournament.tablesearch import Found, Weights, search

__all__ = [
    "Figures",
    "Seating",
    "SeatingError",
    "SeatingRules",
    "evenness",
    "make_schedule",
    "seat",
    "seat_named",
]

Schedule = list[list[list[int]]]  # [round][table][seat - 1] -> player index
# A small field's search is cheap, and its few players make every step count: a floor
# on the steps (about 0.2 s on a laptop) rather than `effort` alone.
MIN_STEPS = 20_000


@dataclass(frozen=True)
class Seating:
    rounds: Schedule  # the new rounds: [round][table][seat - 1] -> player index
    sitting_out: list[list[int]]  # [round] -> the players present who do not play it
    figures: Figures  # over the history and the new rounds
    cost: float  # the meetings' cost of the search kept
    steps: int  # the meeting search's steps, over all restarts
    restarts: int  # the restarts run (fewer than asked when one could not be bettered)
    unresolved: int  # judges' conflicts no swap could resolve


def seat(
    players: int,
    games: int,
    *,
    tables: int | None = None,
    seats: int = 10,
    rules: SeatingRules | None = None,
    clubs: Sequence[str] = (),
    apart: Collection[tuple[int, int]] = (),
    judges: Mapping[int, str] | None = None,
    conflicts: Collection[tuple[str, int]] = (),
    history: Sequence[Sequence[Sequence[int]]] = (),
    present: Collection[int] | None = None,
    fewer: Collection[int] = (),
    seed: int = 1,
) -> Seating:
    """Seat `players` (indexes 0..players-1) for `games` games each, at most `tables`
    tables a round (default: as many as the field fills). `clubs`: each player's club
    ("" for none): two of one club are kept apart, as are the `apart` pairs. `judges`:
    table number -> judge; `conflicts`: (judge, player): the player never at that judge's
    table. `history`: the rounds played ([round][table][seat - 1] -> player), counted in
    every balance; `present`: the players to seat (default: all), each up to `games`
    (`fewer`: one game fewer)."""
    rules = rules or default_rules()
    who = sorted(set(present) if present is not None else range(players))
    if any(not 0 <= p < players for p in who):
        raise SeatingError(f"a player present is not one of the {players}")
    if not history and present is None:
        check_field(players, games, seats)
    elif len(who) < seats:
        raise SeatingError(f"{len(who)} players present cannot fill a table of {seats}")
    left, sat = games_left(who, games, history, fewer)
    most = len(who) // seats if tables is None else tables
    if most < 1:
        raise SeatingError(f"{most} tables: at least 1 is needed")
    weights = _apart(who, clubs, apart, rules)
    total = sum(left.values())
    best: Found | None = None
    judges = dict(judges or {})
    costs = Weights(rules.meetings_weight, rules.meetings_power, rules.table_balance, rules.judge)
    steps = 0
    runs = 0
    for i in range(rules.restarts):
        rng = random.Random(f"{seed}/{i}")
        plan = plan_rounds(left, most, seats, rng, sat)
        found = search(
            players,
            plan,
            seats,
            rng,
            max(MIN_STEPS, rules.effort * total),
            costs,
            history=history,
            apart=weights,
            judges=judges,
            conflicts=conflicts,
        )
        steps += found.steps
        runs += 1
        if best is None or found.cost < best.cost:
            best = found
        if found.perfect:
            break  # nothing out of place: another restart could do little better
    assert best is not None
    rounds = best.rounds
    rng = random.Random(f"{seed}/seats")
    number_tables(rounds, best, history)
    unresolved = resolve_conflicts(rounds, best)
    order_seats(
        rounds,
        seats,
        [rules.seat_weight(s + 1) for s in range(seats)],
        rules.seat_pairs,
        rules.table_halves,
        rng,
        10 * total,
        history,
    )
    sitting_out = [sorted(set(who) - {p for t in rnd for p in t}) for rnd in rounds]
    return Seating(
        rounds,
        sitting_out,
        figures(
            [*history, *rounds],
            players,
            seat_weights=[rules.seat_weight(s + 1) for s in range(seats)],
            apart=weights,
            judges=judges,
            conflicts=conflicts,
            present=who,
        ),
        best.cost,
        steps,
        runs,
        unresolved,
    )


def _apart(
    who: Sequence[int], clubs: Sequence[str], apart: Collection[tuple[int, int]], rules: SeatingRules
) -> dict[tuple[int, int], float]:
    """(a, b) with a < b -> the cost of each of their meetings."""
    out: dict[tuple[int, int], float] = {}
    if rules.club:
        members: dict[str, list[int]] = {}
        for p in who:
            club = " ".join(clubs[p].split()).casefold() if p < len(clubs) else ""
            if club:
                members.setdefault(club, []).append(p)
        for group in members.values():
            for i, a in enumerate(group):
                for b in group[i + 1 :]:
                    out[(a, b)] = rules.club
    present = set(who)
    for a, b in apart:
        if a != b and a in present and b in present:
            key = (min(a, b), max(a, b))
            out[key] = max(out.get(key, 0.0), rules.declared)
    return out


def seat_named(
    names: Sequence[str],
    clubs: Sequence[str],
    games: int,
    tables: int | None = None,
    rules: SeatingRules | None = None,
    seed: int = 1,
    seats: int = 10,
    history: Sequence[Sequence[Sequence[int]]] = (),
    present: Collection[int] | None = None,
    fewer: Collection[int] = (),
) -> Seating:
    """`seat` for a field given by the players' names: the rules' pairs kept apart, judges
    and conflicts are by name (an organiser's seating file)."""
    rules = rules or default_rules()
    try:
        apart, judges, conflicts = rules.named(names)
    except ConfigError as exc:
        raise SeatingError(str(exc)) from None
    return seat(
        len(names),
        games,
        tables=tables,
        seats=seats,
        rules=rules,
        clubs=clubs,
        apart=apart,
        judges=judges,
        conflicts=conflicts,
        history=history,
        present=present,
        fewer=fewer,
        seed=seed,
    )


def make_schedule(players: int, tables: int, rounds: int, seed: int = 1) -> Schedule:
    """Every player at every one of `rounds` rounds, at `tables` tables of equal size."""
    if tables < 1 or rounds < 1:
        raise SeatingError("a tournament needs at least one table and one round")
    if players % tables:
        raise SeatingError(
            f"{players} players do not fill {tables} tables evenly "
            f"({players // tables} or {players // tables + 1} a table)"
        )
    return seat(players, rounds, tables=tables, seats=players // tables, seed=seed).rounds


def evenness(schedule: Sequence[Sequence[Sequence[int]]], players: int) -> Figures:
    return figures(schedule, players)
