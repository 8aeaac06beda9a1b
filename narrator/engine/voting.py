"""Nominations become ballots: votes in nomination order, ties, re-votes, lifting all.

Votes not cast go to the last candidate when the rule set says so. A tie gets short
speeches and a re-vote among the tied; when the same split repeats, the table votes on
lifting all of them (a majority of the living lifts, an even split keeps). The boxed
booklet instead goes straight from a tie to a vote of everyone on "all or none", and a
tie there to a coin. A player silenced for the day (the boxed boss's choice) has no vote.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from narrator.engine.actions import Action, Count, Entry, LowerHand, Tap, Vote
from narrator.engine.context import Ctx, TaskSpec
from narrator.engine.effects import CloseWindow
from narrator.engine.night import say_news
from narrator.engine.rng import randbelow
from narrator.engine.ruleset import RuleSet
from narrator.engine.state import LIFT, Ballot, State
from narrator.engine.tasks import (
    AllOrNone,
    LastWord,
    LiftVote,
    Revote,
    Tally,
    Task,
    TieSpeech,
    VoteOn,
    VoteOnLast,
    Voting,
    shared,
)
from narrator.engine.turncoat import dealt_card
from narrator.errors import RuleError


def candidates(ctx: Ctx) -> list[int]:
    st = ctx.state
    return [n.target for n in st.nominations if st.alive[n.target]]


def ballot(ctx: Ctx) -> Ballot:
    """The ballot of the vote in progress (a vote task runs only while there is one)."""
    current = ctx.state.ballot
    if current is None:
        raise RuleError("no vote is open", "no_vote")
    return current


def _voting(ctx: Ctx, t: Voting) -> bool:
    st = ctx.state
    day = ctx.rules.day
    st.voting_started = True
    st.speaker = 0
    ctx.day_lights()
    nominees = candidates(ctx)
    if st.cancel_vote_day == st.number:
        ctx.say("vote_cancelled")
        ctx.record("vote_cancelled", day=st.number)
        return False
    if st.number == 1 and day.first_day_vote == "none":
        if nominees:
            ctx.say("no_vote_today")
        return False
    # club: an immune nominee (the lover's guest) is not voted on but, as 004 lists every
    # nominee, counts toward the two its vote needs unless a club turns that off.
    immune = [s for s in nominees if s in st.visit.vote_immune]
    votable = [s for s in nominees if s not in immune]
    counted = nominees if day.immune_nominee_counts else votable
    if not votable:
        for seat in immune:
            ctx.say("immune", seat=seat)
        # Nominated but immune (the lover's guest): "nobody is nominated" would be untrue.
        ctx.say("no_vote_today" if immune else "no_nominees")
        return False
    if len(counted) == 1:
        seat = counted[0]
        no_vote = ((st.number == 1 and day.single_nominee_first_day == "no_vote")
                   or (st.number > 1 and day.single_nominee_later in ("no_vote", "leaves")))
        for other in immune if no_vote else ():
            ctx.say("immune", seat=other)
        # Recorded, not only said: the protocol's day would show the nomination and no
        # vote, and a reader could not tell a vote forgotten from one the rules skip.
        if st.number == 1 and day.single_nominee_first_day == "no_vote":
            ctx.say("single_nominee_no_vote", seat=seat)
            ctx.record("lone_nominee", day=st.number, seat=seat, left=False)
            return False
        if st.number > 1 and day.single_nominee_later == "no_vote":
            ctx.say("lone_nominee_no_vote", seat=seat)
            ctx.record("lone_nominee", day=st.number, seat=seat, left=False)
            return False
        if st.number > 1 and day.single_nominee_later == "leaves":
            ctx.say("single_nominee_leaves", seat=seat)
            ctx.record("lone_nominee", day=st.number, seat=seat, left=True)
            leave(ctx, [seat], "vote")
            return False
    ctx.say("nominees", seats=tuple(nominees))
    # 004: the game master "announce[s] if any players have immunity from voting" (the
    # lover's guest): named here, and not voted on.
    for seat in st.visit.vote_immune:
        if st.alive[seat]:
            ctx.say("immune", seat=seat)
    names = [s for s in nominees if s not in st.visit.vote_immune]
    if not names:
        return False
    ctx.say("voting_starts")
    start_ballots(ctx, names, rnd=1, prev=[])
    return False


def start_ballots(ctx: Ctx, names: list[int], rnd: int, prev: list[int]) -> None:
    st = ctx.state
    st.ballot = Ballot("elect", rnd, tuple(names), tuple(prev))
    tasks: list[Task] = [shared(VoteOn, c) for c in names[:-1]]
    tasks.append(shared(VoteOnLast, names[-1]) if ctx.rules.day.votes_default_to_last
                 else shared(VoteOn, names[-1]))
    ctx.push(*tasks, shared(Tally))


def wait_for_ballot(ctx: Ctx, t: Task, seat: int | None = None) -> bool:
    """A ballot's window: the rule set's seconds for the pads, unless the host counts the
    hands; then its timer is stopped at once and the host's Count closes it."""
    ctx.wait(t, "ballot", ctx.rules.day.ballot, seat)
    if ctx.state.hand_count:
        ctx.out.append(CloseWindow(ctx.state.window))
    return True


