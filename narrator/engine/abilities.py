"""Night abilities: the small hooks a night step names in its rule-set data.

This module holds the common ones (meet, kill, check) and the helpers the others use;
`Ability` itself is in narrator.engine.context. Each module of abilities lists its own
in `ABILITIES`; narrator.engine.registry puts them together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from narrator.engine.context import STEP_ARGS, Ability, Ctx, Dawn
from narrator.engine.effects import ShowAnswer
from narrator.engine.ruleset import Role, Step
from narrator.engine.state import Pick


def living_actors(ctx: Ctx, step: Step) -> list[int]:
    """The step's role holders who are alive and not blocked tonight (a lover's guest)."""
    st = ctx.state
    blocked = st.blocked
    return [s for s in st.holders(step.roles) if st.alive[s] and s not in blocked]


def single_target(ctx: Ctx, step: Step, choices: Sequence[Pick]) -> int:
    """The one target the step's living actors agreed on, or 0.

    Every living actor must have chosen exactly once and all on the same seat; a
    collective keypad entry (actor 0) stands for all of them.
    """
    actors = living_actors(ctx, step)
    if not actors:
        return 0
    collective = [c.target for c in choices if c.actor == 0]
    if collective:
        return collective[-1]
    by_actor: dict[int, list[int]] = {}
    for c in choices:
        by_actor.setdefault(c.actor, []).append(c.target)
    targets = set()
    for actor in actors:
        picks = by_actor.get(actor, [])
        if len(picks) != 1:
            return 0
        targets.add(picks[0])
    return targets.pop() if len(targets) == 1 else 0


# --- meet: night zero, role holders show themselves to the box ---------------------------


_MEET = Ability(chooses=False)


# --- kill -----------------------------------------------------------------------------------


def _kill_args(args: Mapping[str, Any], roles: Mapping[str, Role]) -> str | None:
    mode = args.get("mode", "unanimous")
    if mode not in ("unanimous", "leader", "single", "majority"):
        return f"mode must be unanimous, leader, single or majority, got {mode!r}"
    leader = args.get("leader")
    if mode == "leader" and leader not in roles:
        return f"mode leader needs `leader:` naming a role, got {leader!r}"
    unknown = set(args) - {"mode", "leader", "how"} - STEP_ARGS
    return f"unknown args {sorted(unknown)}" if unknown else None


def kill_target(ctx: Ctx, step: Step, choices: Sequence[Pick]) -> int:
    mode = step.args.get("mode", "unanimous")
    if mode == "leader":
        # The leader (the don in club rules) has the last word when alive and choosing.
        leader_seats = [s for s in ctx.state.holders([step.args["leader"]]) if ctx.state.alive[s]]
        picks = [c.target for c in choices if c.actor in leader_seats or c.actor == 0]
        if picks:
            return picks[-1]
        targets = {c.target for c in choices}
        return targets.pop() if len(targets) == 1 else 0
    if mode == "majority":
        return majority_target(ctx, step, choices)
    return single_target(ctx, step, choices)


def majority_target(ctx: Ctx, step: Step, choices: Sequence[Pick]) -> int:
    """The seat more than half of the taps cast chose (000's blind mafia, simultaneous
    shot): each living actor taps once at most (two taps void theirs); a tie kills nobody."""
    actors = living_actors(ctx, step)
    collective = [c.target for c in choices if c.actor == 0]
    if collective:
        return collective[-1]
    by_actor: dict[int, list[int]] = {}
    for c in choices:
        by_actor.setdefault(c.actor, []).append(c.target)
    cast = [picks[0] for actor, picks in by_actor.items() if actor in actors and len(picks) == 1]
    for target in set(cast):
        if 2 * cast.count(target) > len(cast):
            return target
    return 0


def _kill_at_dawn(ctx: Ctx, step: Step, choices: Sequence[Pick], dawn: Dawn) -> None:
    dawn.kill_called = True
    target = kill_target(ctx, step, choices)
    if target and ctx.state.alive[target]:
        dawn.kills.setdefault(target, str(step.args.get("how", "shot")))
        dawn.killed_by.setdefault(target, step.id)


_KILL = Ability(check_args=_kill_args, at_dawn=_kill_at_dawn)


# --- check: a private yes/no answer ----------------------------------------------------------


def question_args(args: Mapping[str, Any], roles: Mapping[str, Role]) -> str | None:
    """What a yes/no question needs: `reveals` (role or team) and what to `match`."""
    if args.get("reveals") not in ("role", "team"):
        return "reveals must be role or team"
    match = args.get("match")
    if not isinstance(match, list) or not match:
        return "match must be a list of roles or teams"
    if args["reveals"] == "role":
        bad = [m for m in match if m not in roles]
        if bad:
            return f"unknown role {bad[0]!r} in match"
    return None


def _check_args(args: Mapping[str, Any], roles: Mapping[str, Role]) -> str | None:
    problem = question_args(args, roles)
    if problem:
        return problem
    unknown = set(args) - {"reveals", "match"} - STEP_ARGS
    return f"unknown args {sorted(unknown)}" if unknown else None


def check_answer(ctx: Ctx, step: Step, target: int) -> bool:
    st = ctx.state
    if st.roles[target]:
        names: tuple[str, ...] = (st.roles[target],)
    else:
        # On the night the box learns the cards (classic's first night, when an angel asks
        # before every card has shown itself) the seat's card is one of the roles it may
        # still be: every one of them answers alike (in classic, all red), and if not the
        # default role's answer stands.
        options = st.possible[target]
        names = (ctx.rules.default_role,) if ctx.rules.default_role in options else options[:1]
    role = ctx.rules.roles[names[0]]
    value = role.name if step.args["reveals"] == "role" else role.check_team
    return value in step.args["match"]


def _check_at_step_end(ctx: Ctx, step: Step, choices: Sequence[Pick]) -> None:
    target = single_target(ctx, step, choices)
    if not target:
        return
    yes = check_answer(ctx, step, target)
    actors = living_actors(ctx, step)
    ctx.record("check", secret=True, step=step.id, by=actors, target=target,
               answer="yes" if yes else "no", night=ctx.state.number)
    if ctx.rules.answers_public:
        ctx.say("answer_public_yes" if yes else "answer_public_no", seat=target)
    else:
        ctx.out.append(ShowAnswer("yes" if yes else "no", step.answer))


_CHECK = Ability(check_args=_check_args, at_step_end=_check_at_step_end)

ABILITIES: dict[str, Ability] = {"meet": _MEET, "kill": _KILL, "check": _CHECK}
