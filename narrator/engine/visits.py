"""Night visits that reach into the next day: a lover's guest, a boss's silence, a spy's
sleep.

A lover's visit, as its step's args say: `blocks` (the guest's own night choice has no
effect), `immune: true` (the guest cannot be nominated the next day; said in the
morning) or `immune: vote` (the guest may be nominated but is not voted on the next day;
said when the vote begins, as club's 004 has it), `dies_with` (the guest dies with the
lover if she is killed that night), `saves: [step ids]` (the guest survives those
steps' kills: 000's lover), `self` (she may spend the night with herself), `no_repeat`.
The boss silences one player for the next day (no proposal, no vote). The spy's sleeper
has no role for the rest of the night and the next day. All are announced, since the
table has to know; who made the visit is never said.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from narrator.engine.abilities import guarded, living_actors, news_arg, single_target, step_order
from narrator.engine.context import Ability, Ctx, Dawn, News
from narrator.engine.memory import Visit
from narrator.engine.picks import flags, remember, unknown_args
from narrator.engine.rule_sections import Role, Step
from narrator.engine.state import Pick
from narrator.engine.words import RecordEvent

_GUEST_FLAGS = ("blocks", "dies_with", "no_repeat", "self")


def _guest_args(args: Mapping[str, Any], roles: Mapping[str, Role]) -> str | None:
    problem = unknown_args(args, (*_GUEST_FLAGS, "immune", "saves")) or flags(args, _GUEST_FLAGS)
    if problem:
        return problem
    if args.get("immune", False) not in (True, False, "vote"):
        return f"immune must be true, false or vote, got {args['immune']!r}"
    saves = args.get("saves", [])
    if not isinstance(saves, list | tuple) or not all(isinstance(s, str) for s in saves):
        return f"saves must be a list of night step ids, got {saves!r}"
    return None


def _guest_at_step_end(ctx: Ctx, step: Step, choices: Sequence[Pick]) -> None:
    # Settled when the step ends, not at dawn: the block must stop the steps after it.
    st = ctx.state
    hosts = living_actors(ctx, step)
    target = single_target(ctx, step, choices)
    repeated = remember(ctx, step, target)
    alone = target in hosts and not step.args.get("self", False)
    if (not target or alone or not st.alive[target]
            or (repeated and step.args.get("no_repeat", False))):
        return
    st.visit.visits[step.id] = Visit(hosts[0], target)
    if step.args.get("blocks", False):
        st.visit.blocked.append(target)
    ctx.record(RecordEvent.VISIT, secret=True, step=step.id, host=hosts[0], guest=target,
               night=st.number)


def _guest_at_dawn(ctx: Ctx, step: Step, choices: Sequence[Pick], dawn: Dawn) -> None:
    st = ctx.state
    visit = st.visit.visits.pop(step.id, None)
    immune = step.args.get("immune", False)
    if immune:
        # Yesterday's immunity ends with this dawn whatever happened tonight.
        st.visit.immune = []
        st.visit.vote_immune = []
    if visit is None:
        return
    host, guest = visit.host, visit.guest
    if guest in dawn.kills and dawn.killed_by.get(guest) in step.args.get("saves", ()):
        dawn.saved.add(guest)
    if step.args.get("dies_with", False) and host in dawn.kills and host not in dawn.saved:
        # The same "how" as hers: the protocol must not tell a guest from a victim.
        dawn.kills.setdefault(guest, dawn.kills[host])
    if immune == "vote":
        st.visit.vote_immune = [guest]  # named when the vote begins (voting.py)
    elif immune:
        st.visit.immune = [guest]
        dawn.morning.append(("immune", guest))


# After kills, shields and heals: whether the lover dies tonight must be known.
_GUEST = Ability(check_args=_guest_args, at_step_end=_guest_at_step_end,
                 at_dawn=_guest_at_dawn, dawn_order=30)


def _silence_args(args: Mapping[str, Any], roles: Mapping[str, Role]) -> str | None:
    return unknown_args(args, ("self", "news")) or flags(args, ("self",)) or news_arg(args)


def _silence_at_dawn(ctx: Ctx, step: Step, choices: Sequence[Pick], dawn: Dawn) -> None:
    """The boss's choice takes no part in the next day's discussion nor its vote (the
    boss may choose himself where `self` says so). The table is told in the morning."""
    st = ctx.state
    target = single_target(ctx, step, choices)
    if not target or not st.alive[target] or guarded(ctx, target):
        return
    if target in living_actors(ctx, step) and not step.args.get("self", False):
        return
    st.muted = [target]
    dawn.news.append(News(step_order(ctx, step), str(step.args.get("news", "silenced")), target,
                          always=True))
    ctx.record(RecordEvent.SILENCE, secret=True, step=step.id, seat=target, night=st.number)


def _sleep_args(args: Mapping[str, Any], roles: Mapping[str, Role]) -> str | None:
    return unknown_args(args, ("news",)) or news_arg(args)


def _sleep_at_step_end(ctx: Ctx, step: Step, choices: Sequence[Pick]) -> None:
    """The spy puts another player to sleep: no role for the rest of the night (settled
    now, so the steps after hers do nothing for the sleeper; the sleeper's steps are
    still called, with the same words) and none the next day."""
    st = ctx.state
    spies = living_actors(ctx, step)
    target = single_target(ctx, step, choices)
    if not target or target in spies or not st.alive[target] or guarded(ctx, target):
        return
    st.visit.blocked.append(target)
    st.visit.asleep = [target]
    ctx.record(RecordEvent.ASLEEP, secret=True, step=step.id, seat=target, night=st.number)


def _sleep_at_dawn(ctx: Ctx, step: Step, choices: Sequence[Pick], dawn: Dawn) -> None:
    if "news" in step.args:
        for seat in ctx.state.visit.asleep:
            dawn.news.append(News(step_order(ctx, step), str(step.args["news"]), seat))


ABILITIES: dict[str, Ability] = {
    "guest": _GUEST,
    "silence": Ability(check_args=_silence_args, at_dawn=_silence_at_dawn),
    "sleep": Ability(check_args=_sleep_args, at_step_end=_sleep_at_step_end,
                     at_dawn=_sleep_at_dawn),
}