def counted_by_hand(state: State) -> bool:
    """Whether the open window is a ballot the host counts (its timer stays stopped: the
    engine's `resume` opens it again stopped)."""
    return state.hand_count and isinstance(state.current, VoteOn | LiftVote | AllOrNone)


def _host_counts(ctx: Ctx) -> None:
    """The host counts from now on (the keypad's or the page's hand, a Count): the open
    ballot's timer stops, and every later ballot waits for the host's Count."""
    st = ctx.state
    if not st.hand_count:
        st.hand_count = True
        ctx.out.append(CloseWindow(st.window))


def ballot_input(ctx: Ctx, t: VoteOn | LiftVote | AllOrNone, candidate: int, action: Action,
                 closed: Callable[[Ctx, Any], None]) -> None:
    """A ballot window's input: a vote; a hand taken off again; or the host's Count, which
    closes the window now, as its time running out would."""
    st = ctx.state
    if isinstance(action, Count):
        window = st.window
        st.current = None
        st.window = 0
        st.hand_count = True
        ctx.out.append(CloseWindow(window))
        closed(ctx, t)
        return
    if isinstance(action, LowerHand):
        current = ballot(ctx)
        if action.voter not in current.votes_for(candidate):
            raise RuleError(f"seat {action.voter} has no hand up for this candidate", "no_hand",
                            seat=action.voter)
        st.ballot = replace(current, votes=tuple(
            c for c in current.votes if not (c.voter == action.voter and c.candidate == candidate)))
        _host_counts(ctx)
        ctx.day_lights(on=tuple(sorted(st.ballot.votes_for(candidate))))
        return
    take_vote(ctx, candidate, action)
    if isinstance(action, Vote | Entry):
        _host_counts(ctx)


def take_vote(ctx: Ctx, candidate: int, action: Action) -> None:
    """A vote for `candidate` (LIFT in a lift vote), by a tap, a Vote, or the host typing
    the voter's seat on the keypad (a table without pads: hands are counted aloud)."""
    st = ctx.state
    if isinstance(action, Tap):
        voter = action.seat
    elif isinstance(action, Entry):
        voter = action.number
    elif isinstance(action, Vote):
        voter = action.voter
    else:
        raise RuleError(f"{action.kind} is not expected during a vote", "not_now")
    ctx.require_alive(voter, "voter")
    if voter in st.muted:
        raise RuleError(f"seat {voter} is silenced today and does not vote", "silenced", seat=voter)
    current = ballot(ctx)
    if current.has_voted(voter):
        raise RuleError(f"seat {voter} has already voted", "already_voted", seat=voter)
    if voter in sitting_out(ctx.rules, current):
        raise RuleError(f"seat {voter} is tied and does not vote in the re-vote", "tied_no_vote",
                        seat=voter)
    st.ballot = current = current.with_votes(candidate, (voter,))
    ctx.day_lights(on=tuple(sorted(current.votes_for(candidate))))


def _vote_on_act(ctx: Ctx, t: VoteOn, action: Action) -> None:
    ballot_input(ctx, t, t.seat, action, _ballot_closed)


