"""A tiny seeded random generator whose whole state is one integer in the game state,
so a game's randomness (coin tosses, simulated players) round-trips through JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    # Native 64-bit integers when compiled (mypyc); plain ints at run time, where
    # annotations are not evaluated, so mypy_extensions is needed only to build.
    from mypy_extensions import i64

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
    the engine bench counts their time too. Compiled, the state is kept as two 32-bit
    halves (`_hi`, `_lo`) and mixed as such (see below); interpreted, as one integer
    (`_state`). `state` gives the one integer either way.
    """

    def __init__(self, seed: int) -> None:
        self._state = 0
        self._hi: i64 = 0
        self._lo: i64 = 0
        self.reseed(seed)

    @property
    def state(self) -> int:
        if COMPILED:
            return (int(self._hi) << 32) | int(self._lo)
        return self._state

    def reseed(self, seed: int) -> None:
        """The same as a new Rng(seed), without building one."""
        state = seed & _MASK
        if COMPILED:
            hi: int = state >> 32  # as integer objects: a 64-bit value is no i64
            lo: int = state & 0xFFFFFFFF
            self._hi = hi
            self._lo = lo
        else:
            self._state = state

    def reseed_at(self, seed: int, key: int, then: int | None = None) -> None:
        """Seed for one moment of a game: the game's seed, then the moment's number (and
        `then`, a second one: a night's step). Two arguments, not a tuple of keys: the
        players seed at every moment that draws."""
        if COMPILED:
            # On 32-bit halves, as `below`: the 64-bit products were integer objects.
            # Modulo 2**64 throughout, so the same state as the line below.
            hi, lo = _halves(seed)
            hi, lo = _times_add(hi, lo, key)
            if then is not None:
                hi, lo = _times_add(hi, lo, then)
            self._hi = hi
            self._lo = lo
            return
        value = (seed * 1_000_003 + key) & 0xFFFF_FFFF_FFFF_FFFF
        if then is not None:
            value = (value * 1_000_003 + then) & 0xFFFF_FFFF_FFFF_FFFF
        self._state = value  # inline: the players seed at every moment that draws

    def below(self, n: int) -> int:
        if COMPILED:
            if n < _HALVES_UP_TO:
                return self._below_in_halves(n)
            state, value = randbelow(self.state, n)
            self.reseed(state)
            return value
        state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        self._state = state
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return (z ^ (z >> 31)) % n

    def skip(self, draws: int = 1) -> None:
        """Draws whose values are not needed: the state moves on as `below` moves it."""
        if COMPILED:
            k: i64 = draws
            lo: i64 = self._lo + k * 0x7F4A7C15
            self._hi = (self._hi + k * 0x9E3779B9 + (lo >> 32)) & _M32
            self._lo = lo & _M32
        else:
            self._state = (self._state + draws * GOLDEN) & _MASK

    def choice(self, items: list[int]) -> int:
        return items[self.below(len(items))]

    def chance(self, p: float) -> bool:
        return self.below(1_000_000) < p * 1_000_000

    def _below_in_halves(self, n: int) -> int:
        """`below` (n < 2**30) on the state's 32-bit halves, all in native 64-bit integers
        when compiled (every intermediate below 2**50): no integer object is made."""
        lo: i64 = self._lo + 0x7F4A7C15
        h: i64 = (self._hi + 0x9E3779B9 + (lo >> 32)) & _M32
        lo &= _M32
        self._hi = h
        self._lo = lo
        lo ^= ((lo >> 30) | (h << 2)) & _M32
        h ^= h >> 30
        h, lo = _times(h, lo, 0xBF58476D, 0x1CE4E5B9)
        lo ^= ((lo >> 27) | (h << 5)) & _M32
        h ^= h >> 27
        h, lo = _times(h, lo, 0x94D049BB, 0x133111EB)
        lo ^= ((lo >> 31) | (h << 1)) & _M32
        h ^= h >> 31
        m: i64 = n
        return int(((h % m) * ((1 << 32) % m) + lo) % m)


# The compiled engine (scripts/build_engine.py) keeps integers below 2**62 unboxed; a 64-bit
# value or product is a heap object there and `below` cost thousands of instructions. There
# the state is kept and mixed as 32-bit halves in native 64-bit integers (`i64`), every
# intermediate below 2**50 (slower interpreted: so only compiled). Same values
# (tests/engine/test_rng.py).
COMPILED: Final = not __file__.endswith(".py")
_HALVES_UP_TO: Final = 1 << 30  # (h % n) * (2**32 % n) stays below 2**62
_M32: Final[i64] = 0xFFFFFFFF


def _halves(value: int) -> tuple[i64, i64]:
    """`value` mod 2**64 as (high, low) 32-bit halves."""
    if 0 <= value <= 0xFFFFFFFF:
        return 0, value  # a seed or a moment's number, nearly always: no 64-bit object
    value &= _MASK
    return value >> 32, value & 0xFFFFFFFF


def _times_add(h: i64, lo: i64, key: int) -> tuple[i64, i64]:
    """((h * 2**32 + lo) * 1_000_003 + key) mod 2**64 as (high, low) 32-bit halves: every
    intermediate below 2**54."""
    kh, kl = _halves(key)
    low: i64 = lo * 1_000_003 + kl
    high: i64 = (h * 1_000_003 + kh + (low >> 32)) & _M32
    return high, low & _M32


def _times(h: i64, lo: i64, ch: i64, cl: i64) -> tuple[i64, i64]:
    """(h * 2**32 + lo) * (ch * 2**32 + cl) mod 2**64, as (high, low) 32-bit halves. Every
    product is of two 16-bit pieces, so nothing reaches 2**63."""
    l0: i64 = lo & 0xFFFF
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
