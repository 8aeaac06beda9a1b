"""`legal()` is the truth: every action it offers is accepted, and an action the engine
refuses is never among those it offers, in random games of every rule set with the host's
corrections (fouls, removals, undo, pause) and the table's mistakes mixed in
(narrator.sim.legality). `narrator bench --only legal` plays 10,000 games per rule set.

Every seed a random run ever found failing stays here as an `@example`, with its bug."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from narrator.rules.loader import bundled_names, load_bundled
from narrator.sim.legality import LegalityError, play_checked
from tests.profiles import games


@pytest.mark.parametrize("name", bundled_names())
@games(ci=8)
@given(seed=st.integers(0, 2**32))
# classic: the accused got a fourth foul while the accusation waited for a second; the
# second's window stayed open, legal() offered Second and the engine refused it.
@example(seed=94)
@example(seed=641)  # the same, found again on a later day of another game
# classic: a removal stopped the conviction vote (fouls.cancel_vote), and the count that
# followed found no ballot: the engine failed.
@example(seed=1)
# club: tied players do not vote in the re-vote, yet legal() offered their votes.
@example(seed=32)
def test_what_legal_offers_the_engine_accepts(name: str, seed: int) -> None:
    played = play_checked(load_bundled(name), seed)
    assert played.actions > 0 and played.outcome in ("red", "black", "maniac", "draw")


def test_the_checker_catches_a_legal_list_that_lies(monkeypatch: pytest.MonkeyPatch) -> None:
    from narrator.engine.actions import Action, Vote
    from narrator.engine.game import Game
    from narrator.engine.legal import legal_actions

    def lying(game: Game) -> list[Action]:
        return [*legal_actions(game.engine.rules, game.state), Vote(99)]

    # The method the checker calls, not the module function it calls in turn.
    monkeypatch.setattr(Game, "legal", lying)
    with pytest.raises(LegalityError, match="Vote"):
        play_checked(load_bundled("sport"), 1, samples=50)
