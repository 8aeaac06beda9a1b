"""Who plays which round (mafiaratings' rule): every player plays the same number of
games, so players x games must fill whole tables; each round takes the players with the
most games left and the rest sit out it (23 players x 10 games: 11 rounds of 2 tables, then
one of 1). Among players with as many games left, those who sat out fewer rounds sit out
first, so no player sits out twice before everyone has once.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence

from narrator.errors import NarratorError


class SeatingError(NarratorError, ValueError):
    """A field the seating cannot seat (one line saying why, and what would work)."""


def check_field(players: int, games: int, seats: int = 10) -> None:
    """Refuse a field that cannot give every player `games` games at tables of `seats`,
    naming the nearest counts that can."""
    if games < 1:
        raise SeatingError(f"each player needs at least 1 game, not {games}")
    if players < seats:
        raise SeatingError(f"{players} players cannot fill a table of {seats}: at least {seats} are needed")
    if players * games % seats:
        raise SeatingError(
            f"{players} players x {games} games = {players * games} places, not whole tables of "
            f"{seats}: {_nearest_players(players, games, seats)}, "
            f"or {_nearest_games(players, games, seats)} a player"
        )


def _nearest_players(players: int, games: int, seats: int) -> str:
    below = next((p for p in range(players - 1, seats - 1, -1) if p * games % seats == 0), None)
    above = next(p for p in range(players + 1, players + seats + 1) if p * games % seats == 0)
    counts = [f"{p} players" for p in (below, above) if p is not None]
    return " or ".join(counts) + f" for {games} games"


def _nearest_games(players: int, games: int, seats: int) -> str:
    below = next((g for g in range(games - 1, 0, -1) if players * g % seats == 0), None)
    above = next(g for g in range(games + 1, games + seats + 1) if players * g % seats == 0)
    counts = [str(g) for g in (below, above) if g is not None]
    return f"{players} players with " + " or ".join(counts) + " games"


def plan_rounds(
    left: Mapping[int, int],
    tables: int,
    seats: int,
    rng: random.Random,
    sat_out: Mapping[int, int] | None = None,
) -> list[list[int]]:
    """The players of each round until every player's games `left` are played: each round
    as many full tables as it can fill (at most `tables`), of the players with the most
    games left; ties go to those who sat out more (`sat_out`: rounds sat out before), then
    by chance. A round's players come in no particular order."""
    left = {p: g for p, g in left.items() if g > 0}
    sat = {p: (sat_out or {}).get(p, 0) for p in left}
    if sum(left.values()) % seats:
        raise SeatingError(
            f"{len(left)} players have {sum(left.values())} games left: not whole tables of {seats}"
        )
    rounds: list[list[int]] = []
    while left:
        # Ties drawn afresh each round: an order drawn once would sit the same players out
        # together round after round (and, at one table a round, seat the same ten
        # together again: no search can mend that, it has no two tables to swap between).
        order = list(left)
        rng.shuffle(order)
        tie = {p: i for i, p in enumerate(order)}
        k = min(tables, len(left) // seats)
        if k < 1:
            raise SeatingError(
                f"only {len(left)} players have games left ({sum(left.values())} in all): "
                f"fewer than a table of {seats}"
            )
        ranked = sorted(left, key=lambda p: (-left[p], -sat[p], tie[p]))
        playing = ranked[: k * seats]
        for p in ranked[k * seats :]:
            sat[p] += 1
        for p in playing:
            left[p] -= 1
            if not left[p]:
                del left[p]
        rounds.append(playing)
    return rounds


def games_left(
    players: Sequence[int],
    games: int,
    history: Sequence[Sequence[Sequence[int]]],
    fewer: Collection[int] = (),
) -> tuple[dict[int, int], dict[int, int]]:
    """Each present player's games left and rounds sat out, after the rounds already
    played (`history`: [round][table] -> players); `fewer` play one game fewer."""
    played = dict.fromkeys(players, 0)
    sat = dict.fromkeys(players, 0)
    for rnd in history:
        seated = {p for table in rnd for p in table}
        for p in players:
            if p in seated:
                played[p] += 1
            else:
                sat[p] += 1
    over = [p for p in players if played[p] > games]
    if over:
        raise SeatingError(f"player {over[0]} has played {played[over[0]]} games, more than {games}")
    return {p: max(0, games - played[p] - (p in fewer)) for p in players}, sat


def short_of_tables(
    players: Sequence[int], games: int, history: Sequence[Sequence[Sequence[int]]], seats: int = 10
) -> list[int]:
    """The players who play one game fewer so that the games left fill whole tables
    (after a withdrawal or a late arrival): those with the most games left, then the
    later-listed (a late arrival before the others)."""
    left, _sat = games_left(players, games, history)
    extra = sum(left.values()) % seats
    ranked = sorted((p for p in players if left[p] > 0), key=lambda p: (-left[p], -p))
    return ranked[:extra]
