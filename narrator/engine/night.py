"""The night: the rule set's steps in order, each called in full every night.

Leak-proofing lives here. A step of a role in this game's deck is called every night with
the same cues and the same windows whether its holders are alive, dead or blocked; the
call-out speaks every seat number at the same beat; a tap never makes a sound, never
lights a seat, and never ends a window early. Taps that mean nothing (a civilian's, a
dead player's) are taken silently, exactly like taps that count.
"""

from __future__ import annotations

from typing import Any, Final

from narrator.engine.actions import Action, Choose, Entry, Tap
from narrator.engine.context import Ctx, Dawn, TaskSpec, waits_only
from narrator.engine.effects import Outcome, PauseTimers, Phase, ShowAnswer
from narrator.engine.rule_sections import Step
from narrator.engine.state import Pick
from narrator.engine.tasks import (
    AnswerWindow,
    CallAgain,
    CallOut,
    Daybreak,
    DayStart,
    Gap,
    LastWord,
    MeetCount,
    NightInput,
    NightStart,
    NightStep,
    NightZeroHeld,
    Sleep,
    StepEnd,
    Task,
    shared,
)
from narrator.engine.words import RecordEvent
from narrator.errors import RuleError


def in_deck(ctx: Ctx, step: Step) -> bool:
    return any(role in ctx.state.deck for role in step.roles)


def _night_start(ctx: Ctx, t: NightStart) -> bool:
    st = ctx.state
    st.phase = "night"
    st.speaker = 0
    st.night = {}
    ctx.out.append(Phase("night", st.number))
    ctx.dark()
    ctx.sound("gong")
    # The day's silence and sleep are over.
    st.muted = []
    st.visit.asleep = []
    ctx.say("night_zero" if st.number == 0 else "night_falls")
    steps: list[Task] = []
    for s in ctx.rules.steps():
        if s.called_on(st.number) and in_deck(ctx, s):
            if steps and ctx.rules.step_gap > 0:
                steps.append(shared(Gap))
            steps.append(shared(NightStep, s.id))
    ctx.push(*steps, shared(Daybreak))
    return False


def _gap(ctx: Ctx, t: Gap) -> bool:
    return ctx.wait(t, "gap", ctx.rules.step_gap)


def _step(ctx: Ctx, t: NightStep) -> bool:
    step = ctx.step(t.step)
    st = ctx.state
    st.taps = []
    st.tapped = []
    wake = step.cue("wake", st.deck, st.number)
    if wake:
        ctx.say(wake)
    if step.input == "callout" and ctx.ability(step).chooses:
        ctx.push(*_callout(step.id, st.seats, int(step.args.get("rounds", 1)),
                           bool(step.args.get("nobody"))))
        return False
    return ctx.wait(shared(NightInput, step.id), "night", step.window)


# A step's call-out tasks, built once: tasks are frozen values, so every night (and every
# game) may share them, and building ten frozen dataclasses a step was a visible share of
# the engine bench.
_CALLOUTS: Final[dict[tuple[str, int, int, bool], tuple[Task, ...]]] = {}


def _callout(step_id: str, seats: int, rounds: int, nobody: bool) -> tuple[Task, ...]:
    key = (step_id, seats, rounds, nobody)
    calls = _CALLOUTS.get(key)
    if calls is None:
        out: list[Task] = []
        for n in range(rounds):
            if n:
                out.append(CallAgain(step_id))
            out += [CallOut(step_id, seat) for seat in range(1, seats + 1)]
            if nobody:
                # A last call, "nobody": a tap there chooses no one (Princeton mafia may spare).
                out.append(CallOut(step_id, 0))
        out.append(StepEnd(step_id))
        calls = _CALLOUTS[key] = tuple(out)
    return calls


