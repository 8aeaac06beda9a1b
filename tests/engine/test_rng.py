"""The players' generator (`Rng`) draws exactly what the state's `randbelow` draws,
through reseeds and skips."""

from __future__ import annotations

from narrator.engine.rng import MASK, Rng, randbelow

SEEDS = [0, 1, 7, 2**31 - 1, 2**32, 2**62 + 5, 2**63 + 12345, MASK, 0x9E3779B97F4A7C15]
BOUNDS = [1, 2, 3, 10, 1_000_000, 2**29 + 3, 2**30 - 1, 2**30, 2**40 + 7, 2**64 - 3]


def test_below_matches_randbelow_for_every_bound() -> None:
    for seed in SEEDS:
        rng, state = Rng(seed), seed & MASK
        for i in range(400):
            n = BOUNDS[i % len(BOUNDS)]
            state, expected = randbelow(state, n)
            assert rng.below(n) == expected, (seed, i, n)
            assert rng.state == state


def test_skip_and_reseed_move_the_state_as_a_draw_and_a_new_generator() -> None:
    for seed in SEEDS:
        rng = Rng(seed)
        state = seed & MASK
        for _ in range(50):
            rng.skip()
            state, _ = randbelow(state, 1)
            assert rng.state == state
        for k in (2, 7, 40):
            rng.skip(k)
            for _ in range(k):
                state, _ = randbelow(state, 1)
            assert rng.state == state
        rng.reseed(seed * 3 + 1)
        fresh = Rng(seed * 3 + 1)
        assert [rng.below(97) for _ in range(20)] == [fresh.below(97) for _ in range(20)]


def test_reseed_at_a_moment_is_the_seed_mixed_with_its_numbers() -> None:
    rng = Rng(0)
    for seed in [*SEEDS, -1, -(2**70)]:
        for key in (0, 1, 177, 2**31 - 1, 2**32 + 9, 2**64 - 1, 2**66 + 3, -5):
            for then in (None, 0, 4, 2**33 + 1, -2):
                value = (seed * 1_000_003 + key) & MASK
                if then is not None:
                    value = (value * 1_000_003 + then) & MASK
                rng.reseed_at(seed, key, then)
                assert rng.state == value, (seed, key, then)
