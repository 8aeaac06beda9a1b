"""The engine: a state and an action in, effects out. Pure: no I/O, no clock, no threads.

`Engine.apply` checks an action fully before it changes anything, so an illegal action
raises RuleError and leaves the state as it was. The agenda runner then starts tasks
until one opens a window and waits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from narrator.engine import fouls
from narrator.engine.actions import (
    Action,
    AddTime,
    Deal,
    Forfeit,
    Foul,
    Pause,
    Remove,
    Repeat,
    Resume,
    Unfoul,
    WindowClosed,
)
from narrator.engine.context import Ctx, Registry, TaskSpec
from narrator.engine.effects import (
    CloseWindow,
    Effect,
    ExtendWindow,
    OpenWindow,
    PauseTimers,
    ResumeTimers,
    Say,
)
from narrator.engine.pausing import halted
from narrator.engine.registry import REGISTRY
from narrator.engine.ruleset import RuleSet
from narrator.engine.state import State
from narrator.engine.tasks import NightStart, Task, shared
from narrator.engine.voting import counted_by_hand
from narrator.engine.words import RecordEvent
from narrator.errors import RuleError

# Host actions valid at any moment of a running game, whatever the current task.
_ANYTIME: Final = frozenset({"foul", "unfoul", "remove", "pause", "resume", "repeat", "add_time",
                      "forfeit"})


class Engine:
    def __init__(self, rules: RuleSet, hooks: Registry = REGISTRY) -> None:
        self.rules = rules
        self.hooks = hooks
        self._tasks: dict[type[Task], TaskSpec[Any]] = dict(hooks.tasks)
        self._ctx: Ctx | None = None

    def new_game(self, seats: int | None = None, seed: int = 0,
                 roles: Sequence[str] | None = None,
                 hand_count: bool = False) -> tuple[State, list[Effect]]:
        """A fresh game at night zero. With `roles` (by seat, seat 1 first) the box knows the
        deal; without, it learns the roles from the holders' taps at night zero. With
        `hand_count` (a table without pads) the host counts every ballot: each waits for
        the host's Count, not for the rule set's seconds (those are the pads')."""
        rules = self.rules
        n = seats if seats is not None else (len(roles) if roles else rules.min_seats)
        try:
            deck = rules.deck_for(n)
        except ValueError as exc:
            raise RuleError(str(exc)) from None
        st = State.start(rules.name, n, deck, seed)
        st.hand_count = hand_count
        st.agenda.append(shared(NightStart))
        ctx = Ctx(rules, st, self.hooks)
        if roles is not None:
            self._deal(ctx, tuple(roles))
        if rules.announce_deck:
            announce_deck(ctx)
        self._run(ctx)
        return st, ctx.out

    def apply(self, state: State, action: Action) -> list[Effect]:
        if state.phase == "over":
            raise RuleError("the game is over", "game_over")
        # One working context per engine and state, given a fresh effect list each time:
        # building a Ctx for every action of a game was a visible share of a call-out beat.
        ctx = self._ctx
        if ctx is None or ctx.state is not state:
            ctx = self._ctx = Ctx(self.rules, state, self.hooks, [])
        else:
            ctx.out = []
        tasks = self._tasks
        if type(action) is WindowClosed:
            # Most actions of a game are a window running out (every call-out beat): the
            # first test, by exact type.
            if action.window != state.window or state.current is None:
                raise RuleError(f"window {action.window} is not open", "not_now")
            task = state.current
            state.current = None
            state.window = 0
            closed = tasks[type(task)].closed
            if closed is not None:
                closed(ctx, task)
        else:
            kind = action.kind
            if kind in _ANYTIME:
                self._anytime(ctx, action)
            elif isinstance(action, Deal):
                if state.number > 0 or any(state.roles[1:]):
                    raise RuleError("the roles are already known", "roles_known")
                self._deal(ctx, action.roles)
            else:
                if halted(state):
                    raise RuleError(f"{kind}: the game is paused", "paused")
                if state.current is None:
                    raise RuleError(f"{kind} is not expected now", "not_now")
                task = state.current
                spec = tasks[type(task)]
                intervention = self.hooks.interventions.get(kind)
                if intervention is not None and kind not in spec.accepts:
                    intervention.act(ctx, action)
                else:
                    spec.act(ctx, task, action)
        # The agenda runner (`_run`) written out: every action of a game ends here. The
        # agenda is read afresh each time: a task may replace it (night zero called again).
        while state.current is None and state.agenda and not state.over:
            task = state.agenda.pop(0)
            tasks[type(task)].start(ctx, task)
        return ctx.out

    def resume(self, state: State) -> list[Effect]:
        """Effects that bring a table back to this state, after a restart or an undo,
        without changing it: the lights, and the open window again in full length (the
        engine has no clock: the box gives an undo its time back, narrator.daemon.undone)."""
        ctx = Ctx(self.rules, state.clone(), self.hooks)
        if state.phase == "over":
            return []
        if state.phase == "day":
            ctx.day_lights(on=(state.speaker,) if state.speaker else ())
        else:
            ctx.dark()
        if state.current is not None and state.open is not None:
            opened = state.open
            ctx.out.append(OpenWindow(state.window, opened.purpose, opened.seconds,
                                      opened.seat or None))
            if counted_by_hand(state):
                ctx.out.append(CloseWindow(state.window))  # still the host's count to close
        return ctx.out

    # internals
    def _run(self, ctx: Ctx) -> None:
        st = ctx.state
        tasks = self._tasks
        while st.current is None and st.agenda and st.phase != "over":
            task = st.agenda.pop(0)
            tasks[type(task)].start(ctx, task)

    def _deal(self, ctx: Ctx, roles: tuple[str, ...]) -> None:
        st = ctx.state
        if len(roles) != st.seats:
            raise RuleError(f"the deal names {len(roles)} roles for {st.seats} seats")
        counts: dict[str, int] = {}
        for r in roles:
            counts[r] = counts.get(r, 0) + 1
        if counts != st.deck:
            raise RuleError(f"the deal {counts} does not match the deck {st.deck}")
        st.roles = ["", *roles]
        st.possible = [(), *((r,) for r in roles)]
        ctx.record(RecordEvent.DEAL, secret=True, roles=list(roles))

    def _anytime(self, ctx: Ctx, action: Action) -> None:
        st = ctx.state
        if isinstance(action, Foul):
            fouls.give_foul(ctx, action.seat)
        elif isinstance(action, Unfoul):
            fouls.take_back(ctx, action.seat)
        elif isinstance(action, Remove):
            ctx.require_alive(action.seat)
            fouls.remove(ctx, action.seat, "removed")
        elif isinstance(action, Forfeit):
            fouls.forfeit(ctx, action.seat)
        elif isinstance(action, Pause):
            if st.paused:
                raise RuleError("already paused", "already_paused")
            st.paused = True
            ctx.out.append(PauseTimers())
            ctx.say("paused")
        elif isinstance(action, Resume):
            if not st.paused:
                raise RuleError("not paused", "not_paused")
            st.paused = False
            ctx.say("resumed")
            ctx.out.append(ResumeTimers())
        elif isinstance(action, Repeat):
            if st.last_say is None or st.phase != "day":
                raise RuleError("nothing to repeat", "nothing_to_repeat")
            ctx.out.append(Say(st.last_say.cue, dict(st.last_say.params)))
        elif isinstance(action, AddTime):
            if st.phase != "day" or st.current is None or st.window == 0:
                raise RuleError("no speech to add time to", "no_speech")
            if action.seconds <= 0 or action.seconds > 120:
                raise RuleError("time can be added in steps of 1-120 seconds", "add_time_range")
            ctx.out.append(ExtendWindow(st.window, float(action.seconds)))
            ctx.say("time_added", seconds=action.seconds)


def announce_deck(ctx: Ctx) -> None:
    """The roles in play and how many of each, before the first night, in the rule set's
    order of roles (boxed: «НЕ ЗАБУДЬТЕ ЗАРАНЕЕ ОГЛАСИТЬ… КАКИЕ РОЛИ И В КАКОМ
    КОЛИЧЕСТВЕ УЧАСТВУЮТ В ПАРТИИ»)."""
    deck = ctx.state.deck
    ctx.say("deck_intro")
    for role in ctx.rules.roles:
        count = deck.get(role, 0)
        if count == 1:
            ctx.say("deck_role", role=role)
        elif count > 1:
            ctx.say("deck_roles", role=role, count=count)
