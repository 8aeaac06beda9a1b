"""Night protection: a doctor's heal and a bodyguard's shield, settled at dawn.

Both only change tonight's result and say nothing. A pick the rules do not allow (the
same seat twice in a row, a second self-heal) is taken like any other and simply does
nothing, so the night sounds the same whatever was chosen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from narrator.engine.abilities import living_actors, single_target
from narrator.engine.context import Ability, Ctx, Dawn
from narrator.engine.picks import flags, remember, unknown_args
from narrator.engine.ruleset import Role, Step
from narrator.engine.state import Pick

_SELF = ("always", "once", "never")


def _heal_args(args: Mapping[str, Any], roles: Mapping[str, Role]) -> str | None:
    problem = unknown_args(args, ("self", "no_repeat")) or flags(args, ("no_repeat",))
    if problem:
        return problem
    if args.get("self", "always") not in _SELF:
        return f"self must be one of {', '.join(_SELF)}, got {args['self']!r}"
    return None


def _heal_at_dawn(ctx: Ctx, step: Step, choices: Sequence[Pick], dawn: Dawn) -> None:
    st = ctx.state
    healers = living_actors(ctx, step)
    target = single_target(ctx, step, choices)
    repeated = remember(ctx, step, target)
    if not target or (repeated and step.args.get("no_repeat", False)):
        return
    if target in healers:
        mode = step.args.get("self", "always")
        if mode == "never":
            return
        if mode == "once":
            if step.id in st.self_healed:
                return
            st.self_healed.append(step.id)
    dawn.saved.add(target)
    ctx.record("healed", secret=True, step=step.id, seat=target, night=st.number)


_HEAL = Ability(check_args=_heal_args, at_dawn=_heal_at_dawn)


def _protect_args(args: Mapping[str, Any], roles: Mapping[str, Role]) -> str | None:
    return unknown_args(args, ("no_repeat",)) or flags(args, ("no_repeat",))


def _protect_at_dawn(ctx: Ctx, step: Step, choices: Sequence[Pick], dawn: Dawn) -> None:
    """The bodyguard stands in front of the chosen player: an attack on them hits the
    bodyguard instead (whom only a heal can then save)."""
    guards = living_actors(ctx, step)
    target = single_target(ctx, step, choices)
    repeated = remember(ctx, step, target)
    if not target or target in guards or (repeated and step.args.get("no_repeat", False)):
        return
    if target in dawn.kills:
        how = dawn.kills.pop(target)
        dawn.kills.setdefault(guards[0], how)
        ctx.record("shielded", secret=True, step=step.id, seat=target, guard=guards[0],
                   night=ctx.state.number)


ABILITIES: dict[str, Ability] = {
    "heal": _HEAL,
    # After the kills are known and before anything that follows a victim (a lover's guest).
    "protect": Ability(check_args=_protect_args, at_dawn=_protect_at_dawn, dawn_order=10),
}
