"""Whole games played by simulated players straight through the engine (no devices).

Used by the engine bench, the property tests and `narrator demo --fast` before devices
are attached. Windows always run out after the players have acted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from narrator.engine.actions import Action, Tap, WindowClosed
from narrator.engine.core import Engine
from narrator.engine.deal import deal
from narrator.engine.effects import Effect
from narrator.engine.rng import Rng
from narrator.engine.ruleset import RuleSet
from narrator.engine.state import State
from narrator.engine.tasks import CallOut
from narrator.errors import RuleError
from narrator.sim.players import Table

MAX_ACTIONS = 50_000


# Every window's running out, built once: an action is a frozen value, and a game closes
# about 170 windows.
_CLOSED: Final[list[WindowClosed]] = []


def _closed(window: int) -> WindowClosed:
    while len(_CLOSED) <= window:
        _CLOSED.append(WindowClosed(len(_CLOSED)))
    return _CLOSED[window]


# Taps by seat, shared likewise (an action is a frozen value).
_TAPS: Final[list[Tap]] = []


def _tap(seat: int) -> Tap:
    while len(_TAPS) <= seat:
        _TAPS.append(Tap(len(_TAPS)))
    return _TAPS[seat]


def with_random_roles(rules: RuleSet, seats: int, seed: int) -> RuleSet:
    """For a rule set whose deck comes from a setup table (boxed): the table's row for
    these seats with special roles drawn by the seed, as a club might choose them, so
    self-play meets every role. Other rule sets are returned as they are."""
    setup = rules.setup
    if setup is None or seats not in setup.table:
        return rules
    rng = Rng(seed ^ 0x5EED)
    picks: list[str] = []
    for group, members in setup.groups.items():
        pool = list(members)
        for _ in range(setup.table[seats].get(group, 0)):
            pool = [r for r in pool if not any(o in picks for o in rules.roles[r].excludes)]
            picks.append(pool.pop(rng.below(len(pool))))
    return rules.with_settings({"setup.roles": picks})


def play(rules: RuleSet, seed: int, seats: int | None = None,
         on_effects: Callable[[State, list[Effect]], None] | None = None,
         close: Callable[[State], WindowClosed] | None = None,
         record: list[Action] | None = None) -> State:
    """Play a whole game. `close` lets the open window run out (a virtual clock moves
    time there); by default windows just close. `record` collects every action applied."""
    engine = Engine(rules)
    n = seats or rules.min_seats
    cards = deal(rules, n, seed)
    st, effects = engine.new_game(n, seed, cards)
    if on_effects:
        on_effects(st, effects)
    table = Table(rules, seed, cards=cards)
    closes = _CLOSED
    quiet = close is None and record is None and on_effects is None  # the bench's games

    def run_out(window: int) -> None:
        """The open window runs out."""
        if close is None and window < len(closes):
            closing = closes[window]  # the common case, without a call
        else:
            closing = close(st) if close else _closed(window)
        effects = engine.apply(st, closing)
        if record is not None:
            record.append(closing)
        if on_effects:
            on_effects(st, effects)

    for _ in range(MAX_ACTIONS):
        if st.phase == "over":
            return st
        task = st.current
        if type(task) is CallOut:
            # Most moments of a game are call-out beats, and at most of them nobody taps:
            # the players' plan for the step names the one number they tap at, and the
            # beats before it run out here one after another.
            step = task.step
            target, actors = table.call_plan(st, step)
            seat = task.seat
            while seat != target:
                window = st.window
                if quiet and window < len(closes):
                    engine.apply(st, closes[window])  # run_out without its call: most beats
                else:
                    run_out(window)
                task = st.current
                if type(task) is not CallOut or task.step != step:
                    break
                seat = task.seat
            if seat != target:
                continue  # the call-out is over: the next moment is seen afresh
            actions: list[Action] = [_tap(a) for a in actors]
        else:
            actions = table.respond(st)
        window = st.window
        for action in actions:
            try:
                effects = engine.apply(st, action)
            except RuleError:
                continue  # a simulated player's mistake is refused and changes nothing
            if record is not None:
                record.append(action)
            if on_effects:
                on_effects(st, effects)
            if st.phase == "over":
                return st
        if st.window != window:
            continue  # an action opened a new moment (an accusation): the players see it first
        run_out(window)
    raise RuntimeError(f"seed {seed}: the game did not end in {MAX_ACTIONS} actions")
