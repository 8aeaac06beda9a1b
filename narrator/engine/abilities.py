"""Night abilities: the small hooks a night step names in its rule-set data.

This module holds the common ones (meet, kill, check) and the helpers the others use;
`Ability` itself is in narrator.engine.context. Each module of abilities lists its own
in `ABILITIES`; narrator.engine.registry puts them together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from narrator.engine.context import STEP_ARGS, Ability, Ctx, Dawn
from narrator.engine.decoy import decoy_yes_no, waiting
from narrator.engine.effects import ShowAnswer
from narrator.engine.rule_sections import Role, Step
from narrator.engine.state import Pick
from narrator.engine.words import RecordEvent


def living_actors(ctx: Ctx, step: Step) -> list[int]:
    """The step's role holders who are alive and not blocked tonight (a lover's guest)."""
    st = ctx.state
    blocked = st.visit.blocked
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


def step_order(ctx: Ctx, step: Step) -> int:
    """The step's place in the night (the morning tells its news in this order)."""
    return ctx.rules.night.index(step) if step in ctx.rules.night else -1


def guarded(ctx: Ctx, target: int) -> bool:
    """Is this seat under a guard tonight: every action of others aimed at it fails."""
    return target in ctx.state.protection.guarded


def news_arg(args: Mapping[str, Any], names: tuple[str, ...] = ("news",)) -> str | None:
    for name in names:
        if name in args and (not isinstance(args[name], str) or not args[name]):
            return f"{name} must be a cue id, got {args[name]!r}"
    return None


# --- meet: night zero, role holders show themselves to the box ---------------------------


_MEET = Ability(chooses=False)

# A seance: the boxed ghost talker and the players out of the game talk by signs for the
# step's window. Nobody chooses anything the box must know.
_SEANCE = Ability(chooses=False)


# --- kill -----------------------------------------------------------------------------------


_MODES = ("unanimous", "leader", "single", "majority", "agreed")


def _kill_args(args: Mapping[str, Any], roles: Mapping[str, Role]) -> str | None:
    mode = args.get("mode", "unanimous")
    if mode not in _MODES:
        return f"mode must be one of {', '.join(_MODES)}, got {mode!r}"
    leader = args.get("leader")
    if mode == "leader" and (not isinstance(leader, str) or leader not in roles):
        return f"mode leader needs `leader:` naming a role, got {leader!r}"
    uncounted = args.get("uncounted", [])
    if not isinstance(uncounted, list) or any(r not in roles for r in uncounted):
        return f"uncounted must be a list of roles, got {uncounted!r}"
    if args.get("majority", "of_votes") not in ("of_members", "of_votes"):
        return f"majority must be of_members or of_votes, got {args['majority']!r}"
    if not isinstance(args.get("changes", False), bool):
        return f"changes must be true or false, got {args['changes']!r}"
    unknown = set(args) - {"mode", "leader", "how", "uncounted", "majority", "changes",
                           "news"} - STEP_ARGS
    return f"unknown args {sorted(unknown)}" if unknown else news_arg(args)


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
    if mode == "agreed":
        return agreed_target(ctx, step, choices)
    return single_target(ctx, step, choices)


def agreed_target(ctx: Ctx, step: Step, choices: Sequence[Pick]) -> int:
    """The seat the actors, eyes open, agreed on and point out (classic, 002: "They shall
    decide amongst themselves ... They shall communicate to the moderator by means of
    pointing"): any of them may tap it, one tap is enough; taps on different seats (or
    on "nobody" beside a seat) leave the moderator not understanding: nobody dies."""
    actors = living_actors(ctx, step)
    if not actors:
        return 0
    targets = {c.target for c in choices if c.actor == 0 or c.actor in actors}
    return targets.pop() if len(targets) == 1 else 0


