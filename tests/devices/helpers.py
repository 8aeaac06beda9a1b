"""Small async helpers for device tests: time moves only when a test moves it."""

from __future__ import annotations

import asyncio

from narrator.clock import FakeClock


async def settle(rounds: int = 10) -> None:
    """Let every ready callback and task run (nothing here waits on real time)."""
    for _ in range(rounds):
        await asyncio.sleep(0)


async def tick(clock: FakeClock, seconds: float, step: float | None = None) -> None:
    """Advance the fake clock by `seconds` (in steps of `step`), letting tasks run."""
    await settle()
    if step is None:
        clock.advance(seconds)
        await settle()
        return
    end = clock.now() + seconds
    while clock.now() < end - 1e-9:
        clock.advance(min(step, end - clock.now()))
        await settle()
