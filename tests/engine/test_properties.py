"""Properties of random legal play (hypothesis picks the seeds): games end, the dead never
act, counts add up, states round-trip through JSON, undo restores, refused actions change
nothing. Choices within a game come from a generator seeded by hypothesis, so a failing
case shrinks to one seed; the profile (tests/profiles.py) says how many games."""

from __future__ import annotations

import json
import random
from dataclasses import fields
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from narrator.engine.actions import Action, Nominate, Tap, Undo, Vote, WindowClosed
from narrator.engine.deal import deal
from narrator.engine.effects import Effect, Outcome, Record, Say
from narrator.engine.game import Game
from narrator.engine.legal import legal_actions
from narrator.engine.memory import Memory, Visit
from narrator.engine.state import Ballot, Pick, State, Window
from narrator.engine.tasks import Speech
from narrator.errors import RuleError
from narrator.rules.loader import bundled_names, load_bundled
from tests.profiles import games

RULES = bundled_names()
SEEDS = st.integers(0, 2**32)
FAST = games(ci=20)


def new_game(name: str, seed: int) -> tuple[Game, random.Random]:
    rules = load_bundled(name)
    rnd = random.Random(seed)
    seats = rnd.choice(sorted(rules.deck))
    return Game(rules, seats, seed, deal(rules, seats, seed)), rnd


def pick(game: Game, rnd: random.Random, progress: float = 0.6) -> Action:
    actions = [a for a in legal_actions(game.engine.rules, game.state) if a.kind != "remove"]
    # Mostly let time run, so random play reaches the end of a game.
    return actions[0] if rnd.random() < progress else rnd.choice(actions)


def assert_consistent(state: State) -> None:
    living = state.living()
    assert len(living) + len(state.eliminations) == state.seats
    assert all(not state.alive[e.seat] for e in state.eliminations)
    assert all(state.gone[s] == "" for s in living)


def assert_dead_do_not_act(action: Action, effects: list[Effect], living: set[int]) -> None:
    if isinstance(action, Vote):
        assert action.voter in living
    for effect in effects:
        if isinstance(effect, Record) and effect.event == "night_choice":
            assert all(actor == 0 or actor in living for actor, _t in effect.data["choices"])
        if isinstance(effect, Record) and effect.event == "nomination":
            # by 0: the host's keypad (a boxed proposal made for the table)
            assert effect.data["by"] in living | {0} and effect.data["target"] in living
        if isinstance(effect, Record) and effect.event == "vote":
            assert set(effect.data["voters"]) <= living


def assert_round_trip(state: State) -> None:
    text = json.dumps(state.to_json())
    again = State.from_json(json.loads(text))
    assert again == state
    assert json.dumps(again.to_json()) == text


@FAST
@given(name=st.sampled_from(RULES), seed=SEEDS)
def test_random_legal_play_ends_with_an_outcome(name: str, seed: int) -> None:
    game, rnd = new_game(name, seed)
    for _ in range(20_000):
        if game.over:
            break
        action = pick(game, rnd)
        living = set(game.state.living())
        effects = game.apply(action)
        assert_consistent(game.state)
        assert_dead_do_not_act(action, effects, living)
    assert game.state.outcome is not None
    assert game.state.outcome.winner in ("red", "black", "maniac", "draw")
    assert_round_trip(game.state)


@FAST
@given(name=st.sampled_from(RULES), seed=SEEDS)
def test_every_state_round_trips_and_plays_on_the_same(name: str, seed: int) -> None:
    game, rnd = new_game(name, seed)
    for _ in range(rnd.randint(1, 400)):
        if game.over:
            return
        game.apply(pick(game, rnd))
        assert_round_trip(game.state)
    if game.over:
        return
    copy = State.from_json(json.loads(json.dumps(game.state.to_json())))
    action = pick(game, rnd)
    try:
        expected = [e.to_json() for e in game.engine.apply(game.state.clone(), action)]
    except RuleError:
        return
    assert [e.to_json() for e in game.engine.apply(copy, action)] == expected