def majority_target(ctx: Ctx, step: Step, choices: Sequence[Pick]) -> int:
    """The seat more than half of the votes chose, or 0 (a tie, or no majority: nobody).

    Voters are the step's living, unblocked holders whose vote counts (not the `uncounted`
    roles: the boxed sleepwalker). A voter's two taps void that vote (000's blind mafia,
    a simultaneous shot), unless `changes: true` (boxed: «Можно поменять своё решение»:
    the last choice counts). The majority is of the votes cast, or with `majority:
    of_members` of all the voters (the boxed mafia: a vote not given is not a yes)."""
    uncounted = step.args.get("uncounted", ())
    st = ctx.state
    voters = [s for s in living_actors(ctx, step) if st.roles[s] not in uncounted]
    collective = [c.target for c in choices if c.actor == 0]
    if collective and voters:
        return collective[-1]
    by_actor: dict[int, list[int]] = {}
    for c in choices:
        if c.actor in voters:
            by_actor.setdefault(c.actor, []).append(c.target)
    if step.args.get("changes", False):
        cast = [picks[-1] for picks in by_actor.values()]
    else:
        cast = [picks[0] for picks in by_actor.values() if len(picks) == 1]
    weighed = len(voters) if step.args.get("majority") == "of_members" else len(cast)
    for target in set(cast):
        if target and 2 * cast.count(target) > weighed:
            return target
    return 0


def _kill_at_dawn(ctx: Ctx, step: Step, choices: Sequence[Pick], dawn: Dawn) -> None:
    dawn.kill_called = True
    target = kill_target(ctx, step, choices)
    if not target or not ctx.state.alive[target]:
        return
    if guarded(ctx, target):
        dawn.stopped.add(target)
        ctx.record(RecordEvent.STOPPED, secret=True, step=step.id, seat=target, night=ctx.state.number)
        return
    dawn.killed_by.setdefault(target, step.id)
    dawn.attack(target, str(step.args.get("how", "shot")), str(step.args.get("news", "")),
                step_order(ctx, step))


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
    unknown = set(args) - {"reveals", "match", "kills", "miss_news"} - STEP_ARGS
    if unknown:
        return f"unknown args {sorted(unknown)}"
    if not isinstance(args.get("kills", False), bool):
        return f"kills must be true or false, got {args['kills']!r}"
    if not isinstance(args.get("miss_news", ""), str):
        return f"miss_news must be a cue id (or empty: not said), got {args['miss_news']!r}"
    return None


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
        # A dead checker, or one who chose nothing: the display lights all the same.
        if not ctx.rules.answers_public and step.answer > 0 and not waiting(ctx, step.roles, choices):
            ctx.out.append(decoy_yes_no(ctx, step.id, step.answer))
        return
    yes = check_answer(ctx, step, target)
    actors = living_actors(ctx, step)
    ctx.record(RecordEvent.CHECK, secret=True, step=step.id, by=actors, target=target,
               answer="yes" if yes else "no", night=ctx.state.number)
    if ctx.rules.answers_public:
        ctx.say("answer_public_yes" if yes else "answer_public_no", seat=target)
    else:
        ctx.out.append(ShowAnswer("yes" if yes else "no", step.answer))


def _check_at_dawn(ctx: Ctx, step: Step, choices: Sequence[Pick], dawn: Dawn) -> None:
    """`kills: true` (000's commissioner, club's setting sheriff_shoots: "if his check was
    successful (that is, the verified resident is not an honest one), kills him"): a
    "yes" is also a shot, settled with the night's other kills (a heal saves). A "no" is
    a miss, told in the morning by the `miss_news` cue when there is one (000: "If he hits
    a citizen, the leader informs everyone that the commissioner missed")."""
    if not step.args.get("kills", False):
        return
    target = single_target(ctx, step, choices)
    if not target or not ctx.state.alive[target]:
        return
    if not check_answer(ctx, step, target):
        miss = str(step.args.get("miss_news", ""))
        if miss:
            ctx.state.news.append(miss)  # said after the victims, once the game goes on
        return
    dawn.kill_called = True
    if guarded(ctx, target):
        dawn.stopped.add(target)
        return
    dawn.killed_by.setdefault(target, step.id)
    dawn.attack(target, "shot", "", step_order(ctx, step))


_CHECK = Ability(check_args=_check_args, at_step_end=_check_at_step_end, at_dawn=_check_at_dawn)

ABILITIES: dict[str, Ability] = {"meet": _MEET, "seance": _SEANCE, "kill": _KILL, "check": _CHECK}
