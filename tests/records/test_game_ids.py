"""Two games started in the same second get different ids, so neither's protocol files
overwrite the other's."""

from __future__ import annotations

from pathlib import Path

from narrator.records.journal import GameHeader
from narrator.records.session import GameSession


def test_games_started_in_one_second_keep_their_own_files(tmp_path: Path) -> None:
    ids = []
    for _ in range(3):
        session, _opening = GameSession.start(tmp_path, GameHeader("sport", 10),
                                              wall=lambda: 1_800_000_000.0)
        ids.append(session.header.game_id)
        session.abandon()
    assert len(set(ids)) == 3
    assert len(list((tmp_path / "protocols").glob("*.html"))) == 3
