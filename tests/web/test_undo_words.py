"""What the page's undo question names when the last action closed a day's window: the
moment by its name and the seat by the task's own field (never a field's position)."""

from __future__ import annotations

import pytest

from narrator.engine.actions import WindowClosed
from narrator.engine.game import Game
from narrator.engine.tasks import Conviction, Revote, Speech, Task, VoteOn
from narrator.rules.loader import load_bundled
from narrator.web.actions import describe
from narrator.web.text import text


@pytest.mark.parametrize(("task", "words"), [
    (Speech(4), "the end of speech of seat 4"),
    (Speech(6, final=True), "the end of speech of seat 6"),
    (VoteOn(7), "the end of ballot of seat 7"),
    (Conviction(5), "the end of conviction of seat 5"),
    (Revote((3, 7)), "the end of revote"),
])
def test_a_closed_window_is_named_by_its_task(task: Task, words: str) -> None:
    state = Game(load_bundled("sport"), 10, seed=1).state.clone()
    state.current = task
    t = text("en")
    said = describe(t, WindowClosed(1), state)
    moment = t.moment(task.name) or task.name
    assert said == words.replace(task.name, moment, 1)
