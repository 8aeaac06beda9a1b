"""001's "immediate victory for the opposite team" (`Forfeit`): only where the rule set
has it (sport), offered by legal() there and refused elsewhere without a change."""

from __future__ import annotations

import pytest

from narrator.engine.actions import Forfeit, Tap, WindowClosed
from narrator.engine.deal import deal
from narrator.engine.game import Game
from narrator.engine.tasks import NightInput
from narrator.errors import RuleError
from narrator.rules.loader import bundled_names, load_bundled


def _first_day(name: str) -> Game:
    rules = load_bundled(name)
    seats = min(rules.deck)
    game = Game(rules, seats=seats, seed=1, roles=deal(rules, seats, 1))
    while game.state.phase != "day":
        game.apply(WindowClosed(game.state.window))
    return game


@pytest.mark.parametrize("name", [n for n in bundled_names() if not load_bundled(n).forfeit])
def test_rule_sets_without_it_refuse_a_forfeit(name: str) -> None:
    game = _first_day(name)
    before = game.state.to_json()
    assert not any(isinstance(a, Forfeit) for a in game.legal())
    with pytest.raises(RuleError, match="no game to the other team"):
        game.apply(Forfeit(1))
    assert game.state.to_json() == before


def test_sport_offers_it_and_a_black_breach_gives_red_the_game() -> None:
    assert load_bundled("sport").forfeit
    game = _first_day("sport")
    living = game.state.living()
    assert [a.seat for a in game.legal() if isinstance(a, Forfeit)] == living
    black = next(s for s in living if game.state.roles[s] in ("mafia", "don"))
    game.apply(Forfeit(black))
    assert game.over and game.state.outcome is not None
    assert (game.state.outcome.winner, game.state.outcome.reason) == ("red", "forfeit")
    red = _first_day("sport")
    sheriff = red.state.roles.index("sheriff")
    red.apply(Forfeit(sheriff))
    assert red.state.outcome is not None and red.state.outcome.winner == "black"


def test_while_night_zero_learns_the_cards_every_seat_is_refused_alike() -> None:
    """Without a deal the box learns the cards from the holders' taps: after the don's
    meeting it knows the black cards, not the others'; a forfeit is refused for every seat
    then, so the refusal tells nothing."""
    rules = load_bundled("sport")
    game = Game(rules, seats=10, seed=1)
    cards = deal(rules, 10, 1)
    holders = {"mafia_meet": ("mafia", "don"), "don_meet": ("don",)}
    while not any(game.state.roles[1:]):
        task = game.state.current
        if isinstance(task, NightInput) and task.step in holders:
            for s in range(1, 11):
                if cards[s - 1] in holders[task.step]:
                    game.apply(Tap(s))
        game.apply(WindowClosed(game.state.window))
    assert any(game.state.roles[1:]) and not all(game.state.roles[1:])
    for seat in range(1, 11):
        with pytest.raises(RuleError, match="the roles are not known yet"):
            game.apply(Forfeit(seat))
