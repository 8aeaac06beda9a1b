"""A tiny seeded random generator whose whole state is one integer in the game state,
so a game's randomness (coin tosses, simulated players) round-trips through JSON."""

from __future__ import annotations

_MASK = MASK = (1 << 64) - 1
# splitmix64's step: the generator's state after k draws is the seed plus k times this,
# whatever was drawn, so a draw nobody reads may just add it (`Rng.skip`).
GOLDEN = 0x9E3779B97F4A7C15


def next_u64(state: int) -> tuple[int, int]:
    """splitmix64: returns (new state, random 64-bit value)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def randbelow(state: int, n: int) -> tuple[int, int]:
    state, value = next_u64(state)
    return state, value % n


class Rng:
    """The same generator as an object, for code outside the state (simulated players).

    `below` repeats splitmix64 inline: simulated players call it on every decision and
    the engine bench counts their time too.
    """

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def below(self, n: int) -> int:
        state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        self.state = state
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return (z ^ (z >> 31)) % n

    def skip(self) -> None:
        """A draw whose value is not needed: the state moves on as `below` moves it."""
        self.state = (self.state + GOLDEN) & _MASK

    def choice(self, items: list[int]) -> int:
        return items[self.below(len(items))]

    def chance(self, p: float) -> bool:
        return self.below(1_000_000) < p * 1_000_000
