"""Night questions with private answers, beyond the sport check.

`ask` covers the roles that question the box at night in the other rule sets:
- `reveals: card`: the answer is the checked player's card, as a role check shows it
  (boxed: the commissar learns the role; `shows_as` hides the ninja), not yes or no;
- `each: true`: every holder asks about their own player (Princeton angels);
- `ranked: true`: the first of the step's roles with a living holder asks, the others
  only watch (boxed: the sergeant takes over the commissar's checks);
- `targets: living` / `dead`: only questions about such players are answered.
A question about a guarded player (the boxed bodyguard's) gets no answer.
Before the step's sleep cue, every answer gets a window of `show` seconds, one window per
card of the step's roles in the deck (a public number), so the night lasts the same
whoever asked, died or was blocked. An answer is shown on the answer lights, never
spoken, unless the rule set makes answers public.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from narrator.engine.abilities import check_answer, guarded, living_actors, question_args
from narrator.engine.context import Ability, Ctx, TaskSpec
from narrator.engine.decoy import decoy_card, decoy_yes_no, waiting
from narrator.engine.effects import ShowAnswer
from narrator.engine.picks import flags, unknown_args
from narrator.engine.rule_sections import Role, Step
from narrator.engine.state import Pick
from narrator.engine.tasks import AskAnswer, Task
from narrator.engine.words import RecordEvent

_TARGETS = ("any", "living", "dead")


def _ask_args(args: Mapping[str, Any], roles: Mapping[str, Role]) -> str | None:
    problem = unknown_args(args, ("reveals", "match", "each", "ranked", "targets", "show"))
    problem = problem or flags(args, ("each", "ranked"))
    if problem:
        return problem
    if args.get("reveals") == "card":
        if "match" in args:
            return "a card is shown as it is: no match"
    else:
        problem = question_args(args, roles)
        if problem:
            return problem
    if args.get("targets", "any") not in _TARGETS:
        return f"targets must be one of {', '.join(_TARGETS)}, got {args['targets']!r}"
    show = args.get("show")
    if isinstance(show, bool) or not isinstance(show, int | float) or show <= 0:
        return f"show must be the seconds an answer is shown, got {show!r}"
    return None


def askers(ctx: Ctx, step: Step) -> list[int]:
    """Who asks tonight: every living holder, or with `ranked` the living holders of the
    first role that has any (blocked ones ask in vain)."""
    if not step.args.get("ranked", False):
        return living_actors(ctx, step)
    st = ctx.state
    blocked = st.visit.blocked
    for role in step.roles:
        seats = [s for s in st.holders((role,)) if st.alive[s]]
        if seats:
            return [s for s in seats if s not in blocked]
    return []


def _answerable(ctx: Ctx, step: Step, target: int) -> bool:
    st = ctx.state
    if not 1 <= target <= st.seats:
        return False
    wanted: str = step.args.get("targets", "any")
    return wanted == "any" or st.alive[target] is (wanted == "living")


def questions(ctx: Ctx, step: Step, choices: Sequence[Pick]) -> list[tuple[list[int], int]]:
    """(askers, target) for every answer due tonight, in seat order."""
    actors = askers(ctx, step)
    if not actors:
        return []
    by_actor: dict[int, list[int]] = {}
    for c in choices:
        by_actor.setdefault(c.actor, []).append(c.target)
    # A keypad entry (actor 0) speaks for the role as a whole.
    collective = by_actor.get(0, [])
    if step.args.get("each", False):
        if collective and len(actors) == 1:
            return [(actors, collective[-1])]
        return [([a], by_actor[a][0]) for a in actors if len(by_actor.get(a, [])) == 1]
    if collective:
        return [(actors, collective[-1])]
    picks = [by_actor.get(a, []) for a in actors]
    if all(len(p) == 1 for p in picks) and len({p[0] for p in picks}) == 1:
        return [(actors, picks[0][0])]
    return []


def _windows(ctx: Ctx, step: Step) -> int:
    if not step.args.get("each", False):
        return 1
    return sum(ctx.state.deck.get(role, 0) for role in step.roles)


DECOY = "decoy"  # an AskAnswer's answer when the window shows a decoy


def _ask_at_step_end(ctx: Ctx, step: Step, choices: Sequence[Pick]) -> None:
    st = ctx.state
    answers: list[Task] = []
    for by, target in questions(ctx, step, choices):
        if not _answerable(ctx, step, target) or guarded(ctx, target):
            continue
        if step.args["reveals"] == "card":
            answer = card_shown(ctx, target)
        else:
            answer = "yes" if check_answer(ctx, step, target) else "no"
        ctx.record(RecordEvent.CHECK, secret=True, step=step.id, by=by, target=target, answer=answer,
                   night=st.number)
        answers.append(AskAnswer(step.id, answer, target))
    # Windows with no answer due: dark for a living checker who chose (the rules gave
    # him no answer; a decoy would mislead him), else a decoy (nobody expects one).
    empty = _windows(ctx, step) - len(answers)
    unanswered = waiting(ctx, step.roles, choices) - len(answers)
    dark = min(empty, unanswered if step.args.get("each", False) else int(unanswered > 0))
    # A decoy's `target` numbers its window, so two decoys of one night differ.
    answers += [AskAnswer(step.id, DECOY, i + 1) for i in range(empty - dark)]
    answers += [AskAnswer(step.id, "", 0)] * dark
    ctx.push(*answers)


def card_shown(ctx: Ctx, target: int) -> str:
    """The card a role check shows for this player (boxed: the commissar learns the role;
    the ninja and a turncoat not yet turned show a civilian's card)."""
    role = ctx.role(target)
    return role.shows_as or role.name


def card_code(ctx: Ctx, card: str) -> int:
    """A card's place (from 1) in the list of roles in play, as they were announced: the
    answer light shows a card as that many blinks."""
    order = [r for r in ctx.rules.roles if ctx.state.deck.get(r)]
    return order.index(card) + 1 if card in order else 0


def _ask_answer(ctx: Ctx, t: AskAnswer) -> bool:
    seconds = float(ctx.step(t.step).args["show"])
    if t.answer in ("yes", "no") and ctx.rules.answers_public:
        ctx.say(f"answer_public_{t.answer}", seat=t.target)
    elif t.answer in ("yes", "no"):
        ctx.out.append(ShowAnswer(t.answer, seconds))
    elif t.answer == DECOY and not ctx.rules.answers_public:
        # Nobody living to read it: a decoy of the same form and time, so the display
        # lighting at all tells a peeker nothing about the checker.
        step = ctx.step(t.step)
        if step.args["reveals"] == "card":
            # Only cards a check can show (the ninja shows a civilian's card).
            shown = {ctx.rules.roles[r].shows_as or r for r in ctx.rules.roles
                     if ctx.state.deck.get(r)}
            cards = [r for r in ctx.rules.roles if ctx.state.deck.get(r) and r in shown]
            ctx.out.append(decoy_card(ctx, t.step, seconds, cards, card_code, t.target))
        else:
            ctx.out.append(decoy_yes_no(ctx, t.step, seconds, t.target))
    elif t.answer and t.answer != DECOY:
        ctx.out.append(ShowAnswer(t.answer, seconds, card_code(ctx, t.answer)))
    return ctx.wait(t, "answer", seconds)


ABILITIES: dict[str, Ability] = {"ask": Ability(check_args=_ask_args, at_step_end=_ask_at_step_end)}

TASKS: dict[type[Task], TaskSpec[Any]] = {AskAnswer: TaskSpec(_ask_answer)}
