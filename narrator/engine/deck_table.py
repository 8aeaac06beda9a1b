"""The boxed booklet's deck table: a deck built from counts by seats and the special roles a
club picks (a rule set's `setup:`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from narrator.engine.rule_sections import Role


@dataclass(frozen=True, slots=True)
class Setup:
    """A deck built from a table of counts by seats, some of whose columns are groups of
    special roles a club picks (the boxed booklet: "Вы сами выбираете, какие роли оставить
    в игре"). `table[seats]` counts roles and groups; `choice` are the picks the box plays
    when the club names none (from the largest key not above the seats); `filler` fills
    the rest when the table is not followed, `counted` is the role whose number
    `mafiosi` then sets. `players_extra` is how many players the table counts besides the
    seats (the boxed table counts the host). `roles`, `follow_table` and `mafiosi` are
    settings."""

    table: Mapping[int, Mapping[str, int]]
    groups: Mapping[str, tuple[str, ...]]
    choice: Mapping[int, tuple[str, ...]]
    filler: str
    counted: str
    players_extra: int = 0
    roles: tuple[str, ...] = ()
    follow_table: bool = True
    mafiosi: int = 0

    def picks(self, seats: int) -> tuple[str, ...]:
        if self.roles:
            return self.roles
        keys = [k for k in self.choice if k <= seats]
        return self.choice[max(keys)] if keys else ()

    def _counted_default(self, seats: int, row: Mapping[str, int], picks: tuple[str, ...],
                         roles: Mapping[str, Role]) -> int:
        """`counted` cards when the club names no number: the table's, and beyond its
        last row the booklet's proportion («мирных… примерно в 2 раза больше, чем
        преступников»): a third of the players are criminals, the special ones picked
        among them (the table's own rows from 15 seats follow it too)."""
        if seats in self.table:
            return row.get(self.counted, 0)
        town = roles[self.filler].team
        criminals = sum(1 for r in picks if roles[r].team != town)
        return max(1, round(seats / 3) - criminals)

    def deck(self, seats: int, name: str, roles: Mapping[str, Role]) -> dict[str, int]:
        """This table's deck in the rule set `name` of these roles, or ValueError saying which
        setting breaks which rule."""
        low, top = min(self.table), max(self.table)
        besides = " besides the host" if self.players_extra else ""
        if seats < low:
            raise ValueError(f"{name} is played by {low} or more players{besides}")
        if seats > top and self.follow_table:
            # The table's last row is a limit of the table, not of the game («Играть можно
            # и большим составом»): a club that does not follow it plays larger tables.
            raise ValueError(f"setup.follow_table: the table goes up to {top} players{besides}; "
                             f"a larger game needs setup.follow_table false")
        picks = self.picks(seats)
        special = {r for members in self.groups.values() for r in members}
        seen: set[str] = set()
        for role in picks:
            if role not in special:
                raise ValueError(f"setup.roles: {role!r} is not a special role of {name}")
            if role in seen:
                raise ValueError(f"setup.roles: {role} is named twice")
            seen.add(role)
            clash = [o for o in roles[role].excludes if o in picks]
            if clash:
                raise ValueError(f"setup.roles: {role} and {clash[0]} never play together")
        row = self.table[min(seats, top)]
        players = seats + self.players_extra
        where = f"the table's row for {players} players" + (
            f" ({seats} seats and the host)" if self.players_extra == 1 else "")
        deck: dict[str, int] = {}
        if self.follow_table:
            for group, members in self.groups.items():
                chosen = sum(1 for r in picks if r in members)
                if chosen != row.get(group, 0):
                    raise ValueError(f"setup.roles: {group.replace('_', ' ')}: {chosen} named, "
                                     f"{row.get(group, 0)} in {where}")
            if self.mafiosi and self.mafiosi != row.get(self.counted, 0):
                raise ValueError(f"setup.mafiosi: {where} has {row.get(self.counted, 0)} "
                                 f"{self.counted}, not {self.mafiosi}")
            for role, n in row.items():
                if role not in self.groups and n:
                    deck[role] = n
        else:
            for role, n in row.items():
                if role not in self.groups and role != self.filler and n:
                    deck[role] = n
            deck[self.counted] = self.mafiosi or self._counted_default(seats, row, picks, roles)
            left = seats - sum(deck.values()) - len(picks)
            if left < 1:
                raise ValueError(f"setup.roles: no {self.filler} left for {seats} seats, and "
                                 f"every game has one")
            deck[self.filler] = left
        for role in picks:
            deck[role] = 1
        return deck
