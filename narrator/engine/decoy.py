"""Decoy answers: what the answer display shows when no answer is expected.

When no answer is due and nobody expects one (every seat that may hold the checking role
is dead, or the living ones chose nothing), the answer display still lights for the
step's fixed time with a yes/no (or a card's blink count) drawn from the game's seeded
random source, so a player peeking at the LEDs cannot tell a dead checker from a living
one by the display. A living checker who chose and gets no answer by the rules (blocked
by a lover, a guarded target, an ambiguous pick) is never shown a decoy: it would
mislead a player, which changes the game (docs/reliability.md says what a peeker can
learn then).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence

from narrator.engine.context import Ctx
from narrator.engine.effects import ShowAnswer
from narrator.engine.rng import randbelow
from narrator.engine.state import Pick


def readers(ctx: Ctx, roles: tuple[str, ...]) -> list[int]:
    """Living seats that hold, or may still hold (roles not learned yet), one of `roles`."""
    st = ctx.state
    return [s for s in range(1, st.seats + 1) if st.alive[s] and (
        st.roles[s] in roles or (not st.roles[s] and bool(set(st.possible[s]) & set(roles))))]


def waiting(ctx: Ctx, roles: tuple[str, ...], choices: Sequence[Pick]) -> int:
    """How many living checkers chose tonight (a keypad entry speaks for them all): each
    expects an answer; the others would read a decoy knowing it is one."""
    living = readers(ctx, roles)
    actors = {c.actor for c in choices}
    return len(living) if 0 in actors else len(actors & set(living))


def _draw(ctx: Ctx, step_id: str, n: int, salt: int = 0) -> int:
    st = ctx.state
    mix = st.rng ^ (st.number << 32) ^ zlib.crc32(step_id.encode()) ^ (salt << 48)
    return randbelow(mix, n)[1]


def decoy_yes_no(ctx: Ctx, step_id: str, seconds: float, salt: int = 0) -> ShowAnswer:
    return ShowAnswer("yes" if _draw(ctx, step_id, 2, salt) else "no", seconds, decoy=True)


def decoy_card(ctx: Ctx, step_id: str, seconds: float, cards: list[str],
               code: Callable[[Ctx, str], int], salt: int = 0) -> ShowAnswer:
    """One of the cards a check can show, with its blink code (`code`)."""
    card = cards[_draw(ctx, step_id, len(cards), salt)]
    return ShowAnswer(card, seconds, code(ctx, card), decoy=True)
