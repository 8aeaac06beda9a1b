"""Nominations become ballots: votes in nomination order, ties, re-votes, lifting all.

Votes not cast go to the last candidate when the rule set says so. A tie gets short
speeches and a re-vote among the tied; when the same split repeats, the table votes on
lifting all of them (a majority of the living lifts, an even split keeps).
"""

from __future__ import annotations

from narrator.engine.actions import Action, Tap, Vote
from narrator.engine.context import Ctx
from narrator.engine.rng import randbelow
from narrator.engine.state import Task
from narrator.engine.tasks import task
from narrator.errors import RuleError


def candidates(ctx: Ctx) -> list[int]:
    st = ctx.state
    return [target for _by, target in st.nominations if st.alive[target]]


@task("voting")
def _voting(ctx: Ctx, t: Task) -> bool:
    st = ctx.state
    day = ctx.rules.day
    st.voting_started = True
    st.speaker = 0
    ctx.day_lights()
    nominees = candidates(ctx)
    if st.cancel_vote_day == st.number:
        ctx.say("vote_cancelled")
        return False
    if st.number == 1 and day.first_day_vote == "none":
        if nominees:
            ctx.say("no_vote_today")
        return False
    if not nominees:
        ctx.say("no_nominees")
        return False
    if len(nominees) == 1:
        seat = nominees[0]
        if st.number == 1 and day.single_nominee_first_day == "no_vote":
            ctx.say("single_nominee_no_vote", seat=seat)
            return False
        if st.number > 1 and day.single_nominee_later == "leaves":
            ctx.say("single_nominee_leaves", seat=seat)
            leave(ctx, [seat], "vote")
            return False
    ctx.say("nominees", seats=tuple(nominees))
    ctx.say("voting_starts")
    start_ballots(ctx, nominees, rnd=1, prev=[])
    return False


def start_ballots(ctx: Ctx, names: list[int], rnd: int, prev: list[int]) -> None:
    st = ctx.state
    st.ballot = {"kind": "elect", "round": rnd, "candidates": list(names), "prev": list(prev),
                 "votes": {}, "voters": []}
    tasks: list[Task] = [("ballot", c) for c in names[:-1]]
    tasks.append(("ballot_last", names[-1]) if ctx.rules.day.votes_default_to_last
                 else ("ballot", names[-1]))
    ctx.push(*tasks, ("tally",))


def _take_vote(ctx: Ctx, t: Task, action: Action) -> None:
    st = ctx.state
    if isinstance(action, Tap):
        voter = action.seat
    elif isinstance(action, Vote):
        voter = action.voter
    else:
        raise RuleError(f"{action.kind} is not expected during a vote")
    ctx.require_alive(voter, "voter")
    ballot = st.ballot
    if voter in ballot["voters"]:
        raise RuleError(f"seat {voter} has already voted")
    key = str(t[1])
    ballot["voters"].append(voter)
    ballot["votes"].setdefault(key, []).append(voter)
    ctx.day_lights(on=tuple(sorted(ballot["votes"][key])))


def _ballot_closed(ctx: Ctx, t: Task) -> None:
    st = ctx.state
    key = str(t[1])
    # A voter removed while the ballot was open (a fourth foul) has no vote any more.
    voters = sorted(v for v in st.ballot["votes"].get(key, []) if st.alive[v])
    if st.ballot["kind"] == "elect":
        ctx.say("vote_count", seat=t[1], votes=len(voters))
        ctx.record("vote", day=st.number, round=st.ballot["round"], candidate=t[1], voters=voters)
    ctx.day_lights()


@task("ballot", act=_take_vote, closed=_ballot_closed, accepts=("vote", "tap"))
def _ballot(ctx: Ctx, t: Task) -> bool:
    st = ctx.state
    if not st.alive[t[1]]:
        return False
    ctx.say("vote_for", seat=t[1])
    ctx.day_lights()
    return ctx.wait(t, "ballot", ctx.rules.day.ballot, t[1])


@task("ballot_last")
def _ballot_last(ctx: Ctx, t: Task) -> bool:
    st = ctx.state
    if not st.alive[t[1]]:
        return False
    rest = [s for s in st.living() if s not in st.ballot["voters"]]
    st.ballot["voters"].extend(rest)
    st.ballot["votes"].setdefault(str(t[1]), []).extend(rest)
    ctx.say("vote_for", seat=t[1])
    _ballot_closed(ctx, t)
    return False


def vote_counts(ctx: Ctx, voter: int) -> bool:
    """Does this living player's vote count (a boxed sleepwalker's does not)?"""
    st = ctx.state
    return st.alive[voter] and (not st.roles[voter] or ctx.role(voter).votes)


