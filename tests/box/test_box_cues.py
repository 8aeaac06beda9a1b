"""The box's own cues exist in both phrase books with the same parameters, and a resumed
game is described by public facts only."""

from __future__ import annotations

import pytest

from narrator.box.status import BOX_CUES, where_we_are
from narrator.engine.deal import deal
from narrator.engine.game import Game
from narrator.engine.tasks import Speech
from narrator.phrases.book import PhraseBook
from narrator.rules.loader import load_bundled


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_box_cue_has_a_text_with_its_parameters(lang: str) -> None:
    book = PhraseBook.load(lang)
    for cue, params in BOX_CUES.items():
        assert book.params_of(cue) == frozenset(params), cue
        values = {p: 3 for p in params}
        assert book.render(cue, values).strip()


def test_where_we_are_names_only_public_facts() -> None:
    rules = load_bundled("sport")
    game = Game(rules, 10, 1, deal(rules, 10, 1))
    assert where_we_are(game.state).cue == "status_night"
    while not isinstance(game.state.current, Speech):
        game.apply(game.legal()[0])
    say = where_we_are(game.state)
    assert say.cue == "status_speaker"
    assert say.params == {"day": 1, "seat": game.state.current.seat}
