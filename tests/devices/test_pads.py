"""The pad debounce/hold state machine, on given times."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from narrator.devices.pads import PadEvent, PadTracker


def run(tracker: PadTracker, edges: list[tuple[float, bool]],
        until: float) -> list[tuple[float, PadEvent]]:
    """Feed edges, polling at every deadline, as the panel does."""
    out: list[tuple[float, PadEvent]] = []
    pending = sorted(edges)
    t = 0.0
    while True:
        d = tracker.deadline(0)
        nxt = pending[0][0] if pending else None
        if d is not None and (nxt is None or d < nxt) and d <= until:
            t = d
            if (e := tracker.poll(0, t)) is not None:
                out.append((t, e))
        elif nxt is not None and nxt <= until:
            t, level = pending.pop(0)
            if (e := tracker.edge(0, level, t)) is not None:
                out.append((t, e))
        else:
            return out


def test_a_clean_tap_is_one_tap_at_the_release() -> None:
    events = run(PadTracker(1), [(1.0, True), (1.2, False)], 5.0)
    assert events == [(1.2, PadEvent.TAP)]


def test_a_chattering_press_and_release_give_exactly_one_tap() -> None:
    edges = [(1.0, True), (1.001, False), (1.002, True), (1.004, False), (1.005, True),
             (1.3, False), (1.301, True), (1.303, False), (1.304, True), (1.306, False)]
    events = run(PadTracker(1, debounce=0.03), edges, 5.0)
    assert [e for _, e in events] == [PadEvent.TAP]
    assert events[0][0] == 1.3


def test_a_glitch_shorter_than_the_debounce_gives_nothing() -> None:
    assert run(PadTracker(1, debounce=0.03), [(1.0, True), (1.002, False)], 5.0) == []


def test_a_long_press_is_one_hold_and_no_tap() -> None:
    events = run(PadTracker(1, hold=1.0), [(2.0, True), (4.5, False)], 10.0)
    assert events == [(3.0, PadEvent.HOLD)]


def test_two_quick_taps_are_two_taps() -> None:
    edges = [(1.0, True), (1.1, False), (1.2, True), (1.3, False)]
    assert [e for _, e in run(PadTracker(1), edges, 5.0)] == [PadEvent.TAP, PadEvent.TAP]


def test_a_press_inside_the_settling_time_counts_from_its_edge() -> None:
    # Released at 1.1, pressed again 10 ms later (inside the 30 ms debounce), held 2 s.
    edges = [(1.0, True), (1.1, False), (1.11, True), (3.5, False)]
    events = run(PadTracker(1, debounce=0.03, hold=1.0), edges, 5.0)
    assert [e for _, e in events] == [PadEvent.TAP, PadEvent.HOLD]
    assert events[0][0] == 1.1
    assert abs(events[1][0] - 2.11) < 1e-9


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0.0005, 0.025), min_size=1, max_size=12),
       st.floats(0.06, 0.9), st.lists(st.floats(0.0005, 0.025), max_size=12))
def test_any_chatter_shorter_than_the_debounce_gives_one_tap(
        press_bounces: list[float], held: float, release_bounces: list[float]) -> None:
    # Bounces at press and release, each burst inside the 30 ms debounce time.
    edges: list[tuple[float, bool]] = []
    t, level = 1.0, True
    for gap in press_bounces:
        if t + gap - 1.0 >= 0.029:
            break
        edges.append((t, level))
        t, level = t + gap, not level
    edges.append((t, True))
    t = 1.0 + 0.03 + held
    start, level = t, False
    for gap in release_bounces:
        if t + gap - start >= 0.029:
            break
        edges.append((t, level))
        t, level = t + gap, not level
    edges.append((t, False))
    events = run(PadTracker(1, debounce=0.03, hold=1.0), edges, 10.0)
    assert [e for _, e in events] == [PadEvent.TAP]
