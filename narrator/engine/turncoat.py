"""Roles that change sides: a boxed turncoat is red until the rest of the mafia is gone.

A role with `turns_into` becomes that role the moment no other living player is on that
role's team, however they left (voted out, shot, removed). From then on it is counted,
checked and called as that role. The box tells the holder privately: the `turned` step
shows "yes" on the answer lights to a turned holder and "no" to one who has not turned,
every night, whatever happened.
"""

from __future__ import annotations

from collections.abc import Sequence

from narrator.engine.context import Ability, Ctx
from narrator.engine.effects import ShowAnswer
from narrator.engine.ruleset import Step
from narrator.engine.state import Pick


def turn(ctx: Ctx, seat: int, how: str) -> None:
    """After every elimination (the registry's `on_elimination`): does anyone turn?"""
    st = ctx.state
    roles = ctx.rules.roles
    if not any(roles[r].turns_into for r in st.deck) or not all(st.roles[1:]):
        return  # nobody can turn in this game, or roles not learned yet (night zero)
    for s in st.living():
        into = ctx.role(s).turns_into
        if into is None:
            continue
        team = ctx.rules.roles[into].team
        if any(ctx.role(o).team == team for o in st.living() if o != s):
            continue
        st.roles[s] = into
        st.turned.append(s)
        ctx.record("turned", secret=True, seat=s, role=into, phase=st.phase_label())


def _turned_at_step_end(ctx: Ctx, step: Step, choices: Sequence[Pick]) -> None:
    st = ctx.state
    turned = st.turned
    seats = [s for s in (*st.holders(step.roles), *turned) if st.alive[s]]
    if seats:
        answer = "yes" if any(s in turned for s in seats) else "no"
        ctx.out.append(ShowAnswer(answer, step.answer))


ABILITIES: dict[str, Ability] = {
    # Nobody chooses anything, but it is not a meeting either: the step only shows the answer.
    "turned": Ability(at_step_end=_turned_at_step_end),
}
