from __future__ import annotations

from narrator.clock import FakeClock
from narrator.voice.command_confirm import Act, Answer, Ask, Confirmer, Drop
from narrator.voice.commands import Command

FOUL = Command("foul", 3)
YES, NO = Command("yes"), Command("no")


def test_foul_waits_for_yes() -> None:
    clock = FakeClock(100.0)
    c = Confirmer(clock, seconds=5.0)
    assert c.hear(FOUL) == [Ask(FOUL, 105.0)]
    clock.advance(4.9)
    assert c.hear(YES) == [Act(FOUL)]
    assert c.pending is None


def test_no_or_timeout_drops_it() -> None:
    clock = FakeClock()
    c = Confirmer(clock, seconds=5.0)
    c.hear(Command("undo"))
    assert c.hear(NO) == [Drop(Command("undo"), "no")]
    c.hear(FOUL)
    clock.advance(5.0)
    assert c.tick() == [Drop(FOUL, "timeout")]
    c.hear(FOUL)
    clock.advance(6.0)
    # A late "yes" finds the command gone; it is just an answer to nothing pending.
    assert c.hear(YES) == [Drop(FOUL, "timeout"), Answer(YES)]


def test_keypad_key_confirms_and_others_act_at_once() -> None:
    clock = FakeClock()
    c = Confirmer(clock)
    assert c.key() == []
    c.hear(FOUL)
    assert c.hear(Command("pause")) == [Act(Command("pause"))]
    assert c.pending == FOUL  # still waiting
    assert c.key() == [Act(FOUL)]
    c.hear(FOUL)
    other = Command("foul", 4)
    assert c.hear(other) == [Drop(FOUL, "replaced"), Ask(other, clock.now() + c.seconds)]


def test_game_changing_commands_wait_and_the_rest_act_at_once() -> None:
    clock = FakeClock()
    c = Confirmer(clock)
    for command in (Command("nominate", 7), Command("foul", 2), Command("remove", 4),
                    Command("undo"), Command("abandon")):
        assert c.hear(command) == [Ask(command, clock.now() + c.seconds)]
        assert c.hear(YES) == [Act(command)]
    for command in (Command("next_speaker"), Command("pause"), Command("resume"),
                    Command("repeat"), Command("add_time", seconds=30),
                    Command("start_voting")):
        assert c.hear(command) == [Act(command)]
