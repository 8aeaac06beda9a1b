"""A tiny seeded random generator whose whole state is one integer in the game state,
so a game's randomness (coin tosses, simulated players) round-trips through JSON."""

from __future__ import annotations

from typing import Final

MASK: Final = (1 << 64) - 1
_MASK: Final = MASK
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
        if COMPILED and n < _HALVES_UP_TO:
            state, value = below_in_halves(self.state, n)
            self.state = state
            return value
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


# The compiled engine (scripts/build_engine.py) keeps integers below 2**62 unboxed; a 64-bit
# product is a heap object there and `below` cost thousands of instructions. There the
# mixing runs on 32-bit halves, every intermediate below 2**50 (about 4x faster compiled,
# 3.6x slower interpreted: so only compiled). Same values (tests/engine/test_compiled.py).
COMPILED: Final = not __file__.endswith(".py")
_HALVES_UP_TO: Final = 1 << 30  # (h % n) * (2**32 % n) stays below 2**62
_M32: Final = 0xFFFFFFFF


def _times(h: int, lo: int, ch: int, cl: int) -> tuple[int, int]:
    """(h * 2**32 + lo) * (ch * 2**32 + cl) mod 2**64, as (high, low) 32-bit halves. Every
    product is of two 16-bit pieces: compiled, a product is unboxed only below 2**30 each."""
    l0 = lo & 0xFFFF
    l1 = lo >> 16
    c0 = cl & 0xFFFF
    c1 = cl >> 16
    mid = l0 * c1 + l1 * c0
    low = l0 * c0 + ((mid & 0xFFFF) << 16)
    h0 = h & 0xFFFF
    d0 = ch & 0xFFFF
    high = (l1 * c1 + (mid >> 16) + (low >> 32)
            + h0 * c0 + ((h0 * c1 + (h >> 16) * c0) << 16)
            + l0 * d0 + ((l0 * (ch >> 16) + l1 * d0) << 16)) & _M32
    return high, low & _M32


def below_in_halves(state: int, n: int) -> tuple[int, int]:
    """`randbelow` (n < 2**30) on 32-bit halves: the new state and the value."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    h = state >> 32
    lo = state & _M32
    lo ^= ((lo >> 30) | (h << 2)) & _M32
    h ^= h >> 30
    h, lo = _times(h, lo, 0xBF58476D, 0x1CE4E5B9)
    lo ^= ((lo >> 27) | (h << 5)) & _M32
    h ^= h >> 27
    h, lo = _times(h, lo, 0x94D049BB, 0x133111EB)
    lo ^= ((lo >> 31) | (h << 1)) & _M32
    h ^= h >> 31
    return state, ((h % n) * ((1 << 32) % n) + lo) % n
