"""The night leaks nothing (DESIGN.md, "Secrets never leak"), for every bundled rule set.

A night's script (every cue, its text, start and length, and every window) is the same
whether a role's holder is alive or dead, and whether the living holders tap or not.
Seat lights stay dark at night and no cue at night names a role holder's seat except the
call-out, which calls every seat.
"""

from __future__ import annotations

import pytest

from narrator.engine.actions import Remove, Tap
from narrator.engine.deal import deal
from narrator.engine.effects import Effect, OpenWindow, Phase, Say, SeatLights, ShowAnswer
from narrator.engine.game import Game
from narrator.engine.ruleset import RuleSet
from narrator.engine.tasks import CallOut
from narrator.records.script import estimated_timeline
from narrator.rules.loader import bundled_names, load_bundled

Script = list[tuple[float, float, str, str]]


def night_script(rules: RuleSet, roles: list[str], remove: int, tap: bool) -> tuple[Script, list[Effect]]:
    """Play to night 1 with `remove` taken out on day 1; return night 1 as heard and seen."""
    game = Game(rules, len(roles), 7, roles)
    timeline = estimated_timeline(rules=rules.name)
    timeline.feed(game.opening)
    night: list[Effect] = []
    removed = False
    while not (game.state.phase == "day" and game.state.number == 2) and not game.over:
        st = game.state
        label = st.phase_label()
        if st.phase == "day" and not removed and st.current is not None:
            removed = True
            timeline.feed(game.apply(Remove(remove)))
            continue
        if label == "night-1" and tap and isinstance(st.current, CallOut):
            for seat in st.living():
                # Everyone, role or not, taps once per step, at the number after their own.
                if st.current.seat == seat % st.seats + 1:
                    effects = game.apply(Tap(seat))
                    assert not effects, "a tap at night must have no effect the table can see"
        effects = game.apply(timeline.close_window())
        for effect in effects:
            timeline.feed([effect])
            if timeline.phase == "night-1":
                night.append(effect)
    spoken = [s for s in timeline.spoken if s.phase == "night-1"]
    assert spoken, "night 1 was not reached"
    start = spoken[0].at
    return [(round(s.at - start, 3), s.seconds, s.cue, s.text) for s in spoken], night


def _windows(effects: list[Effect]) -> list[tuple[str, float]]:
    return [(e.purpose, e.seconds) for e in effects if isinstance(e, OpenWindow)]


def _answers(effects: list[Effect]) -> list[tuple[int, float, bool]]:
    """Where in the night the answer display lights, for how long, and whether as a
    card's blinks: everything but the answer itself."""
    shown = []
    windows = 0  # where: after how many of the night's windows
    for e in effects:
        windows += isinstance(e, OpenWindow)
        if isinstance(e, ShowAnswer):
            shown.append((windows, e.seconds, e.code > 0))
    return shown


def _cases() -> list[tuple[str, str]]:
    cases = []
    for name in bundled_names():
        rules = load_bundled(name)
        roles_in_steps = {r for step in rules.night for r in step.roles}
        for role in sorted(roles_in_steps):
            cases.append((name, role))
    return cases


def table_with(rules: RuleSet, role: str) -> tuple[RuleSet, int]:
    """The largest table whose deck has the role: a bundled deck, or (boxed) the largest
    row of the setup table with the role among the special roles in play."""
    setup = rules.setup
    if setup is None:
        if not any(role in counts for counts in rules.deck.values()):
            # A role only a setting deals (classic's second angel): one card of it.
            rules = rules.with_fields({f"deck.{role}": 1})
        return rules, max(n for n in rules.deck if role in rules.deck_for(n))
    seats = 16  # the largest table a pin map serves
    picks = list(setup.picks(seats))
    group = next((g for g in setup.groups.values() if role in g), None)
    if group is not None and role not in picks:
        # Swap the role in for one of its group (first one it never plays with).
        out = next((p for p in picks if p in rules.roles[role].excludes),
                   next(p for p in reversed(picks) if p in group))
        picks[picks.index(out)] = role
    return rules.with_settings({"setup.roles": picks}), seats


@pytest.mark.parametrize("name, role", _cases())
def test_night_is_the_same_with_the_role_dead_or_alive(name: str, role: str) -> None:
    rules, seats = table_with(load_bundled(name), role)
    roles = None
    for seed in range(200):
        candidate = deal(rules, seats, seed)
        if role in candidate:
            roles = candidate
            break
    assert roles is not None
    holder = roles.index(role) + 1
    bystander = next(i + 1 for i, r in enumerate(roles) if r == rules.default_role and i + 1 != holder)
    dead_script, dead_night = night_script(rules, roles, remove=holder, tap=False)
    alive_script, alive_night = night_script(rules, roles, remove=bystander, tap=False)
    tapping_script, tapping_night = night_script(rules, roles, remove=bystander, tap=True)
    assert dead_script == alive_script == tapping_script
    assert _windows(dead_night) == _windows(alive_night) == _windows(tapping_night)
    # The answer display lights alike (a decoy when no answer is due): when and how long.
    assert _answers(dead_night) == _answers(alive_night) == _answers(tapping_night)
    for effects in (dead_night, alive_night, tapping_night):
        for e in effects:
            if isinstance(e, Phase):
                continue
            if isinstance(e, SeatLights):
                assert e == SeatLights(), "seat lights at night must stay dark"
            if isinstance(e, Say):
                assert set(e.params) <= {"seat"} and (not e.params or e.cue == "callout"), e
    if not rules.answers_public:
        assert not any(isinstance(e, Say) and "answer" in e.cue for e in tapping_night)
    assert any(isinstance(e, ShowAnswer) for e in tapping_night) or not any(
        s.ability == "check" for s in rules.night)


def test_sport_night_with_sheriff_dead_equals_sheriff_alive() -> None:
    rules = load_bundled("sport")
    roles = ["civilian", "mafia", "sheriff", "mafia", "civilian", "civilian", "don",
             "civilian", "civilian", "civilian"]
    dead, _ = night_script(rules, roles, remove=3, tap=False)
    alive, _ = night_script(rules, roles, remove=5, tap=True)
    assert dead == alive
    assert [c for _at, _s, c, _t in dead][:3] == ["night_falls", "sport_mafia_hunt", "callout"]
    assert sum(1 for _a, _s, c, _t in dead if c == "callout") == 30
