"""The texts a game under a rule set is likely to say, for rendering ahead at start-up.

Every cue with each value its parameters will probably take: every seat, every vote
count, the rule set's speech lengths, every day of a game. Lists of seats are prepared as
single seats and pairs (ties are mostly two players); longer lists are rendered when said.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, product

from narrator.engine.cues import ENGINE_CUES
from narrator.engine.ruleset import RuleSet
from narrator.phrases.book import ParamValue, PhraseBook


def values(rules: RuleSet, seats: int) -> dict[str, list[ParamValue]]:
    day = rules.day
    seat_list = list(range(1, seats + 1))
    lists: list[ParamValue] = [(s,) for s in seat_list]
    lists += [tuple(pair) for pair in combinations(seat_list, 2)]
    speech = {int(s) for s in (day.speech, day.short_speech, day.tie_speech, day.last_word,
                               day.discussion)}
    return {
        "seat": list(seat_list),
        "seats": lists,
        "votes": list(range(seats + 1)),
        "count": list(range(1, rules.fouls.remove_at + 1)),
        "seconds": sorted(speech | {10, 30}),  # "add thirty seconds", the last ten
        "day": list(range(1, seats // 2 + 2)),
        "role": list(rules.roles),
        "minutes": [max(1, round(day.discussion / 60))],
    }


def cue_ids(rules: RuleSet) -> list[str]:
    """The rule set's own cues first (the night), then the engine's."""
    own = sorted(rules.cue_ids())
    return own + sorted(set(ENGINE_CUES) - set(own))


def likely_texts(book: PhraseBook, rules: RuleSet, seats: int | None = None,
                 cues: Sequence[str] | None = None) -> Iterator[str]:
    n = seats if seats is not None else rules.max_seats
    table = values(rules, n)
    for cue in cues if cues is not None else cue_ids(rules):
        names = sorted(book.params_of(cue))
        choices = [table.get(name, []) for name in names]
        for combo in product(*choices):
            yield book.render(cue, dict(zip(names, combo, strict=True)))