def _take_choice(ctx: Ctx, step: Step, action: Action, called: int) -> None:
    """Record a night input. Meaningless taps are accepted and dropped without a trace.

    `called` is the seat being called (0: the "nobody" call), -1 outside a call-out."""
    st = ctx.state
    if isinstance(action, Tap):
        if not 1 <= action.seat <= st.seats:
            raise RuleError(f"seat {action.seat} is not at this table")
        if not ctx.ability(step).chooses:
            if action.seat not in st.tapped:
                st.tapped.append(action.seat)
            return
        # A second tap at the same number is the same choice (a box restarted from its
        # journal calls the number again); a tap at another number is another. The latest
        # tap goes last, so where a vote may change (`changes`) a tap in a later round
        # back at an earlier number is the vote that counts.
        acts = called >= 0 and st.alive[action.seat] and st.roles[action.seat] in step.roles
        pick = Pick(action.seat, called)
        if acts:
            if pick in st.taps:
                st.taps.remove(pick)
            st.taps.append(pick)
        return
    if isinstance(action, Entry):
        if not 0 <= action.number <= st.seats:
            raise RuleError(f"{action.number} is not a seat at this table")
        if ctx.ability(step).chooses:
            st.taps.append(Pick(0, action.number))
        elif action.number and action.number not in st.tapped:
            # A meeting on the keypad: each holder types their own seat number.
            st.tapped.append(action.number)
        return
    if isinstance(action, Choose):
        if not ctx.ability(step).chooses:
            raise RuleError(f"{step.id} takes no choice")
        actor = action.actor or 0
        if actor:
            ctx.require_alive(actor, "actor")
            if st.roles[actor] not in step.roles:
                raise RuleError(f"seat {actor} does not act in {step.id}")
        target = action.target or 0
        if target and not 1 <= target <= st.seats:
            raise RuleError(f"target {target} is not at this table")
        if not any(st.alive[s] for s in st.holders(step.roles)):
            raise RuleError(f"nobody alive acts in {step.id}")
        st.taps.append(Pick(actor, target))
        return
    raise RuleError(f"{action.kind} is not expected at night")


def _call_act(ctx: Ctx, t: CallOut, action: Action) -> None:
    _take_choice(ctx, ctx.step(t.step), action, t.seat)


def _input_act(ctx: Ctx, t: NightInput, action: Action) -> None:
    _take_choice(ctx, ctx.step(t.step), action, -1)


def _input_closed(ctx: Ctx, t: NightInput) -> None:
    ctx.push(shared(StepEnd, t.step))


def _beat(ctx: Ctx, step: Step) -> float:
    """One number's seconds: the rule set's beat, or its whole step's seconds spread over
    the step's calls (the same every night: it depends on the table's size only)."""
    rules = ctx.rules
    if not rules.callout_step:
        return rules.callout_beat
    calls = (ctx.state.seats + bool(step.args.get("nobody"))) * int(step.args.get("rounds", 1))
    return max(rules.callout_beat, rules.callout_step / calls)


def _call(ctx: Ctx, t: CallOut) -> bool:
    beat = _beat(ctx, ctx.step(t.step))
    if t.seat:
        return ctx.say_seat_and_wait(t, "callout", t.seat, "callout", beat)
    ctx.say("nobody")
    return ctx.wait(t, "callout", beat)


def _call_closed(ctx: Ctx, t: CallOut) -> None:
    # The next number at once, as the agenda runner would start it: most actions of a
    # game are call-out beats, and this spares each the runner's round.
    agenda = ctx.state.agenda
    if agenda:
        nxt = agenda[0]
        if type(nxt) is CallOut:
            del agenda[0]
            _call(ctx, nxt)


def _call_again(ctx: Ctx, t: CallAgain) -> bool:
    ctx.say("callout_again")
    return False


def _step_end(ctx: Ctx, t: StepEnd) -> bool:
    st = ctx.state
    step = ctx.step(t.step)
    ability = ctx.ability(step)
    if not ability.chooses:
        return _meeting_end(ctx, step)
    # A player removed during the call-out (a fourth foul) no longer has a say, nor does
    # one blocked tonight (a lover's guest): their taps were taken like any, and dropped.
    blocked = st.visit.blocked
    choices = tuple(c for c in st.taps if c.actor == 0 or (st.alive[c.actor] and c.actor not in blocked))
    st.night[step.id] = choices
    ctx.record(RecordEvent.NIGHT_CHOICE, secret=True, night=st.number, step=step.id,
               choices=[c.to_json() for c in choices])
    st.taps = []
    # The answer window is held in full whether or not an answer is shown (the table
    # hears the same night), and the role is sent to sleep only after it.
    ctx.push(*([shared(AnswerWindow, step.id)] if step.answer > 0 else []),
             shared(Sleep, step.id))
    # Tasks the ability pushes (answer windows of its own) come before the sleep cue.
    ability.at_step_end(ctx, step, choices)
    return False


def _answer(ctx: Ctx, t: AnswerWindow) -> bool:
    return ctx.wait(t, "answer", ctx.step(t.step).answer)


def _sleep(ctx: Ctx, t: Sleep) -> bool:
    sleep = ctx.step(t.step).cue("sleep", ctx.state.deck)
    if sleep:
        ctx.say(sleep)
    return False


