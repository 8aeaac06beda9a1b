"""The last set-up played on this box, kept in the state folder (`evening.json`), so the
next evening (or the box after a restart) offers the same names and fields again.

A missing or unreadable file is no set-up remembered (logged), never a refusal to start:
it is a convenience, not a record. Names are not secret, but the file is private like
the rest of the state folder.

`between-games.json` says the last game here ended (finished or abandoned) and no other
has begun since: a box restarted then waits for the next game to be asked for, as it
does after a game's end, instead of starting one unasked (narrator.box.service).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from narrator.evening.setup import GameSetup, SetupError
from narrator.records.journal import private_dir, write_private

log = logging.getLogger(__name__)

FILE = "evening.json"
ENDED = "between-games.json"
ENDINGS = ("finished", "abandoned")


def remember(state_dir: str | Path, setup: GameSetup) -> None:
    root = Path(state_dir)
    try:  # the folder too: on a card gone read-only even its chmod fails
        text = json.dumps(setup.to_json(), ensure_ascii=False, indent=1) + "\n"
        write_private(private_dir(root) / FILE, text)
    except OSError as exc:
        log.warning("cannot remember the set-up in %s: %s", root / FILE, exc.strerror)


def last_setup(state_dir: str | Path) -> GameSetup | None:
    """The set-up last played here (checked again: a rule set may have changed since)."""
    path = Path(state_dir) / FILE
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return GameSetup.from_json(data, str(path))
    except (OSError, ValueError, SetupError) as exc:
        log.warning("%s: the remembered set-up is not used (%s)", path, exc)
        return None


def remember_end(state_dir: str | Path, how: str) -> None:
    """The game in play has ended (`how`: ENDINGS): the box is between games."""
    root = Path(state_dir)
    try:
        write_private(private_dir(root) / ENDED, json.dumps({"ended": how}) + "\n")
    except OSError as exc:
        log.warning("cannot note the game's end in %s: %s", root / ENDED, exc.strerror)


def forget_end(state_dir: str | Path) -> None:
    """A game has begun: no longer between games."""
    path = Path(state_dir) / ENDED
    try:
        path.unlink(missing_ok=True)
    except OSError as exc:
        log.warning("cannot remove %s: %s", path, exc.strerror)


def last_end(state_dir: str | Path) -> str | None:
    """How the last game here ended (ENDINGS), when no game has begun since; None on a
    box that has not played yet or is in a game (or whose note is unreadable: logged)."""
    path = Path(state_dir) / ENDED
    if not path.is_file():
        return None
    try:
        how = json.loads(path.read_text(encoding="utf-8")).get("ended")
    except (OSError, ValueError, AttributeError) as exc:
        log.warning("%s: unreadable (%s); taken as a game ended", path, exc)
        return "abandoned"
    return how if how in ENDINGS else "abandoned"
