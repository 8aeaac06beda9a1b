"""The boxed nights leak nothing: every step of the deck's roles is called every night with
the same words and windows whether its holder is alive, dead, asleep (the spy's choice),
guarded (the bodyguard's), silenced (the boss's) or tapping.

A 16-seat table with every special role the booklet has (the doctor or the self-taught
doctor) plays two nights; only who taps what changes between the variants, and the two
nights must sound and last exactly the same.
"""

from __future__ import annotations

from typing import Any

import pytest

from narrator.engine.actions import Remove, Tap
from narrator.engine.effects import Effect, OpenWindow, SeatLights, ShowAnswer
from narrator.engine.game import Game
from narrator.engine.ruleset import RuleSet
from narrator.engine.tasks import CallOut, Proposals
from narrator.records.script import estimated_timeline
from narrator.rules.loader import load_bundled

SPECIALS = ["sergeant", "judge", "spy", "sleepwalker", "bodyguard", "ghost_talker", "boss",
            "turncoat", "ninja", "serial_killer"]
ROLES = ["civilian", "mafia", "commissar", "sergeant", "boss", "HEALER", "bodyguard", "ninja",
         "spy", "turncoat", "sleepwalker", "serial_killer", "judge", "ghost_talker", "civilian",
         "mafia"]
SPY, GUARD, BOSS = 9, 7, 5

Script = list[tuple[Any, ...]]


def table(healer: str) -> tuple[RuleSet, list[str]]:
    rules = load_bundled("boxed").with_settings({
        "setup.follow_table": False, "setup.mafiosi": 2, "setup.roles": [*SPECIALS, healer]})
    return rules, [healer if r == "HEALER" else r for r in ROLES]


def nights(rules: RuleSet, roles: list[str], plan: dict[int, dict[str, dict[int, int]]],
           remove: int = 0) -> tuple[Script, list[Effect]]:
    """Nights 1 and 2 as heard (offset, length, cue, text) and seen (windows, lights,
    answers). `plan[night][step] = {actor: target}`; `remove` leaves on day 1."""
    game = Game(rules, len(roles), 3, roles)
    timeline = estimated_timeline(rules=rules.name)
    timeline.feed(game.opening)
    seen: list[Effect] = []
    while not game.over and game.state.phase_label() != "day-3":
        st = game.state
        if remove and isinstance(st.current, Proposals) and st.number == 1 and st.alive[remove]:
            timeline.feed(game.apply(Remove(remove)))
            continue
        if isinstance(st.current, CallOut):
            for actor, target in plan.get(st.number, {}).get(st.current.step, {}).items():
                if target == st.current.seat:
                    assert not game.apply(Tap(actor)), "a tap at night is silent and dark"
        for effect in game.apply(timeline.close_window()):
            timeline.feed([effect])
            if timeline.phase in ("night-1", "night-2"):
                seen.append(effect)
    spoken = [s for s in timeline.spoken if s.phase in ("night-1", "night-2")]
    starts = {p: next(s.at for s in spoken if s.phase == p) for p in ("night-1", "night-2")}
    return [(s.phase, round(s.at - starts[s.phase], 3), s.seconds, s.cue, s.text)
            for s in spoken], seen


def _windows(effects: list[Effect]) -> list[tuple[str, float]]:
    return [(e.purpose, e.seconds) for e in effects if isinstance(e, OpenWindow)]


CASES = [(healer, role) for healer in ("doctor", "self_taught_doctor")
         for role in ("bodyguard", "spy", healer, "ghost_talker", "commissar", "sergeant",
                      "mafia", "boss", "serial_killer", "sleepwalker", "ninja")
         if healer == "doctor" or role == healer]