def _meeting_end(ctx: Ctx, step: Step) -> bool:
    """Night zero: the holders of `step.roles` tapped (or typed their seats). Learn who
    they are, or call the role again.

    While learning, the answer display shows the count of seats heard after every call,
    for the same time, and a call that went wrong is followed by the same call again (the
    same words, the same windows). After `meet_calls` calls that went wrong the game is
    held, paused, and night zero is played again from its start once the host resumes."""
    st = ctx.state
    tapped = sorted(st.tapped)
    st.tapped = []
    if all(st.roles[1:]) and not st.night_zero.learned:
        ctx.push(shared(Sleep, step.id))  # dealt: nothing to learn
        return False
    expected = sum(st.deck.get(r, 0) for r in step.roles)
    fits = len(tapped) == expected and all(
        any(r in step.roles for r in st.possible[s]) for s in tapped
    )
    shown = MeetCount(step.id, len(tapped))
    if not fits:
        st.night_zero.meet_calls += 1
        if st.night_zero.meet_calls >= ctx.rules.meet_calls:
            _forget_night_zero(ctx)
            st.agenda = [shown, Sleep(step.id), NightZeroHeld(), NightStart()]
            return False
        again: list[Task] = [Gap()] if ctx.rules.step_gap > 0 else []
        ctx.push(shown, Sleep(step.id), *again, NightStep(step.id))
        return False
    st.night_zero.meet_calls = 0
    for seat in range(1, st.seats + 1):
        if seat in tapped:
            st.possible[seat] = tuple(r for r in st.possible[seat] if r in step.roles)
        else:
            st.possible[seat] = tuple(r for r in st.possible[seat] if r not in step.roles)
        # Known now: a role that acts this same night (classic's first-night kill) counts.
        if len(st.possible[seat]) == 1 and not st.roles[seat]:
            st.roles[seat] = st.possible[seat][0]
            st.night_zero.learned = True
    ctx.push(shown, Sleep(step.id))
    return False


def _meet_count(ctx: Ctx, t: MeetCount) -> bool:
    # A count of 0 has no blinks: the red light says it.
    if t.count:
        ctx.out.append(ShowAnswer("count", ctx.rules.meet_count_seconds, t.count))
    else:
        ctx.out.append(ShowAnswer("no", ctx.rules.meet_count_seconds))
    return ctx.wait(t, "answer", ctx.rules.meet_count_seconds)


def _forget_night_zero(ctx: Ctx) -> None:
    """Everything night zero learned is dropped: it is played again from its start."""
    st = ctx.state
    st.night_zero.meet_calls = 0
    st.roles = [""] * (st.seats + 1)
    st.possible = [()] + [tuple(sorted(st.deck)) for _ in range(st.seats)]
    st.night_zero.learned = False
    st.taps = []
    st.tapped = []
    st.night = {}


def _night_zero_held(ctx: Ctx, t: NightZeroHeld) -> bool:
    st = ctx.state
    st.night_zero.redo_night_zero = True
    if not st.paused:
        st.paused = True
        ctx.out.append(PauseTimers())
    ctx.say("night_zero_redo")
    # Opened while paused, the window waits: it runs once the host resumes the game.
    return ctx.wait(t, "held", 1.0)


def _night_zero_resumed(ctx: Ctx, t: NightZeroHeld) -> None:
    ctx.state.night_zero.redo_night_zero = False


def settle_roles(ctx: Ctx) -> None:
    """After night zero's meetings: give every seat the one role left to it."""
    st = ctx.state
    if all(st.roles[1:]) and not st.night_zero.learned:
        return  # dealt: nothing to learn
    left = dict(st.deck)
    for seat in range(1, st.seats + 1):
        if len(st.possible[seat]) == 1:
            left[st.possible[seat][0]] -= 1
    for seat in range(1, st.seats + 1):
        if st.roles[seat]:
            continue  # learned at its meeting
        options = st.possible[seat]
        if len(options) == 1:
            role = options[0]
        else:
            # Roles that never met the box (civilians) are what is left.
            choices = [r for r in options if left.get(r, 0) > 0]
            role = ctx.rules.default_role if ctx.rules.default_role in choices else choices[0]
            left[role] -= 1
        st.roles[seat] = role
        st.possible[seat] = (role,)
    st.night_zero.learned = False
    ctx.record(RecordEvent.DEAL, secret=True, roles=st.roles[1:], learned=True)


