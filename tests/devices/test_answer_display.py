"""The answer LEDs light the same whether the checker is alive or dead (issue 13).

A sport night is played twice on gpiozero mock pins and a fake clock: once with the
sheriff removed on day 1 (dead: nobody can read his answer), once with him alive and
checking. The answer LEDs' timeline as a peeker sees it (when a light comes on, for how
long) is the same; only which of the two lights carries the answer, which for a dead
sheriff is a decoy drawn from the game's seeded random source.
"""

from __future__ import annotations

import asyncio
from typing import Any

from narrator.clock import FakeClock
from narrator.devices.gpio import GpioSeatPanel
from narrator.devices.pinmap import load_pin_map
from narrator.engine.actions import Remove, Tap, WindowClosed
from narrator.engine.effects import CloseWindow, OpenWindow, ShowAnswer
from narrator.engine.game import Game
from narrator.engine.tasks import CallOut
from narrator.rules.loader import load_bundled
from tests.devices.helpers import settle

MAP = load_pin_map()
ROLES = ["civilian", "mafia", "sheriff", "mafia", "civilian", "civilian", "don",
         "civilian", "civilian", "civilian"]
SHERIFF = 3
Timeline = list[tuple[float, float, float]]  # (seconds into night 1, green, red levels)


def night_one(factory: Any, remove: int, check: int | None) -> tuple[Timeline, list[ShowAnswer]]:
    """Play to the end of night 1 with `remove` voted out on day 1; the sheriff (if
    alive) checks `check`. Returns the answer pins' changes during night 1."""
    async def main() -> tuple[Timeline, list[ShowAnswer]]:
        clock = FakeClock()
        game = Game(load_bundled("sport"), len(ROLES), 7, ROLES)
        panel = GpioSeatPanel(MAP, pin_factory=factory, clock=clock)
        panel.start(lambda _action: None)
        windows: dict[int, float] = {}  # open window -> when it runs out
        shown: list[ShowAnswer] = []
        timeline: Timeline = []
        night_start: float | None = None

        def pins() -> tuple[int, int]:
            return factory.pin(MAP.answer_yes).state, factory.pin(MAP.answer_no).state

        def record() -> None:
            if night_start is None:
                return
            now = (round(clock.now() - night_start, 3), *pins())
            if not timeline or timeline[-1][1:] != now[1:]:
                timeline.append(now)

        def carry_out(effects: list[Any]) -> None:
            for e in effects:
                if isinstance(e, OpenWindow):
                    windows[e.window] = clock.now() + e.seconds
                elif isinstance(e, CloseWindow):
                    windows.pop(e.window, None)
                elif isinstance(e, ShowAnswer) and night_start is not None:
                    shown.append(e)
                    panel.show_answer(e.answer, e.seconds, e.code)
            record()

        await settle()
        carry_out(game.opening)
        removed = False
        while not (game.state.phase == "day" and game.state.number == 2):
            st = game.state
            if st.phase == "day" and not removed and st.current is not None:
                removed = True
                carry_out(game.apply(Remove(remove)))
                continue
            if st.phase_label() == "night-1" and night_start is None:
                night_start = clock.now()
                record()
            task = st.current
            if (check and isinstance(task, CallOut) and task.step == "sheriff_check"
                    and task.seat == check):
                assert game.apply(Tap(SHERIFF)) == []
            window, end = min(windows.items(), key=lambda kv: kv[1])
            # Time runs to the window's end through every light change on the way.
            while (nxt := clock.next_deadline()) is not None and nxt <= end:
                clock.set(nxt)
                await settle()
                record()
            clock.set(end)
            await settle()
            del windows[window]
            carry_out(game.apply(WindowClosed(window)))
        panel.close()
        return timeline, shown

    return asyncio.run(main())


def peeker_view(timeline: Timeline) -> list[tuple[float, bool]]:
    """What the peeker can tell apart: an answer light on or off, and when."""
    view: list[tuple[float, bool]] = []
    for at, green, red in timeline:
        lit = bool(green or red)
        if not view or view[-1][1] != lit:
            view.append((at, lit))
    return view


def test_answer_lights_are_the_same_with_the_sheriff_dead_or_alive(factory: Any) -> None:
    dead, dead_shown = night_one(factory, remove=SHERIFF, check=None)
    factory.reset()
    alive, alive_shown = night_one(factory, remove=5, check=2)
    assert [a.decoy for a in alive_shown] == [True, False]  # the don did not check; the sheriff did
    assert [a.decoy for a in dead_shown] == [True, True]
    assert not alive_shown[1].decoy and alive_shown[1].answer == "yes"  # seat 2 is mafia
    # The same moments, the same lengths, one light at a time: the peeker learns nothing.
    assert peeker_view(dead) == peeker_view(alive)
    lit = [(a, b) for a, b in zip(peeker_view(alive), peeker_view(alive)[1:], strict=False) if a[1]]
    assert [round(off[0] - on[0], 3) for on, off in lit] == [5.0, 5.0]
    assert all(not (green and red) for _at, green, red in dead + alive)


def test_a_living_checker_who_chose_nothing_also_sees_a_decoy(factory: Any) -> None:
    """He knows he did not ask, so the decoy misleads nobody; the peeker sees the same."""
    quiet, quiet_shown = night_one(factory, remove=5, check=None)
    factory.reset()
    dead, _ = night_one(factory, remove=SHERIFF, check=None)
    assert all(a.decoy for a in quiet_shown) and len(quiet_shown) == 2
    assert peeker_view(quiet) == peeker_view(dead)