def _tally_votes(ctx: Ctx) -> dict[int, int]:
    st = ctx.state
    counts: dict[int, int] = {}
    for c in st.ballot["candidates"]:
        if st.alive[c]:
            voters = st.ballot["votes"].get(str(c), [])
            counts[c] = sum(1 for v in voters if vote_counts(ctx, v))
    return counts


@task("tally")
def _tally(ctx: Ctx, t: Task) -> bool:
    st = ctx.state
    day = ctx.rules.day
    counts = _tally_votes(ctx)
    if not counts:
        return False
    top = max(counts.values())
    if top == 0:
        # Nobody voted for anyone (possible where votes do not default to the last).
        return False
    leaders = [c for c in st.ballot["candidates"] if counts.get(c) == top]
    if len(leaders) == 1:
        seat = leaders[0]
        if st.number == 1 and day.first_day_vote == "lift_only":
            # The first day's leader only leaves if the table lifts them after a speech.
            ctx.push(("tie_speech", seat), ("lift_ballot", seat))
            st.ballot = {**st.ballot, "kind": "lift", "prev": [seat], "votes": {}, "voters": []}
            return False
        leave(ctx, [seat], "vote")
        return False
    if sorted(leaders) == sorted(st.ballot["prev"]):
        return _lift_all(ctx, leaders)
    ctx.say("tie", seats=tuple(leaders))
    ctx.push(*[("tie_speech", s) for s in leaders], ("revote", *leaders))
    return False


@task("revote")
def _revote(ctx: Ctx, t: Task) -> bool:
    st = ctx.state
    leaders = [s for s in t[1:] if st.alive[s]]
    if len(leaders) == 1:
        leave(ctx, leaders, "vote")
        return False
    if not leaders:
        return False
    ctx.say("revote", seats=tuple(leaders))
    start_ballots(ctx, leaders, rnd=st.ballot.get("round", 1) + 1, prev=leaders)
    return False


def _lift_all(ctx: Ctx, leaders: list[int]) -> bool:
    st = ctx.state
    day = ctx.rules.day
    alive = len(st.living())
    forbidden = (len(leaders) == 2 and alive == 4 and not day.lift_two_of_four) or (
        len(leaders) == 3 and alive == 9 and not day.lift_three_of_nine
    )
    if forbidden or len(leaders) >= alive:
        ctx.say("lift_not_allowed", seats=tuple(leaders))
        return False
    st.ballot = {"kind": "lift", "round": st.ballot["round"], "candidates": leaders,
                 "prev": leaders, "votes": {}, "voters": []}
    ctx.push(("lift_ballot", *leaders))
    return False


def _lift_closed(ctx: Ctx, t: Task) -> None:
    st = ctx.state
    leaders = [s for s in t[1:] if st.alive[s]]
    yes = [v for v in st.ballot["votes"].get("lift", []) if vote_counts(ctx, v)]
    alive = sum(1 for s in st.living() if vote_counts(ctx, s))
    ctx.record("lift_vote", day=st.number, candidates=leaders, voters=sorted(yes))
    ctx.day_lights()
    if 2 * len(yes) > alive:
        ctx.say("lift_passed", seats=tuple(leaders))
        leave(ctx, leaders, "lifted")
        return
    if len(leaders) == 1:
        ctx.say("first_day_stays", seat=leaders[0])
        return
    ctx.say("lift_failed", seats=tuple(leaders))
    if ctx.rules.day.tie == "revote_then_lift_then_coin" and 2 * len(yes) == alive and leaders:
        st.rng, pick = randbelow(st.rng, len(leaders))
        ctx.say("coin_toss", seat=leaders[pick])
        leave(ctx, [leaders[pick]], "vote")


def _lift_act(ctx: Ctx, t: Task, action: Action) -> None:
    _take_vote(ctx, ("lift_ballot", "lift"), action)


@task("lift_ballot", act=_lift_act, closed=_lift_closed, accepts=("vote", "tap"))
def _lift_ballot(ctx: Ctx, t: Task) -> bool:
    leaders = tuple(s for s in t[1:] if ctx.state.alive[s])
    ctx.say("lift_vote", seats=leaders)
    return ctx.wait(t, "ballot", ctx.rules.day.ballot)


def leave(ctx: Ctx, seats: list[int], how: str) -> None:
    """Players voted out: they leave, the game may end, else each has a last word."""
    st = ctx.state
    for seat in seats:
        ctx.say("eliminated", seat=seat)
        ctx.eliminate(seat, how, phase="day")
    if ctx.check_win():
        return
    if how in ctx.rules.day.last_word_after:
        ctx.push(*[("last_word", s) for s in seats])
    st.ballot = {}
