"""The protocol builder reads every kind of record the engine writes: one handler per
`RecordEvent`, none missing (a new kind without one would be a KeyError mid-game)."""

from __future__ import annotations

from narrator.engine.effects import Effect, Record
from narrator.engine.state import State
from narrator.engine.words import RecordEvent
from narrator.records import protocol
from narrator.records.protocol import ProtocolBuilder
from narrator.rules.loader import bundled_names, load_bundled
from narrator.sim.selfplay import play


def test_every_record_kind_has_its_handler() -> None:
    assert set(protocol._ON_RECORD) == set(RecordEvent)


def test_the_records_of_played_games_are_of_the_vocabulary_and_are_read() -> None:
    seen: set[str] = set()
    for name in bundled_names():
        rules = load_bundled(name)
        for seed in range(3):
            built = ProtocolBuilder(rules, min(rules.deck))

            def on(_st: State, effects: list[Effect], built: ProtocolBuilder = built) -> None:
                seen.update(e.event for e in effects if isinstance(e, Record))
                built.feed(effects)

            play(rules, seed, seats=min(rules.deck), on_effects=on)
            assert built.over
    assert seen <= set(RecordEvent)
    assert {RecordEvent.DEAL, RecordEvent.NOMINATION, RecordEvent.VOTE, RecordEvent.GAME_OVER} <= seen
