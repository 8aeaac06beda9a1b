"""The box's own deal: the rule set's deck for a table, shuffled by a seed (a phone-dealt
game, the demo's cards, self-play)."""

from __future__ import annotations

from narrator.engine.rng import Rng
from narrator.engine.ruleset import RuleSet


def deal(rules: RuleSet, seats: int, seed: int) -> list[str]:
    """The rule set's deck for this many seats, shuffled by the seed (Fisher-Yates on the
    engine's own generator, so a seed deals the same cards on every machine)."""
    roles = [role for role, n in sorted(rules.deck_for(seats).items()) for _ in range(n)]
    rng = Rng(seed)
    for i in range(len(roles) - 1, 0, -1):
        j = rng.below(i + 1)
        roles[i], roles[j] = roles[j], roles[i]
    return roles
