"""Self-play of the boxed edition: seeded simulated players at every table size of the
setup table, with the special roles drawn as a club might choose them and the booklet's
variants switched, never raise and always end with one of the booklet's outcomes (never a
draw: the booklet has none). `narrator bench --only selfplay` plays 10,000."""

from __future__ import annotations

import pytest

from narrator.rules.loader import load_bundled
from narrator.sim.selfplay import play, with_random_roles

GAMES = 160

VARIANTS = [
    {},
    {"dawn.news": "deaths", "day.coin": "one", "day.reveal_role": False},
    {"day.votes_default_to_last": False},
]


@pytest.mark.parametrize("settings", VARIANTS, ids=["booklet", "variants", "hands_only"])
def test_boxed_self_play_always_ends(settings: dict[str, object]) -> None:
    base = load_bundled("boxed").with_settings(settings)
    sizes = sorted(base.setup.table) if base.setup else []
    seen_roles: set[str] = set()
    for seed in range(GAMES):
        seats = sizes[seed % len(sizes)]
        rules = with_random_roles(base, seats, seed)
        state = play(rules, seed, seats)
        assert state.outcome is not None
        winner = state.outcome.winner
        assert winner in ("red", "black", "maniac"), winner
        seen_roles |= set(state.deck)
    assert seen_roles == set(base.roles)


def test_boxed_tables_beyond_the_booklet_table_play_to_the_end() -> None:
    """«Играть можно и большим составом»: off the table (setup.follow_table false), 21-30
    seats with the box's own choice of roles and a third of the players criminals."""
    base = load_bundled("boxed").with_settings({"setup.follow_table": False})
    for seed, seats in enumerate(range(21, 31)):
        state = play(base, seed, seats)
        assert state.outcome is not None and state.outcome.winner in ("red", "black", "maniac")
        assert sum(state.deck.values()) == seats
