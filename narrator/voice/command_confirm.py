"""Confirmation of destructive voice commands (foul, undo): a small pure state machine.

The box repeats the command and waits `seconds` for "yes" (or a keypad key); "no", the
deadline passing, or another destructive command drops it. Time comes from the Clock
port; the daemon calls `tick()` whenever it likes (a timer, or before each event).
"""

from __future__ import annotations

from dataclasses import dataclass

from narrator.clock import Clock
from narrator.voice.commands import ANSWERS, DESTRUCTIVE, Command

CONFIRM_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class Act:
    """Carry the command out now."""

    command: Command


@dataclass(frozen=True, slots=True)
class Ask:
    """Repeat the command to the table and wait for a "yes" until `deadline`."""

    command: Command
    deadline: float


@dataclass(frozen=True, slots=True)
class Drop:
    """The pending command is not carried out: reason "no", "timeout" or "replaced"."""

    command: Command
    reason: str


@dataclass(frozen=True, slots=True)
class Answer:
    """A "yes" or "no" with nothing pending: an answer to some other question."""

    command: Command


Decision = Act | Ask | Drop | Answer


class Confirmer:
    def __init__(self, clock: Clock, seconds: float = CONFIRM_SECONDS,
                 destructive: frozenset[str] = DESTRUCTIVE) -> None:
        self.clock = clock
        self.seconds = seconds
        self.destructive = destructive
        self.pending: Command | None = None
        self.deadline: float | None = None

    def hear(self, command: Command) -> list[Decision]:
        out = self.tick()
        if command.command in self.destructive:
            if self.pending is not None:
                out.append(Drop(self.pending, "replaced"))
            self.pending = command
            self.deadline = self.clock.now() + self.seconds
            out.append(Ask(command, self.deadline))
        elif command.command in ANSWERS:
            if self.pending is None:
                out.append(Answer(command))
            elif command.command == "yes":
                out.append(Act(self._take()))
            else:
                out.append(Drop(self._take(), "no"))
        else:
            out.append(Act(command))
        return out

    def key(self) -> list[Decision]:
        """The keypad's confirm key: like "yes", but only for a pending command."""
        out = self.tick()
        if self.pending is not None:
            out.append(Act(self._take()))
        return out

    def cancel(self) -> None:
        """Forget the pending command (the box refused it before asking)."""
        self.pending = None
        self.deadline = None

    def tick(self) -> list[Decision]:
        if self.pending is not None and self.deadline is not None \
                and self.clock.now() >= self.deadline:
            return [Drop(self._take(), "timeout")]
        return []

    def _take(self) -> Command:
        command = self.pending
        assert command is not None
        self.pending = None
        self.deadline = None
        return command
