"""A tiny seeded random generator whose whole state is one integer in the game state,
so a game's randomness (coin tosses, simulated players) round-trips through JSON."""

from __future__ import annotations

MASK = (1 << 64) - 1
_MASK = MASK
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

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    @property
    def state(self) -> int:
        return self._state

    def reseed(self, seed: int) -> None:
        """The same as a new Rng(seed), without building one."""
        self._state = seed & _MASK

    def reseed_at(self, seed: int, key: int, then: int | None = None) -> None:
        """Seed for one moment of a game: the game's seed, then the moment's number (and
        `then`, a second one: a night's step). Two arguments, not a tuple of keys: the
        players seed at every moment that draws."""
        value = (seed * 1_000_003 + key) & _MASK
        if then is not None:
            value = (value * 1_000_003 + then) & _MASK
        self._state = value

    def below(self, n: int) -> int:
        state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        self._state = state
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return (z ^ (z >> 31)) % n

    def skip(self, draws: int = 1) -> None:
        """Draws whose values are not needed: the state moves on as `below` moves it."""
        self._state = (self._state + draws * GOLDEN) & _MASK

    def choice(self, items: list[int]) -> int:
        return items[self.below(len(items))]

    def chance(self, p: float) -> bool:
        return self.below(1_000_000) < p * 1_000_000
