"""The first game's set-up at start-up, and whether an unfinished game waits to resume."""

from __future__ import annotations

from types import MappingProxyType

from narrator.box.memory import last_setup
from narrator.boxconfig import Settings
from narrator.evening import GameSetup


def initial_setup(settings: Settings, names: tuple[str, ...] = ()) -> GameSetup:
    """The first game's set-up: the config's rule set, table, language and settings; the
    names given, else the ones remembered on this box when they fit the table."""
    game = settings.game
    seats = game.seats or (len(names) if names else settings.seats)
    if not names:
        last = last_setup(settings.state_dir)
        if last is not None and len(last.names) == seats:
            names = last.names
    # The config's rule set, resolved as it was read: checked for this table, not read again.
    return GameSetup(rules=game.rules, seats=seats, lang=game.lang, names=names,
                     settings=MappingProxyType(dict(game.settings)), configured=game.configured)


def unfinished_game(settings: Settings) -> bool:
    """An unfinished game's journal waits in the state folder (resumed on start)."""
    from narrator.records.journal import CURRENT, journal_dir

    return (journal_dir(settings.state_dir) / CURRENT).is_file()
