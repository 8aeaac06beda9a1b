"""The field between rounds: a withdrawal and a late arrival re-seat the rounds not yet
sent (those sent or played stay as they are), every player present keeps the
tournament's games but the few named who play one fewer so that tables fill; a
substitute takes one seat of a round whose game is not in, and the intake then expects
them there."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from narrator.tournament.changes import arrive, substitute, withdraw
from narrator.tournament.collector import Collector
from narrator.tournament.event import Tournament
from narrator.tournament.organiser import make_seating, seat_stage
from narrator.tournament.signing import make_key
from narrator.tournament.store import Store, StoreError
from tests.tournament.test_stages import play


def cup(tmp_path: Path, rounds: int, **kw: object) -> Collector:
    store = Store(tmp_path / "t.sqlite")
    for i in range(20):
        store.add_player(f"P{i:02d}", f"Club {i % 5}")
    c = Collector(store, make_key(), Tournament("Cup", rounds=rounds, **kw))  # type: ignore[arg-type]
    make_seating(c)
    return c


def games_of(c: Collector) -> Counter[int]:
    return Counter(p for r in c.store.seating().values() for t in r.values() for p in t)


def test_a_withdrawal_reseats_the_rounds_not_sent(tmp_path: Path) -> None:
    c = cup(tmp_path, rounds=4)
    round1 = c.store.seating()[1]
    play(c, 1, 1, "red")
    play(c, 1, 2, "black")
    gone = c.store.players()[3]
    done = withdraw(c, gone.name.lower())  # names as typed: any case
    seating = c.store.seating()
    assert seating[1] == round1 and done.first == 2 and done.last == max(seating) == c.t.rounds
    assert all(gone.id not in t for r in range(2, done.last + 1) for t in seating[r].values())
    # 19 players x 3 games left = 57: seven play one fewer, the rest fill five tables.
    count = games_of(c)
    names = {p.id: p.name for p in c.store.players()}
    assert count[gone.id] == 1 and len(done.fewer) == 7
    assert {names[p]: n for p, n in count.items() if p != gone.id} == {
        name: 3 if name in done.fewer else 4 for name in names.values() if name != gone.name
    }
    assert all(len(t) == 10 for r in seating.values() for t in r.values())
    assert gone.id in {line.player.id for line in c.standings() if line.games == 1}  # round 1 still counts
    assert c.store.tournament() == c.t and c.t.games == 4
    with pytest.raises(StoreError, match="has withdrawn already"):
        withdraw(c, gone.name)
    with pytest.raises(StoreError, match="no player Nobody"):
        withdraw(c, "Nobody")


def test_a_late_arrival_plays_the_rounds_not_sent(tmp_path: Path) -> None:
    c = cup(tmp_path, rounds=3)
    c.store.add_order(1, 1, "Box 1")  # round 1 sent to a table: it stays
    round1 = c.store.seating()[1]
    done = arrive(c, "Late Lena", "Club 9")
    seating = c.store.seating()
    assert seating[1] == round1 and done.first == 2
    late = next(p for p in c.store.players() if p.name == "Late Lena")
    count = games_of(c)
    # 20 x 2 left + her 3 = 43: she and two others play one fewer (she first), 4 tables.
    assert done.fewer[0] == "Late Lena" and len(done.fewer) == 3 and count[late.id] == 2
    assert sorted(count.values()).count(2) == 3 and len(count) == 21
    assert all(len(t) == 10 for r in seating.values() for t in r.values())
    with pytest.raises(StoreError, match="a player called late lena already"):
        arrive(c, "late lena")


def test_a_substitute_takes_one_seat(tmp_path: Path) -> None:
    c = cup(tmp_path, rounds=2)
    seated = c.store.seating()[2][1]
    play(c, 1, 1, "red")
    replaced = substitute(c, 2, 1, 3, "Reserve Rita")
    names = {p.id: p.name for p in c.store.players()}
    assert replaced == names[seated[2]]
    now = c.store.seating()[2][1]
    assert names[now[2]] == "Reserve Rita" and now[:2] + now[3:] == seated[:2] + seated[3:]
    assert c.plan().seats[(2, 1)].names[2] == "Reserve Rita"  # the intake expects her there
    with pytest.raises(StoreError, match="has its game already"):
        substitute(c, 1, 1, 3, "Reserve Rita")
    with pytest.raises(StoreError, match="plays round 2 already"):
        substitute(c, 2, 1, 4, "Reserve Rita")
    with pytest.raises(StoreError, match="no table 1 seat 11"):
        substitute(c, 2, 1, 11, "Someone")
    assert "Someone" not in {p.name for p in c.store.players()}  # nothing added on a refusal


def test_the_field_is_fixed_once_a_later_stage_is_seated(tmp_path: Path) -> None:
    c = cup(tmp_path, rounds=1, final="1")
    play(c, 1, 1, "red")
    play(c, 1, 2, "red")
    seat_stage(c)
    with pytest.raises(StoreError, match="a later stage is seated"):
        withdraw(c, "P01")
