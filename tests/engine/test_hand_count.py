"""The host counts the hands (the page's seat tiles, the keypad's seats): the ballot waits
for the host's Count, and the rule set's seconds stay the limit for the pads only.

The engine stops a ballot's timer with CloseWindow (the daemon cancels it) and keeps the
window open until Count; a Tap (a pad) never stops it."""

from __future__ import annotations

import pytest

from narrator.devices.keymap import KeypadDecoder
from narrator.engine.actions import (
    Action,
    Count,
    LowerHand,
    Nominate,
    Tap,
    Undo,
    Vote,
    WindowClosed,
)
from narrator.engine.effects import CloseWindow, Effect, OpenWindow, Say
from narrator.engine.game import Game
from narrator.engine.legal import legal_actions
from narrator.errors import RuleError
from narrator.rules.loader import load_bundled

ROLES = ("civilian", "mafia", "sheriff", "mafia", "civilian", "civilian", "don", "civilian",
         "civilian", "civilian")


def _until(game: Game, name: str, seat: int) -> list[Effect]:
    said: list[Effect] = []
    for _ in range(5000):
        cur = game.state.current
        if cur is not None and cur.to_json()[:2] == [name, seat]:
            return said
        said += game.apply(WindowClosed(game.state.window))
    raise AssertionError(f"never reached {name} {seat}")


def at_first_ballot(hand_count: bool = False) -> tuple[Game, list[Effect]]:
    """Day 1: 1 nominates 5, 2 nominates 6, 3 nominates 8; the ballot on 5 is open."""
    game = Game(load_bundled("sport"), roles=ROLES, hand_count=hand_count)
    for speaker, target in ((1, 5), (2, 6), (3, 8)):
        _until(game, "speech", speaker)
        game.apply(Nominate(target))
    return game, _until(game, "ballot", 5)


def stopped(effects: list[Effect], window: int) -> bool:
    return any(isinstance(e, CloseWindow) and e.window == window for e in effects)


def opened_then_stopped(effects: list[Effect]) -> bool:
    """The last window opened was stopped at once (after it, in the same effects)."""
    opens = [i for i, e in enumerate(effects) if isinstance(e, OpenWindow)]
    if not opens:
        return False
    last = effects[opens[-1]]
    assert isinstance(last, OpenWindow)
    return stopped(effects[opens[-1]:], last.window)


def counts(effects: list[Effect]) -> list[tuple[object, object]]:
    return [(e.params["seat"], e.params["votes"])
            for e in effects if isinstance(e, Say) and e.cue == "vote_count"]


def test_pads_vote_in_the_rule_sets_seconds() -> None:
    game, opening = at_first_ballot()
    window = game.state.window
    assert not opened_then_stopped(opening)
    effects = game.apply(Tap(1)) + game.apply(Tap(2))
    assert not stopped(effects, window) and not game.state.hand_count
    # The window's time runs out: the ballot moves on by itself.
    moved = game.apply(WindowClosed(window))
    assert counts(moved) == [(5, 2)]
    assert game.state.current is not None and game.state.current.to_json() == ["ballot", 6]


def test_a_hand_counted_by_the_host_stops_the_timer_until_the_count() -> None:
    game, _ = at_first_ballot()
    window = game.state.window
    effects = game.apply(Vote(1))
    assert stopped(effects, window) and game.state.hand_count
    game.apply(Vote(2))
    game.apply(Vote(3))
    game.apply(LowerHand(2))  # counted by mistake: the tile toggled off
    assert game.state.ballot is not None and game.state.ballot.votes_for(5) == [1, 3]
    with pytest.raises(RuleError) as refused:
        game.apply(LowerHand(2))
    assert refused.value.code == "no_hand"
    assert game.state.window == window  # still on 5: only the count moves on
    moved = game.apply(Count())
    assert counts(moved) == [(5, 2)]
    assert game.state.current is not None and game.state.current.to_json() == ["ballot", 6]
    # The next candidate's window opens stopped too: the host counts this ballot.
    assert opened_then_stopped(moved)
    assert Count() in legal_actions(game.engine.rules, game.state)


def test_count_closes_a_pads_ballot_early_and_the_host_counts_from_then_on() -> None:
    game, _ = at_first_ballot()
    window = game.state.window
    game.apply(Tap(4))
    moved = game.apply(Count())
    assert stopped(moved, window) and counts(moved) == [(5, 1)]
    assert opened_then_stopped(moved)


def test_a_table_without_pads_counts_every_ballot() -> None:
    game, opening = at_first_ballot(hand_count=True)
    assert opened_then_stopped(opening)
    # An undo brings the ballot back stopped, not running its seconds again.
    game.apply(Vote(7))
    back = game.apply(Undo())
    assert opened_then_stopped(back)


def test_the_keypad_counts_with_a_bare_enter() -> None:
    game, _ = at_first_ballot()
    said: list[Effect] = []
    actions: list[Action] = KeypadDecoder().keys("1\n4\n9\n\n")
    for action in actions:
        said += game.apply(action)
    assert counts(said) == [(5, 3)]
    assert opened_then_stopped(said)


def test_count_outside_a_ballot_is_refused() -> None:
    game = Game(load_bundled("sport"), roles=ROLES)
    _until(game, "speech", 1)
    with pytest.raises(RuleError):
        game.apply(Count())
    with pytest.raises(RuleError):
        game.apply(LowerHand(3))
