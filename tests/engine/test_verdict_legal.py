"""The boxed judge's verdict: what legal() offers is exactly what the engine accepts,
with and without `day.verdict_self` (003: the judge plays on after the verdict, so by
default he jails another player)."""

from __future__ import annotations

import pytest

from narrator.engine.actions import Verdict, WindowClosed
from narrator.engine.game import Game
from narrator.engine.tasks import Proposals
from narrator.errors import RuleError
from narrator.rules.loader import load_bundled

ROLES = ["civilian", "mafia", "judge", "commissar", "boss", "civilian", "civilian", "mafia",
         "civilian", "civilian"]
JUDGE = 3


def _at_proposals(verdict_self: bool) -> Game:
    rules = load_bundled("boxed").with_settings(
        {"setup.roles": ["judge", "boss"], "day.verdict_self": verdict_self})
    game = Game(rules, len(ROLES), 0, ROLES)
    while not isinstance(game.state.current, Proposals):
        game.apply(WindowClosed(game.state.window))
    return game


@pytest.mark.parametrize("verdict_self", [False, True])
def test_legal_offers_the_verdicts_the_engine_accepts(verdict_self: bool) -> None:
    game = _at_proposals(verdict_self)
    offered = {a for a in game.legal() if isinstance(a, Verdict)}
    every = {Verdict(j, t) for j in range(1, 11) for t in range(1, 11)}
    for action in every:
        try:
            game.engine.apply(game.state.clone(), action)  # what Game.apply does, on a copy
        except RuleError:
            assert action not in offered, f"{action} offered but refused"
        else:
            assert action in offered, f"{action} accepted but not offered"
    assert (Verdict(JUDGE, JUDGE) in offered) is verdict_self
    assert {a.target for a in offered} >= set(range(1, 11)) - {JUDGE}