@pytest.mark.parametrize("healer, role", CASES)
def test_a_boxed_night_is_the_same_whatever_happens_to_a_role(healer: str, role: str) -> None:
    rules, roles = table(healer)
    holder = roles.index(role) + 1
    other = 16 if holder != 16 else 1  # a seat to aim at
    step = next(s.id for s in rules.night if role in s.roles)
    base, base_seen = nights(rules, roles, {})
    variants = {
        "taps": {1: {step: {holder: other}}, 2: {step: {holder: other}}},
        "asleep": {1: {"spy_sleep": {SPY: holder}, step: {holder: other}}},
        "guarded": {1: {"bodyguard_guard": {GUARD: holder}}},
        "silenced": {1: {"boss_silence": {BOSS: holder}}, 2: {step: {holder: other}}},
    }
    for name, plan in variants.items():
        script, seen = nights(rules, roles, plan)
        assert script == base, f"{role} {name}: the night sounds different"
        assert _windows(seen) == _windows(base_seen), f"{role} {name}: other windows"
        assert all(e == SeatLights() for e in seen if isinstance(e, SeatLights))
    dead, dead_seen = nights(rules, roles, {}, remove=holder)
    assert dead == base and _windows(dead_seen) == _windows(base_seen)


def test_the_commissar_is_answered_only_by_the_light() -> None:
    rules, roles = table("doctor")
    _script, seen = nights(rules, roles, {1: {"commissar_check": {3: 8}}})
    answers = [e for e in seen if isinstance(e, ShowAnswer)]
    real = [(a.answer, a.code) for a in answers if not a.decoy]
    assert real == [("civilian", 1)]  # the ninja's cover
    # Nights with no check asked light a decoy card, never one a check cannot show.
    assert any(a.decoy for a in answers)
    assert all(a.code > 0 and a.answer != "ninja" for a in answers)


def _checked(rules: RuleSet, roles: list[str], target: int) -> list[tuple[str, float, int]]:
    """What the commissar's answer display shows on night 1 for a check of `target`."""
    _script, seen = nights(rules, roles, {1: {"commissar_check": {3: target}}})
    return [(a.answer, a.seconds, a.code) for a in seen if isinstance(a, ShowAnswer) and not a.decoy]


@pytest.mark.parametrize("role", ["turncoat", "ninja"])
def test_a_covered_card_shows_exactly_as_a_civilian(role: str) -> None:
    """A turncoat not yet turned (and the ninja) shows what a civilian shows: the same
    card, blink code and time on the answer LEDs; nothing else of the night differs."""
    rules, roles = table("doctor")
    covered, civilian = roles.index(role) + 1, roles.index("civilian") + 1
    assert _checked(rules, roles, covered) == _checked(rules, roles, civilian)
    assert _checked(rules, roles, covered)[0][0] == "civilian"
    a, a_seen = nights(rules, roles, {1: {"commissar_check": {3: covered}}})
    b, b_seen = nights(rules, roles, {1: {"commissar_check": {3: civilian}}})
    assert a == b and _windows(a_seen) == _windows(b_seen)
    assert all(e == SeatLights() for e in a_seen + b_seen if isinstance(e, SeatLights))


def test_the_sleepwalker_shows_his_own_card_and_votes_in_the_day_like_the_town() -> None:
    """The booklet: the sleepwalker plays for the town; only his night vote with the
    mafia is not counted. The commissar sees his card (no cover); his day vote lights and
    counts like any player's; his night taps are silent and dark."""
    rules, roles = table("doctor")
    walker = roles.index("sleepwalker") + 1
    assert _checked(rules, roles, walker)[0][0] == "sleepwalker"
    assert rules.roles["sleepwalker"].votes == rules.roles["civilian"].votes is True
    # His tap in the mafia's kill is taken silently (nights() asserts each tap is dark).
    step = next(s.id for s in rules.night if "sleepwalker" in s.roles and s.ability == "kill")
    tapped, tapped_seen = nights(rules, roles, {1: {step: {walker: 1}}})
    quiet, quiet_seen = nights(rules, roles, {})
    assert tapped == quiet and _windows(tapped_seen) == _windows(quiet_seen)


def test_a_turncoat_votes_in_the_day_like_a_civilian() -> None:
    rules = load_bundled("boxed")
    turncoat, civilian = rules.roles["turncoat"], rules.roles["civilian"]
    assert turncoat.votes == civilian.votes and turncoat.shows_as == "civilian"
    assert turncoat.check_team == "black"  # a team check is not the cover: boxed has none
    assert not any(s.ability == "check" for s in rules.night)
