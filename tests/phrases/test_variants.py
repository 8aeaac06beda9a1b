"""The texts rendered ahead for a rule set."""

from __future__ import annotations

from narrator.engine.cues import ENGINE_CUES
from narrator.phrases.book import PhraseBook
from narrator.phrases.variants import cue_ids, likely_texts
from narrator.rules.loader import load_bundled


def test_sport_texts_cover_every_cue_and_seat() -> None:
    sport = load_bundled("sport")
    book = PhraseBook.load("en")
    texts = list(likely_texts(book, sport))
    assert len(texts) == len(set(texts))
    ids = cue_ids(sport)
    assert set(ids) == set(ENGINE_CUES) | sport.cue_ids()
    assert ids[: len(sport.cue_ids())] == sorted(sport.cue_ids())  # the night comes first
    assert texts[0] == book.render(ids[0], {})
    for expected in ["Mafia, go to sleep.", "ten", "Player number ten: ten votes.",
                     "Player number three, you have thirty seconds.",
                     "A tie between players number three and seven.", "Good morning. Day six."]:
        assert expected in texts
    assert "Player number eleven, your minute." not in texts


def test_a_chosen_subset_in_russian() -> None:
    texts = list(likely_texts(PhraseBook.load("ru"), load_bundled("sport"), seats=3,
                              cues=["vote_count"]))
    assert len(texts) == 3 * 4
    assert "Игрок номер два: три голоса." in texts
