"""The rule set's bounds that a game's numbers keep, whoever gives them: the extra points a
box gives after a game (checked when it is delivered) and the organiser's corrections."""

from __future__ import annotations

from collections.abc import Mapping

from narrator.engine.ruleset import RuleSet
from narrator.tournament.language import Why


def extra_in_bounds(rules: RuleSet, seats: int, extra: Mapping[int, float]) -> None:
    """Why unless each seat's extra points are a real seat's and in the scoring's range."""
    scoring = rules.scoring
    low, high = scoring.extra if scoring is not None else (0.0, 0.0)
    for seat, value in extra.items():
        if not 1 <= seat <= seats:
            raise Why("seat_range", seat=seat, seats=seats)
        if not low <= value <= high:
            raise Why("extra_range", seat=seat, low=f"{low:g}", high=f"{high:g}", value=f"{value:g}")
