"""A game abandoned before its first day (nobody has played yet: the table was set up
again, another game was asked for) is not listed in the archive as a game played; one
abandoned in the day is, marked abandoned. The record of either is kept."""

from __future__ import annotations

import asyncio
from pathlib import Path

from narrator.engine.deal import deal
from narrator.records.journal import games_dir
from narrator.rules.loader import load_bundled
from narrator.web.archive import played_games
from tests.web.harness import Table

CARDS = deal(load_bundled("sport"), 10, 3)


def test_only_a_game_abandoned_after_its_night_zero_is_in_the_archive(tmp_path: Path) -> None:
    async def main() -> None:
        early = Table(tmp_path, game_id="early", roles=CARDS, seed=3)
        await early.until(lambda: early.state.windows > 2)
        assert early.state.phase == "night" and early.state.number == 0
        early.session.abandon()
        await early.box.stop()
        late = Table(tmp_path, game_id="late", roles=CARDS, seed=3)
        await late.until(lambda: late.state.phase == "day")
        late.session.abandon()
        await late.box.stop()

    asyncio.run(main())
    listed = played_games(tmp_path)
    assert [(p.game_id, p.abandoned) for p in listed] == [("late", True)]
    kept = sorted(p.name for p in games_dir(tmp_path).glob("*.jsonl"))
    assert len(kept) == 2 and any("early" in name for name in kept)  # nothing lost
