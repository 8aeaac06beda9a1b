"""Roles that change sides: a boxed turncoat plays as a civilian until the rest of the
mafia is in jail.

«становится Мафиози только после того, как Ведущий объявляет, что всю остальную мафию
арестовали»; «пока Ведущий не объявит, что вся мафия в тюрьме». A role with `turns_into`
(on that role's team for the win from the start) becomes that role when every other
player of the team has been *jailed*: left by the day's vote, the all-or-none vote or a
verdict, each showing the card as it left. A team mate who left any other way (killed at
night, removed by the host) is not in jail, and then nobody turns in that game.

That is also what keeps the announcement from leaking: whether the rest of the mafia is
in jail follows from the cards shown in the day and the deck announced before the game,
which the whole table knows. A night death shows no card, so it never triggers (nor
withholds) the announcement: the morning after the serial killer kills the last
mafioso says nothing more than any other morning. The table is told (`team_out`, once)
after the jailing that completes it, once the game is known to go on, whether or not
the turncoat still lives (saying it only for a living one would tell its fate).
"""

from __future__ import annotations

from narrator.engine.context import Ctx

# How a player leaves for jail, the card shown (narrator.engine.voting, verdict).
JAILED = ("vote", "lifted", "judged")


def turn(ctx: Ctx, seat: int, how: str) -> None:
    """After every elimination (the registry's `on_elimination`): does anyone turn?"""
    st = ctx.state
    roles = ctx.rules.roles
    turners = [r for r in st.deck if roles[r].turns_into]
    if not turners or how not in JAILED or not all(st.roles[1:]):
        return  # nobody can turn in this game, not a jailing, or roles not learned yet
    for card in turners:
        into = roles[card].turns_into
        assert into is not None
        team = roles[into].team
        rest = [o for o in range(1, st.seats + 1)
                if ctx.role(o).team == team and dealt_card(ctx, o) != card]
        if any(st.alive[o] or st.gone[o] not in JAILED for o in rest):
            continue
        if "team_out" not in st.turncoat.said_news:
            st.turncoat.said_news.append("team_out")
            st.news.append("team_out")
        for s in st.living():
            if st.roles[s] == card:
                st.roles[s] = into
                st.turncoat.turned.append(s)
                ctx.record("turned", secret=True, seat=s, role=into, phase=st.phase_label())


def dealt_card(ctx: Ctx, seat: int) -> str:
    """The card this player was dealt (a turned turncoat still holds the turncoat's)."""
    st = ctx.state
    if seat in st.turncoat.turned:
        for name, role in ctx.rules.roles.items():
            if role.turns_into == st.roles[seat] and st.deck.get(name):
                return name
    return st.roles[seat]
