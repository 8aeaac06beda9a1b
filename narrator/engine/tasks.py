"""The registry of agenda tasks.

A task is a tuple `(name, *args)` of plain values. Its handler's `start` runs when the
task reaches the front of the agenda; it returns True when it opened a window and the
agenda must wait. While that window is open, actions aimed at the moment (taps, votes,
nominations...) go to the handler's `act`; when the window closes, `closed` runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from narrator.engine.actions import Action
from narrator.engine.context import Ctx
from narrator.engine.ruleset import RuleSet
from narrator.engine.state import State, Task
from narrator.errors import RuleError

Start = Callable[[Ctx, Task], bool]
Act = Callable[[Ctx, Task, Action], None]
Closed = Callable[[Ctx, Task], None]


def _no_input(ctx: Ctx, task: Task, action: Action) -> None:
    raise RuleError(f"{action.kind} is not expected now ({task[0]})")


def _nothing(ctx: Ctx, task: Task) -> None:
    return None


@dataclass(frozen=True, slots=True)
class TaskSpec:
    start: Start
    act: Act = _no_input
    closed: Closed = _nothing
    # Which actions `act` may accept: the legal-action query asks this before generating.
    accepts: tuple[str, ...] = ()


TASKS: dict[str, TaskSpec] = {}


def waits_only(ctx: Ctx, t: Task) -> bool:
    """The start of tasks that are only ever the open window's task (ctx.wait names them),
    never queued on the agenda."""
    raise RuleError(f"{t[0]} is not an agenda task")


@dataclass(frozen=True, slots=True)
class Intervention:
    """An action a rule hook takes whatever task holds the window (a judge's verdict in
    the middle of a vote): `act` checks it fully before changing anything; `legal` lists
    the concrete actions of this kind the engine would accept now."""

    act: Callable[[Ctx, Action], None]
    legal: Callable[[RuleSet, State], list[Action]]


# By action kind. Used only when the open task does not accept that kind itself.
INTERVENTIONS: dict[str, Intervention] = {}


def task(name: str, *, act: Act = _no_input, closed: Closed = _nothing,
         accepts: tuple[str, ...] = ()) -> Callable[[Start], Start]:
    def register(start: Start) -> Start:
        TASKS[name] = TaskSpec(start, act, closed, accepts)
        return start

    return register
