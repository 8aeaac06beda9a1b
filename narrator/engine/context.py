"""The working context of one engine step: the rules, the state, and the effects so far.

Task handlers and rule hooks receive a Ctx and use its helpers to speak, open windows,
light seats and take players out, so every effect is built in one place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from narrator.engine.effects import (
    Effect,
    Eliminated,
    GameOver,
    OpenWindow,
    Outcome,
    Param,
    Record,
    Say,
    SeatLights,
    Sound,
)
from narrator.engine.ruleset import Role, RuleSet
from narrator.engine.state import State, Task
from narrator.errors import RuleError


@dataclass(slots=True)
class Ctx:
    rules: RuleSet
    state: State
    out: list[Effect] = field(default_factory=list)

    # speech and sound
    def say(self, cue: str, **params: Param) -> None:
        self.out.append(Say(cue, params))
        # Tuples in params become lists in the state's JSON form; Repeat turns them back.
        self.state.last_say = [cue, params]

    def sound(self, name: str) -> None:
        self.out.append(Sound(name))

    def record(self, event: str, secret: bool = False, **data: Any) -> None:
        self.out.append(Record(event, data, secret))

    # windows
    def open_window(self, purpose: str, seconds: float, seat: int | None = None) -> None:
        st = self.state
        st.windows += 1
        st.window = st.windows
        st.open = [purpose, seconds, seat or 0]
        self.out.append(OpenWindow(st.window, purpose, seconds, seat))

    def wait(self, task: Task, purpose: str, seconds: float, seat: int | None = None) -> bool:
        """Open a window for `task` and stop the agenda until it closes. Returns True."""
        self.state.current = task
        self.open_window(purpose, seconds, seat)
        return True

    def push(self, *tasks: Task) -> None:
        """Put tasks at the front of the agenda, in the given order."""
        self.state.agenda[0:0] = list(tasks)

    # lights
    def day_lights(self, on: tuple[int, ...] = (), blink: tuple[int, ...] = ()) -> None:
        alive = self.state.alive
        dim = tuple([s for s in range(1, len(alive)) if not alive[s]])
        self.out.append(SeatLights(on, blink, dim))

    def dark(self) -> None:
        self.out.append(SeatLights())

    # players
    def role(self, seat: int) -> Role:
        return self.rules.roles[self.state.roles[seat]]

    def require_alive(self, seat: int, what: str = "seat") -> None:
        st = self.state
        if not isinstance(seat, int) or not 1 <= seat <= st.seats:
            raise RuleError(f"{what} {seat!r} is not a seat at this table (1-{st.seats})")
        if not st.alive[seat]:
            raise RuleError(f"{what} {seat} is out of the game")

    def eliminate(self, seat: int, how: str, phase: str | None = None,
                  number: int | None = None) -> None:
        st = self.state
        if not st.alive[seat]:
            return
        st.alive[seat] = False
        st.gone[seat] = how
        phase = phase or st.phase
        number = st.number if number is None else number
        st.eliminations.append([seat, how, phase, number])
        self.out.append(Eliminated(seat, how, phase, number))
        for hook in _on_elimination:
            hook(self, seat, how)

    def check_win(self) -> bool:
        """Run the rule set's win checks; end the game if one of them holds."""
        from narrator.engine.wins import WINS

        for name in self.rules.win:
            verdict = WINS[name](self)
            if verdict is not None:
                self.game_over(Outcome(*verdict))
                return True
        return False

    def game_over(self, outcome: Outcome) -> None:
        st = self.state
        st.phase = "over"
        st.outcome = [outcome.reason, outcome.winner]
        st.agenda = []
        st.current = None
        st.window = 0
        self.day_lights()
        self.sound("chime")
        self.say(f"win_{outcome.winner or 'draw'}")
        self.record("game_over", reason=outcome.reason, winner=outcome.winner)
        self.record("roles", secret=True, roles=st.roles[1:])
        self.out.append(GameOver(outcome))


# Rule hooks that must hear of every elimination (a lover's guest dies with her...).
_on_elimination: list[Callable[[Ctx, int, str], None]] = []


def on_elimination(hook: Callable[[Ctx, int, str], None]) -> Callable[[Ctx, int, str], None]:
    _on_elimination.append(hook)
    return hook