@FAST
@given(name=st.sampled_from(RULES), seed=SEEDS)
def test_undo_after_any_action_restores_the_state(name: str, seed: int) -> None:
    game, rnd = new_game(name, seed)
    for _ in range(rnd.randint(1, 400)):
        if game.over:
            break
        before = game.state.to_json()
        game.apply(pick(game, rnd, progress=0.4))
        if rnd.random() < 0.5:
            game.apply(Undo())
            assert game.state.to_json() == before


@FAST
@given(name=st.sampled_from(RULES), seed=SEEDS)
def test_refused_actions_change_nothing(name: str, seed: int) -> None:
    game, rnd = new_game(name, seed)
    n = game.state.seats
    junk: list[Action] = [Vote(0), Vote(n + 1), Nominate(n + 3), Tap(99), WindowClosed(10_000)]
    for _ in range(rnd.randint(1, 300)):
        if game.over:
            break
        for bad in [*junk, pick(game, rnd, progress=0.0)]:
            before = game.state.to_json()
            try:
                game.engine.apply(game.state, bad)
            except RuleError:
                assert game.state.to_json() == before
            else:
                game.state = State.from_json(before)
        game.apply(pick(game, rnd))


# A value for each field whose default is None.
_UNLIKE = {"current": Speech(3), "open": Window("speech", 60.0, 3), "ballot": Ballot("elect", 1, (3,)),
           "outcome": Outcome("vote", "red"), "last_say": Say("hello")}


def _places(state: State) -> list[tuple[Any, str]]:
    """Every field of the state and of each ability's memory in it, as (holder, name)."""
    out: list[tuple[Any, str]] = []
    for f in fields(State):
        value = getattr(state, f.name)
        if isinstance(value, Memory):
            out.extend((value, g.name) for g in fields(value))
        else:
            out.append((state, f.name))
    return out


def test_clone_copies_every_field_and_shares_no_list_or_dict() -> None:
    # A field clone() left out would silently take its default in every copy, and a list
    # or dict it shared would let an undone action leak into the history: so each field
    # (each memory's too) gets a value unlike its default.
    state = State.start("sport", 10, {"citizen": 7, "mafia": 2, "don": 1}, 7)
    for holder, name in _places(state):
        value = getattr(holder, name)
        if isinstance(value, list):
            value.append(name)
        elif isinstance(value, dict):
            value[name] = 1
        elif isinstance(value, bool):
            setattr(holder, name, not value)
        elif isinstance(value, int):
            setattr(holder, name, value + 3)
        # Strings, tuples, frozen values and None: the same object must come through.
        elif isinstance(value, str):
            setattr(holder, name, value + "!")
        elif isinstance(value, tuple):
            setattr(holder, name, (*value, 99))
        else:
            setattr(holder, name, _UNLIKE[name])
    copy = state.clone()
    assert copy == state
    for (mine_in, name), (theirs_in, _) in zip(_places(state), _places(copy), strict=True):
        assert theirs_in is not mine_in, f"{name}'s memory is shared"
        mine, theirs = getattr(mine_in, name), getattr(theirs_in, name)
        assert theirs == mine, name
        if isinstance(mine, list | dict):
            assert theirs is not mine, f"{name} is shared"
        elif not isinstance(mine, bool | int):
            assert theirs is mine, name


def test_every_field_and_memory_round_trips_through_json() -> None:
    # to_json/from_json follow the fields and their types: a field whose JSON does not
    # load back (a type the loader does not know) fails here, with its name.
    state = State.start("sport", 10, {"citizen": 7, "mafia": 2, "don": 1}, 7)
    state.visit.visits["lover"] = Visit(3, 5)
    state.visit.blocked.append(5)
    state.picks.last_pick["doctor"] = 4
    state.judge.verdict_used = True
    state.night_zero.meet_calls = 2
    state.agenda.append(Speech(3, final=True))
    state.night["mafia_shot"] = (Pick(1, 4),)
    for holder, name in _places(state):
        if getattr(holder, name) is None:
            setattr(holder, name, _UNLIKE[name])
    text = json.loads(json.dumps(state.to_json()))
    assert State.from_json(text) == state
    assert {name for _, name in _places(state)} | {"format"} == set(text)
