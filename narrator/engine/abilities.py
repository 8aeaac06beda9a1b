"""Night abilities: the small hooks a night step names in its rule-set data.

An ability sees the step's choices when the step ends (`at_step_end`, e.g. a check shows
its answer at once) and again at dawn (`at_dawn`, in step order, e.g. kills and heals
fold into tonight's result). Choices are `[actor, target]` pairs, actor 0 for a
collective keypad entry, target 0 for "nobody".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from narrator.engine.context import Ctx
from narrator.engine.effects import ShowAnswer
from narrator.engine.ruleset import Role, Step


@dataclass(slots=True)
class Dawn:
    """Tonight's result as the abilities build it, step by step."""

    kills: dict[int, str] = field(default_factory=dict)  # seat -> how ("shot", ...)
    saved: set[int] = field(default_factory=set)
    notes: dict[str, Any] = field(default_factory=dict)
    # Public news of the night, said after its victims leave: (cue, seat). A seat that
    # left tonight is passed over (a silenced player who was also shot...).
    morning: list[tuple[str, int]] = field(default_factory=list)


# Args the night runner reads itself, allowed on every step: `cues` (extra cue ids the
# step's hooks say) and `nobody` (the call-out ends with a "nobody" call: no choice).
STEP_ARGS = frozenset({"cues", "nobody"})


def _no_args(args: Mapping[str, Any], roles: Mapping[str, Role]) -> str | None:
    extra = set(args) - STEP_ARGS
    return None if not extra else f"this ability takes no args, got {sorted(extra)}"


def _nothing_at_step_end(ctx: Ctx, step: Step, choices: list[list[int]]) -> None:
    return None


def _nothing_at_dawn(ctx: Ctx, step: Step, choices: list[list[int]], dawn: Dawn) -> None:
    return None


@dataclass(frozen=True, slots=True)
class Ability:
    check_args: Callable[[Mapping[str, Any], Mapping[str, Role]], str | None] = _no_args
    at_step_end: Callable[[Ctx, Step, list[list[int]]], None] = _nothing_at_step_end
    at_dawn: Callable[[Ctx, Step, list[list[int]], Dawn], None] = _nothing_at_dawn
    # Does a living role holder choose a target (False: a meeting, only taps are counted)?
    chooses: bool = True
    # When at_dawn runs: kills at 0, then what moves or follows them (a bodyguard's
    # shield, a lover's guest); equal orders keep the night's step order.
    dawn_order: int = 0


ABILITIES: dict[str, Ability] = {}


def living_actors(ctx: Ctx, step: Step) -> list[int]:
    """The step's role holders who are alive and not blocked tonight (a lover's guest)."""
    st = ctx.state
    blocked = st.extra.get("blocked", ())
    return [s for s in st.holders(step.roles) if st.alive[s] and s not in blocked]


def single_target(ctx: Ctx, step: Step, choices: list[list[int]]) -> int:
    """The one target the step's living actors agreed on, or 0.

    Every living actor must have chosen exactly once and all on the same seat; a
    collective keypad entry (actor 0) stands for all of them.
    """
    actors = living_actors(ctx, step)
    if not actors:
        return 0
    collective = [t for a, t in choices if a == 0]
    if collective:
        return collective[-1]
    by_actor: dict[int, list[int]] = {}
    for actor, target in choices:
        by_actor.setdefault(actor, []).append(target)
    targets = set()
    for actor in actors:
        picks = by_actor.get(actor, [])
        if len(picks) != 1:
            return 0
        targets.add(picks[0])
    return targets.pop() if len(targets) == 1 else 0


# --- meet: night zero, role holders show themselves to the box ---------------------------


ABILITIES["meet"] = Ability(chooses=False)


# --- kill -----------------------------------------------------------------------------------


def _kill_args(args: Mapping[str, Any], roles: Mapping[str, Role]) -> str | None:
    mode = args.get("mode", "unanimous")
    if mode not in ("unanimous", "leader", "single"):
        return f"mode must be unanimous, leader or single, got {mode!r}"
    leader = args.get("leader")
    if mode == "leader" and leader not in roles:
        return f"mode leader needs `leader:` naming a role, got {leader!r}"
    unknown = set(args) - {"mode", "leader", "how"} - STEP_ARGS
    return f"unknown args {sorted(unknown)}" if unknown else None


def kill_target(ctx: Ctx, step: Step, choices: list[list[int]]) -> int:
    mode = step.args.get("mode", "unanimous")
    if mode == "leader":
        # The leader (the don in club rules) has the last word when alive and choosing.
        leader_seats = [s for s in ctx.state.holders([step.args["leader"]]) if ctx.state.alive[s]]
        picks = [t for a, t in choices if a in leader_seats or a == 0]
        if picks:
            return picks[-1]
        targets = {t for _a, t in choices}
        return targets.pop() if len(targets) == 1 else 0
    return single_target(ctx, step, choices)


def _kill_at_dawn(ctx: Ctx, step: Step, choices: list[list[int]], dawn: Dawn) -> None:
    target = kill_target(ctx, step, choices)
    if target and ctx.state.alive[target]:
        dawn.kills.setdefault(target, str(step.args.get("how", "shot")))


ABILITIES["kill"] = Ability(check_args=_kill_args, at_dawn=_kill_at_dawn)


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
    role = ctx.role(target)
    value = role.name if step.args["reveals"] == "role" else role.check_team
    return value in step.args["match"]


def _check_at_step_end(ctx: Ctx, step: Step, choices: list[list[int]]) -> None:
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


ABILITIES["check"] = Ability(check_args=_check_args, at_step_end=_check_at_step_end)
