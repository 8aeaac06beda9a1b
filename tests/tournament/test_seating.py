"""The seating's evenness: every player once a round, never the same seat position twice
while there are no more rounds than seats, and pair meetings at the bound the tables
allow."""

from __future__ import annotations

import itertools

from narrator.tournament.seating import evenness, make_schedule


def test_four_tables_two_rounds_reach_the_bound() -> None:
    schedule = make_schedule(40, 4, 2, seed=3)
    for rnd in schedule:
        assert sorted(p for table in rnd for p in table) == list(range(40))
    ev = evenness(schedule, 40)
    assert ev.seat_repeat_max == 1  # no player in the same seat position twice
    # Ten players of a round-1 table meet again at four round-2 tables: 3 + 3 + 2 + 2 at
    # best, so 3 + 3 + 1 + 1 = 8 pairs meet twice per table, 32 in all, none three times.
    twice = sum(
        1
        for a, b in itertools.combinations(range(40), 2)
        if sum(1 for rnd in schedule for t in rnd if a in t and b in t) == 2
    )
    assert twice == 32
    assert ev.meetings_max == 2


def test_ten_rounds_ten_seats_every_position_once() -> None:
    schedule = make_schedule(100, 10, 10, seed=1)
    ev = evenness(schedule, 100)
    assert ev.seat_spread_max == 0  # each player sat in each of the ten positions once
    assert ev.meetings_max <= 3


def test_more_rounds_than_seats_still_even() -> None:
    ev = evenness(make_schedule(20, 2, 14, seed=2), 20)
    assert ev.seat_repeat_max == 2 and ev.seat_spread_max <= 1