def _ballot_closed(ctx: Ctx, t: VoteOn | VoteOnLast) -> None:
    st = ctx.state
    current = ballot(ctx)
    # A voter removed while the ballot was open (a fourth foul) has no vote any more.
    voters = sorted(v for v in current.votes_for(t.seat) if st.alive[v])
    if current.kind == "elect":
        ctx.say("vote_count", seat=t.seat, votes=len(voters))
        ctx.record("vote", day=st.number, round=current.round, candidate=t.seat, voters=voters)
    ctx.day_lights()


def _vote_on(ctx: Ctx, t: VoteOn) -> bool:
    st = ctx.state
    if not st.alive[t.seat]:
        return False
    ctx.say_seat("vote_for", t.seat)
    ctx.day_lights()
    return wait_for_ballot(ctx, t, t.seat)


def _vote_on_last(ctx: Ctx, t: VoteOnLast) -> bool:
    st = ctx.state
    if not st.alive[t.seat]:
        return False
    current = ballot(ctx)
    out = sitting_out(ctx.rules, current)
    voted = set(current.voters())
    rest = [s for s in st.living() if s not in voted and s not in out and s not in st.muted]
    st.ballot = current.with_votes(t.seat, rest)
    ctx.say_seat("vote_for", t.seat)
    _ballot_closed(ctx, t)
    return False


def sitting_out(rules: RuleSet, current: Ballot) -> tuple[int, ...]:
    """Who does not vote in this ballot: the tied players in a re-vote, where the rule set
    says so (club, 004: "The two accused players do not participate in the second round")."""
    if current.kind == "elect" and current.round > 1 and not rules.day.tied_vote_in_revote:
        return current.candidates
    return ()


def vote_counts(ctx: Ctx, voter: int) -> bool:
    """Does this living player's vote count (not a silenced player's, nor a role's whose
    votes never count)?"""
    st = ctx.state
    return (st.alive[voter] and voter not in st.muted
            and (not st.roles[voter] or ctx.role(voter).votes))


def _tally_votes(ctx: Ctx) -> dict[int, int]:
    st = ctx.state
    current = ballot(ctx)
    counts: dict[int, int] = {}
    for c in current.candidates:
        if st.alive[c]:
            counts[c] = sum(1 for v in current.votes_for(c) if vote_counts(ctx, v))
    return counts


def _tally(ctx: Ctx, t: Tally) -> bool:
    st = ctx.state
    day = ctx.rules.day
    current = ballot(ctx)
    counts = _tally_votes(ctx)
    if not counts:
        return False
    top = max(counts.values())
    if top == 0:
        # Nobody voted for anyone (possible where votes do not default to the last).
        return False
    leaders = [c for c in current.candidates if counts.get(c) == top]
    if len(leaders) == 1:
        seat = leaders[0]
        if st.number == 1 and day.first_day_vote == "lift_only":
            # The first day's leader only leaves if the table lifts them after a speech.
            ctx.push(TieSpeech(seat), LiftVote((seat,)))
            st.ballot = replace(current, kind="lift", prev=(seat,), votes=())
            return False
        leave(ctx, [seat], "vote")
        return False
    if day.tie == "all_or_none_then_coin":
        # The boxed booklet: a new vote by everyone still in, "jail them all, or none".
        ctx.say("tie", seats=tuple(leaders))
        st.ballot = Ballot("lift", current.round + 1, tuple(leaders), tuple(leaders))
        ctx.push(AllOrNone(tuple(leaders)))
        return False
    if sorted(leaders) == sorted(current.prev) or (
            current.round > 1 and day.revote_tie_fewer == "lift"):
        return _lift_all(ctx, leaders)
    ctx.say("tie", seats=tuple(leaders))
    ctx.push(*[shared(TieSpeech, s) for s in leaders], Revote(tuple(leaders)))
    return False


def _revote(ctx: Ctx, t: Revote) -> bool:
    st = ctx.state
    leaders = [s for s in t.seats if st.alive[s]]
    if len(leaders) == 1:
        leave(ctx, leaders, "vote")
        return False
    if not leaders:
        return False
    ctx.say("revote", seats=tuple(leaders))
    start_ballots(ctx, leaders, rnd=(st.ballot.round if st.ballot else 1) + 1, prev=leaders)
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
    st.ballot = Ballot("lift", ballot(ctx).round, tuple(leaders), tuple(leaders))
    ctx.push(LiftVote(tuple(leaders)))
    return False