def _dawn(ctx: Ctx, t: Daybreak) -> bool:
    st = ctx.state
    if st.number == 0:
        settle_roles(ctx)
    dawn = Dawn()
    for step in sorted(ctx.rules.night, key=lambda s: ctx.ability(s).dawn_order):
        if step.id in st.night:
            ctx.ability(step).at_dawn(ctx, step, st.night[step.id], dawn)
    st.night = {}
    st.visit.blocked = []  # a block lasts one night
    st.protection.guarded = []
    night = st.number
    st.phase = "day"
    st.voting_started = False  # a removal during the morning cancels this day's vote
    st.nominations = []  # the new day's (a removal in the morning is no nominee's)
    st.number += 1
    ctx.out.append(Phase("day", st.number))
    ctx.sound("chime")
    ctx.say("morning", day=st.number)
    deaths = {s: d for s in sorted({*dawn.kills, *dawn.attacks})
              if st.alive[s] and (d := dawn.death(s)) is not None}
    named = any(d.news for d in deaths.values())
    # Unless the rule set names the killers, the victims leave (and speak) in seat order:
    # night order would tell the table whose kill was whose (club: the mafia's, then the
    # maniac's).
    victims = sorted(deaths, key=lambda s: (deaths[s].order, s)) if named else sorted(deaths)
    first_blood = not st.eliminations
    if named:
        # The rule set names the killers: each death with its own words, in night order.
        for seat in victims:
            ctx.say(deaths[seat].news or "night_victim", seat=seat)
    elif len(victims) == 1:
        ctx.say_seat("night_victim", victims[0])
    elif victims:
        ctx.say("night_victims", seats=tuple(sorted(victims)))
    if not victims and dawn.kill_called:
        ctx.say("nobody_killed")
    for seat in victims:
        ctx.eliminate(seat, deaths[seat].how, phase="night", number=night)
    if ctx.check_win() or _idle_draw(ctx):
        return False
    say_news(ctx)
    _morning_news(ctx, dawn)
    ctx.day_lights()
    if first_blood and len(victims) == 1 and ctx.rules.best_move:
        st.first_victim = victims[0]
    words = [shared(LastWord, s) for s in victims if deaths[s].how in ctx.rules.day.last_word_after]
    ctx.push(*words, shared(DayStart))
    return False


def _morning_news(ctx: Ctx, dawn: Dawn) -> None:
    """The night's news after its deaths, in the night's order (boxed: who was saved, put
    to sleep, silenced), then the older kind (a lover's guest is immune)."""
    st = ctx.state
    news = list(dawn.news)
    every_heal = ctx.rules.dawn.heal_news == "always"
    for seat, saved in dawn.save_news.items():
        if dawn.death(seat) is None and (every_heal or dawn.attacks.get(seat)):
            news.append(saved)
    everything = ctx.rules.dawn.news == "booklet"
    for item in sorted(news, key=lambda n: n.order):
        if st.alive[item.seat] and (everything or item.always):
            ctx.say(item.cue, seat=item.seat)
    for cue, seat in dawn.morning:
        if st.alive[seat]:
            ctx.say(cue, seat=seat)


def say_news(ctx: Ctx) -> None:
    """Public news an elimination made due (boxed: "all the mafia are in jail"), said once
    the game is known to go on."""
    st = ctx.state
    for cue in st.news:
        ctx.say(cue)
    st.news = []


def _idle_draw(ctx: Ctx) -> bool:
    """Draw after the rule set's number of full rounds in which nobody left the table."""
    st = ctx.state
    limit = ctx.rules.draw_after_idle_rounds
    if st.number <= 1:
        st.elims_at_dawn = len(st.eliminations)
        return False
    if len(st.eliminations) == st.elims_at_dawn:
        st.idle_rounds += 1
    else:
        st.idle_rounds = 0
    st.elims_at_dawn = len(st.eliminations)
    if limit and st.idle_rounds >= limit:
        ctx.game_over(Outcome("idle_rounds", "draw"))
        return True
    return False


TASKS: dict[type[Task], TaskSpec[Any]] = {
    NightStart: TaskSpec(_night_start),
    NightStep: TaskSpec(_step),
    CallOut: TaskSpec(_call, act=_call_act, closed=_call_closed,
                      accepts=frozenset({"tap", "entry", "choose"})),
    CallAgain: TaskSpec(_call_again),
    NightInput: TaskSpec(waits_only, act=_input_act, closed=_input_closed,
                         accepts=frozenset({"tap", "entry", "choose"})),
    StepEnd: TaskSpec(_step_end),
    AnswerWindow: TaskSpec(_answer),
    MeetCount: TaskSpec(_meet_count),
    NightZeroHeld: TaskSpec(_night_zero_held, closed=_night_zero_resumed),
    Sleep: TaskSpec(_sleep),
    Gap: TaskSpec(_gap),
    Daybreak: TaskSpec(_dawn),
}
