"""Night protection: a doctor's heal (settled at dawn) and a bodyguard's guard (settled
when the step ends, so that it stops the steps after it).

Neither says anything at night. A pick the rules do not allow (the same seat twice in a
row, a self-heal, a self-guard) is taken like any other and simply does nothing, so the
night sounds the same whatever was chosen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from narrator.engine.abilities import guarded, living_actors, news_arg, single_target, step_order
from narrator.engine.context import Ability, Ctx, Dawn, News
from narrator.engine.picks import flags, remember, unknown_args
from narrator.engine.rule_sections import Role, Step
from narrator.engine.state import Pick
from narrator.engine.words import RecordEvent

_SELF = ("always", "once", "never")


def _heal_args(args: Mapping[str, Any], roles: Mapping[str, Role]) -> str | None:
    problem = unknown_args(args, ("self", "no_repeat", "saves", "news", "kills_unattacked",
                                  "kill_news", "coma"))
    problem = problem or flags(args, ("no_repeat", "coma")) or news_arg(args, ("news", "kill_news"))
    if problem:
        return problem
    if args.get("self", "always") not in _SELF:
        return f"self must be one of {', '.join(_SELF)}, got {args['self']!r}"
    saves = args.get("saves", 0)
    if isinstance(saves, bool) or not isinstance(saves, int) or saves < 0:
        return f"saves must be a number of deaths (0: all), got {saves!r}"
    how = args.get("kills_unattacked")
    if how is not None and (not isinstance(how, str) or not how):
        return f"kills_unattacked must say how the patient dies, got {how!r}"
    return None


def _heal_at_dawn(ctx: Ctx, step: Step, choices: Sequence[Pick], dawn: Dawn) -> None:
    """The healer's patient is saved from tonight's attacks (`saves`: from that many, the
    first in the night's order; 0: from all). A boxed self-taught doctor's patient nobody
    came for dies of the medicines (`kills_unattacked`)."""
    st = ctx.state
    healers = living_actors(ctx, step)
    target = single_target(ctx, step, choices)
    repeated = remember(ctx, step, target)
    if not target or (repeated and step.args.get("no_repeat", False)) or guarded(ctx, target):
        return
    if target in healers:
        mode = step.args.get("self", "always")
        if mode == "never":
            return
        if mode == "once":
            if step.id in st.protection.self_healed:
                return
            st.protection.self_healed.append(step.id)
    order = step_order(ctx, step)
    how = step.args.get("kills_unattacked")
    if how and not dawn.attacks.get(target) and target not in dawn.stopped:
        dawn.attack(target, str(how), str(step.args.get("kill_news", "")), order)
        ctx.record(RecordEvent.MEDICINES, secret=True, step=step.id, seat=target, night=st.number)
        return
    saves = int(step.args.get("saves", 0))
    if saves:
        dawn.saves[target] = dawn.saves.get(target, 0) + saves
    else:
        dawn.saved.add(target)
    if "news" in step.args:
        dawn.save_news[target] = News(order, str(step.args["news"]), target)
    ctx.record(RecordEvent.HEALED, secret=True, step=step.id, seat=target, night=st.number)
    if step.args.get("coma", False) and (dawn.attacks.get(target) or target in dawn.kills):
        # 000: "the resident he saved spends the next day in a coma - he can only speak":
        # no nomination and no vote that day (as the silenced), said in the morning.
        st.muted.append(target)
        dawn.news.append(News(order, "coma", target, always=True))


def _guard_args(args: Mapping[str, Any], roles: Mapping[str, Role]) -> str | None:
    return unknown_args(args, ("news",)) or news_arg(args)


def _guard_at_step_end(ctx: Ctx, step: Step, choices: Sequence[Pick]) -> None:
    """The bodyguard guards another player for the rest of the night: every action of
    others aimed at that player fails (settled now, so it stops the steps after it).
    Nothing happens to the bodyguard."""
    st = ctx.state
    guards = living_actors(ctx, step)
    target = single_target(ctx, step, choices)
    if not target or target in guards or not st.alive[target]:
        return
    st.protection.guarded = [target]
    ctx.record(RecordEvent.GUARDED, secret=True, step=step.id, seat=target, night=st.number)


def _guard_at_dawn(ctx: Ctx, step: Step, choices: Sequence[Pick], dawn: Dawn) -> None:
    # "always" names the guarded every morning, whatever came for them, so it tells
    # nothing of the other steps; "stopped" names a guard only when it stopped a kill
    # (a stopped check or sleep would tell the table what the commissar or the spy chose).
    every_guard = ctx.rules.dawn.guard_news == "always"
    for seat in ctx.state.protection.guarded:
        if (every_guard or seat in dawn.stopped) and "news" in step.args:
            dawn.news.append(News(step_order(ctx, step), str(step.args["news"]), seat))


ABILITIES: dict[str, Ability] = {
    # After the kills: a self-taught doctor must know whether a killer came.
    "heal": Ability(check_args=_heal_args, at_dawn=_heal_at_dawn, dawn_order=20),
    "guard": Ability(check_args=_guard_args, at_step_end=_guard_at_step_end,
                     at_dawn=_guard_at_dawn, dawn_order=10),
}