def _lift_closed(ctx: Ctx, t: LiftVote) -> None:
    st = ctx.state
    leaders = [s for s in t.seats if st.alive[s]]
    yes = [v for v in ballot(ctx).votes_for(LIFT) if vote_counts(ctx, v)]
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


def _lift_act(ctx: Ctx, t: LiftVote, action: Action) -> None:
    ballot_input(ctx, t, LIFT, action, _lift_closed)


def _lift_ballot(ctx: Ctx, t: LiftVote) -> bool:
    leaders = tuple(s for s in t.seats if ctx.state.alive[s])
    ctx.say("lift_vote", seats=leaders)
    return wait_for_ballot(ctx, t)


def _all_or_none(ctx: Ctx, t: AllOrNone) -> bool:
    ctx.say("all_or_none", seats=t.seats)
    ctx.day_lights()
    return wait_for_ballot(ctx, t)


def _all_or_none_act(ctx: Ctx, t: AllOrNone, action: Action) -> None:
    ballot_input(ctx, t, LIFT, action, _all_or_none_closed)


def _all_or_none_closed(ctx: Ctx, t: AllOrNone) -> None:
    """Everyone still in voted: a vote given is "all", a vote not given "none" (nobody
    abstains). More for all: all leave; more for none: nobody; as many: the coin."""
    st = ctx.state
    tied = [s for s in t.seats if st.alive[s]]
    voters = [s for s in st.living() if vote_counts(ctx, s)]
    yes = [v for v in ballot(ctx).votes_for(LIFT) if v in voters]
    no = len(voters) - len(yes)
    ctx.record("all_or_none", day=st.number, candidates=tied, voters=sorted(yes),
               against=sorted(set(voters) - set(yes)))
    ctx.say("all_or_none_count", votes=len(yes), count=no)
    ctx.day_lights()
    if len(yes) > no:
        ctx.say("all_leave", seats=tuple(tied))
        leave(ctx, tied, "lifted", announce=False)
        return
    if no > len(yes):
        ctx.say("none_leave")
        st.ballot = None
        return
    if ctx.rules.day.coin == "one":
        st.rng, pick = randbelow(st.rng, len(tied))
        ctx.say("coin_toss", seat=tied[pick])
        leave(ctx, [tied[pick]], "vote")
        return
    st.rng, heads = randbelow(st.rng, 2)
    ctx.record("coin", day=st.number, all=bool(heads))
    if heads:
        ctx.say("coin_all", seats=tuple(tied))
        leave(ctx, tied, "lifted", announce=False)
    else:
        ctx.say("coin_none")
        st.ballot = None


def leave(ctx: Ctx, seats: list[int], how: str, announce: bool = True) -> None:
    """Players voted out: they leave (each named, unless `announce` is off because a cue
    named them all), show their cards where the rules say so, the game may end, else
    each has a last word."""
    st = ctx.state
    for seat in seats:
        if announce:
            ctx.say_seat("eliminated", seat)
        ctx.eliminate(seat, how, phase="day")
        reveal(ctx, seat)
    if ctx.check_win():
        return
    say_news(ctx)
    if how in ctx.rules.day.last_word_after:
        ctx.push(*[shared(LastWord, s) for s in seats])
    st.ballot = None


def reveal(ctx: Ctx, seat: int) -> None:
    """The player turns the card over (boxed: «раскрывает свою роль»): said aloud too."""
    if ctx.rules.day.reveal_role and ctx.state.roles[seat]:
        ctx.say("role_revealed", seat=seat, role=dealt_card(ctx, seat))


_VOTE_INPUTS = frozenset({"vote", "tap", "entry", "count", "lower_hand"})

TASKS: dict[type[Task], TaskSpec[Any]] = {
    Voting: TaskSpec(_voting),
    VoteOn: TaskSpec(_vote_on, act=_vote_on_act, closed=_ballot_closed, accepts=_VOTE_INPUTS),
    VoteOnLast: TaskSpec(_vote_on_last),
    Tally: TaskSpec(_tally),
    Revote: TaskSpec(_revote),
    LiftVote: TaskSpec(_lift_ballot, act=_lift_act, closed=_lift_closed, accepts=_VOTE_INPUTS),
    AllOrNone: TaskSpec(_all_or_none, act=_all_or_none_act, closed=_all_or_none_closed,
                        accepts=_VOTE_INPUTS),
}
