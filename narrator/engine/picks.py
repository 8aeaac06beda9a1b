"""What night hooks remember from one night to the next, and the checks of their args.

A pick is remembered per step (the doctor's last patient, the lover's last guest), so a
rule like "never the same seat twice in a row" is data in the step's args. Memories live
in `state.picks.last_pick` (step id -> seat).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from narrator.engine.context import STEP_ARGS, Ctx
from narrator.engine.rule_sections import Step


def unknown_args(args: Mapping[str, Any], allowed: Iterable[str]) -> str | None:
    unknown = set(args) - set(allowed) - STEP_ARGS
    return f"unknown args {sorted(unknown)}" if unknown else None


def flags(args: Mapping[str, Any], names: Iterable[str]) -> str | None:
    """The named args, where given, must be true or false."""
    for name in names:
        if name in args and not isinstance(args[name], bool):
            return f"{name} must be true or false, got {args[name]!r}"
    return None


def last_pick(ctx: Ctx, step: Step) -> int:
    return ctx.state.picks.last_pick.get(step.id, 0)


def remember(ctx: Ctx, step: Step, target: int) -> bool:
    """Remember tonight's pick; True when it repeats last night's (a rule may forbid that).

    Every night's pick is remembered, even one that had no effect, so "never the same
    seat twice in a row" holds for a pick repeated three nights running too."""
    repeated = bool(target) and target == last_pick(ctx, step)
    ctx.state.picks.last_pick[step.id] = target
    return repeated
