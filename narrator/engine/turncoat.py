"""Roles that change sides: a boxed turncoat plays as a civilian until the rest of the
mafia is gone.

A role with `turns_into` (on that role's team for the win from the start) becomes that
role the moment no other living player of the team is left, however they left (jailed,
killed, removed). From then on it is checked and called as that role. The table is told
in public, as the booklet's host says it («вся мафия в тюрьме»): the `team_out` cue, once,
after the win check, whether or not the turncoat still lives (saying it only for a
living one would tell the table the turncoat's fate).
"""

from __future__ import annotations

from narrator.engine.context import Ctx


def turn(ctx: Ctx, seat: int, how: str) -> None:
    """After every elimination (the registry's `on_elimination`): does anyone turn?"""
    st = ctx.state
    roles = ctx.rules.roles
    turners = [r for r in st.deck if roles[r].turns_into]
    if not turners or not all(st.roles[1:]):
        return  # nobody can turn in this game, or roles not learned yet (night zero)
    for card in turners:
        into = roles[card].turns_into
        assert into is not None
        team = roles[into].team
        rest = [o for o in st.living() if ctx.role(o).team == team and st.roles[o] != card]
        if rest:
            continue
        if "team_out" not in st.said_news:
            st.said_news.append("team_out")
            st.news.append("team_out")
        for s in st.living():
            if st.roles[s] == card:
                st.roles[s] = into
                st.turned.append(s)
                ctx.record("turned", secret=True, seat=s, role=into, phase=st.phase_label())


def dealt_card(ctx: Ctx, seat: int) -> str:
    """The card this player was dealt (a turned turncoat still holds the turncoat's)."""
    st = ctx.state
    if seat in st.turned:
        for name, role in ctx.rules.roles.items():
            if role.turns_into == st.roles[seat] and st.deck.get(name):
                return name
    return st.roles[seat]
