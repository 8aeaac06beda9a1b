"""A command that people also open sentences with ("yes", "no", "thank you") is held a
moment after it is heard: "yes, that is exactly my point" pauses at its comma (0.1-0.35 s
in the bench's voices) for about as long as the recognizer waits before it ends an
utterance, so the "yes" alone looks whole. Held, it is given only when the next
`wait` seconds bring nothing as loud as the command itself (within `quiet_db` of its
peak: the same voice talking on); babble and the room's reverberation are quieter. The
other commands are not sentence openers and cost no wait (BENCHMARKS.md, "Listen").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from narrator.voice.commands import Command
from narrator.voice.speech_levels import levels


@dataclass
class _Held:
    command: Command
    floor: float  # dB: sound from here up is the voice talking on
    until: float  # stream seconds
    after: bytearray = field(default_factory=bytearray)  # the audio since


class OpenerHold:
    def __init__(self, openers: frozenset[str], wait: float, quiet_db: float) -> None:
        self.openers = openers
        self.wait = wait
        self.quiet_db = quiet_db
        self._held: list[_Held] = []
        self._due = False  # the stream was cut (skip): give what is held unchecked
        self.refused = 0  # openers that turned out to start longer talk (bench, tests)

    def put(self, command: Command, peak: float, now: float) -> Command | None:
        """`command`, heard with its loudest level `peak` (dB) at stream second `now`:
        given back at once, or held (None)."""
        if self.wait <= 0 or command.text not in self.openers:
            return command
        self._held.append(_Held(command, peak - self.quiet_db, now + self.wait))
        return None

    def hear(self, chunk: bytes, now: float) -> list[Command]:
        """The audio that came after what is held, up to stream second `now`: the held
        commands it proved to be commands (nothing loud came in their wait)."""
        if self._due:
            return self.release()
        out: list[Command] = []
        kept: list[_Held] = []
        for held in self._held:
            held.after += chunk
            level = levels(held.after)
            if len(level) and level.max() >= held.floor:
                self.refused += 1  # the sentence went on
            elif now >= held.until:
                out.append(held.command)
            else:
                kept.append(held)
        self._held = kept
        return out

    def cut(self) -> None:
        """The stream was cut (the box spoke over it): nothing more to wait for."""
        self._due = bool(self._held)

    def release(self) -> list[Command]:
        """Everything held, now (the stream ended)."""
        out = [held.command for held in self._held]
        self._held = []
        self._due = False
        return out
