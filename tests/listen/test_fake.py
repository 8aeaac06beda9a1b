from __future__ import annotations

from collections.abc import Iterator

from narrator.clock import FakeClock
from narrator.voice.commands import Command
from narrator.voice.listener import listen
from narrator.voice.mic import MuteGate
from narrator.voice.recognizer import BYTES_PER_SECOND, FakeRecognizer

SECOND = bytes(BYTES_PER_SECOND)


def test_fake_replays_its_script_as_the_stream_passes() -> None:
    script = [Command("pause", at=1.5), Command("nominate", 7, at=0.5), Command("yes", at=9.0)]
    fake = FakeRecognizer(script)
    assert fake.accept(SECOND) == [Command("nominate", 7, at=0.5)]
    assert fake.accept(SECOND) == [Command("pause", at=1.5)]
    assert fake.flush() == [Command("yes", at=9.0)]


def test_nothing_is_heard_while_the_box_speaks() -> None:
    clock = FakeClock()
    gate = MuteGate(clock, tail=0.3)
    script = [Command("pause", at=0.5), Command("resume", at=1.5), Command("undo", at=2.5)]
    fake = FakeRecognizer(script)

    def chunks() -> Iterator[bytes]:
        yield SECOND
        gate.close()  # the box starts a cue
        yield SECOND
        gate.open()
        clock.advance(0.3)
        yield SECOND

    heard = list(listen(fake, chunks(), gate))
    assert [c.command for c in heard] == ["pause", "undo"]
    assert [c.command for c in fake.skipped] == ["resume"]


def test_gate_stays_shut_for_the_tail() -> None:
    clock = FakeClock()
    gate = MuteGate(clock, tail=0.3)
    gate.set(True)
    assert not gate.is_open()
    gate.set(False)
    assert not gate.is_open()
    clock.advance(0.3)
    assert gate.is_open()
