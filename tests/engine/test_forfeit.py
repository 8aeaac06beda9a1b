"""001's "immediate victory for the opposite team" (`Forfeit`): only where the rule set
has it (sport), offered by legal() there and refused elsewhere without a change."""

from __future__ import annotations

import pytest

from narrator.engine.actions import Forfeit, WindowClosed
from narrator.engine.game import Game
from narrator.errors import RuleError
from narrator.rules.loader import bundled_names, load_bundled
from narrator.sim.selfplay import deal


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
