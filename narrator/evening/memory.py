"""The last set-up played on this box, kept in the state folder (`evening.json`), so the
next evening (or the box after a restart) offers the same names and fields again.

A missing or unreadable file is no set-up remembered (logged), never a refusal to start:
it is a convenience, not a record. Names are not secret, but the file is private like
the rest of the state folder.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from narrator.evening.setup import GameSetup, SetupError
from narrator.records.journal import private_dir, write_private

log = logging.getLogger(__name__)

FILE = "evening.json"


def remember(state_dir: str | Path, setup: GameSetup) -> None:
    root = private_dir(Path(state_dir))
    try:
        write_private(root / FILE, json.dumps(setup.to_json(), ensure_ascii=False, indent=1) + "\n")
    except OSError as exc:
        log.warning("cannot remember the set-up in %s: %s", root / FILE, exc.strerror)


def recall(state_dir: str | Path) -> GameSetup | None:
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
