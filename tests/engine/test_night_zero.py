"""Night zero that can't go wrong: a meeting with the wrong taps is called again the same
way (the same cues, the same windows as any call), the holders see the count of seats heard
on the answer display, a seat already learned can't be learned again for another role, the
keypad can stand in for the pads, and after too many wrong calls night zero is redone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from narrator.engine.actions import Action, Entry, Resume, Tap, WindowClosed
from narrator.engine.effects import Effect, OpenWindow, PauseTimers, Say, ShowAnswer
from narrator.engine.game import Game
from narrator.engine.tasks import MeetCount, NightInput, NightZeroHeld
from narrator.errors import RuleError
from narrator.rules.loader import load_bundled
from narrator.rules.settings import configure

# sport, seed 0 in these tests: the cards are the players', the box learns them.
MAFIA, DON, SHERIFF = (2, 4), 7, 3


def _close(g: Game) -> list[Effect]:
    return g.apply(WindowClosed(g.state.window))


def _until_input(g: Game, step: str) -> list[Effect]:
    """Let windows run out until `step`'s input window is open; the effects on the way."""
    out: list[Effect] = []
    for _ in range(200):
        cur = g.state.current
        if isinstance(cur, NightInput) and cur.step == step:
            return out
        out += _close(g)
    raise AssertionError(f"never reached {step}")


def _call(g: Game, step: str, taps: list[Action]) -> list[dict[str, Any]]:
    """One call of a meeting: from its wake cue to the next wake cue (or the end of the
    step), as the table perceives it: cues, windows and whether an answer is shown."""
    seen: list[Effect] = []
    for action in taps:
        assert g.apply(action) == []  # no sound, no light answers a tap
    seen += _close(g)  # the meeting's window
    while isinstance(g.state.current, MeetCount):
        seen += _close(g)
    return [_perceived(e) for e in seen]


def _perceived(e: Effect) -> dict[str, Any]:
    if isinstance(e, ShowAnswer):
        return {"kind": "show_answer", "seconds": e.seconds}  # seen only by open eyes
    if isinstance(e, OpenWindow):
        return {"kind": "open_window", "purpose": e.purpose, "seconds": e.seconds}
    return e.to_json()



def _don_and_sheriff_meet(g: Game, act: Callable[[int], Action]) -> None:
    """The rest of night zero: the don and the sheriff show themselves (on pads or keypad)."""
    _until_input(g, "don_meet")
    g.apply(act(DON))
    _close(g)
    _until_input(g, "sheriff_meet")
    g.apply(act(SHERIFF))
    while g.state.phase == "night":
        _close(g)

def test_a_civilian_tapping_in_the_mafia_meeting_gets_the_call_repeated_and_learned_right() -> None:
    g = Game(load_bundled("sport"), 10, 0)
    # The mafia meet first: the game's opening ends with their wake cue and window.
    first = [_perceived(e) for e in g.opening][-2:]
    assert first == [{"kind": "say", "cue": "mafia_meet", "params": {}},
                     {"kind": "open_window", "purpose": "night", "seconds": 60.0}]
    normal_window = g.state.open
    wrong = _call(g, "mafia_meet", [Tap(2), Tap(4), Tap(5), Tap(7)])  # 5 is a civilian
    # The call is repeated: the wake cue again, the same window.
    assert isinstance(g.state.current, NightInput) and g.state.current.step == "mafia_meet"
    assert g.state.open == normal_window
    right = _call(g, "mafia_meet", [Tap(2), Tap(4), Tap(7)])
    assert isinstance(g.state.current, NightInput) and g.state.current.step == "don_meet"
    # What the table hears and sees is the same, call for call: the count on the answer
    # display for its fixed time, the sleep cue; then the repeat is the first call again.
    assert wrong[:3] == right[:3]
    assert [e["kind"] for e in wrong[:3]] == ["show_answer", "open_window", "say"]
    assert wrong[2]["cue"] == "mafia_sleep"
    assert wrong[3:] == first
    # The count shown: 4 heard, then 3.
    assert g.state.roles == [""] * 11  # nothing certain yet but the mafia's team
    _don_and_sheriff_meet(g, Tap)
    assert g.state.roles[1:] == ["civilian", "mafia", "sheriff", "mafia", "civilian",
                                 "civilian", "don", "civilian", "civilian", "civilian"]


def test_the_answer_display_shows_the_count_heard_for_the_same_time_at_every_call() -> None:
    g = Game(load_bundled("sport"), 10, 0)
    _until_input(g, "mafia_meet")
    for taps, shown in (([Tap(2), Tap(9)], ("count", 2)), ([], ("no", 0)),
                        ([Tap(2), Tap(4), Tap(7)], ("count", 3))):
        for tap in taps:
            g.apply(tap)
        effects = _close(g)
        answers = [e for e in effects if isinstance(e, ShowAnswer)]
        assert [(a.answer, a.code) for a in answers] == [shown]
        assert answers[0].seconds == g.engine.rules.meet_count_seconds
        assert not any(isinstance(e, Say) for e in effects)  # no sound with the answer
        _until_input(g, "mafia_meet" if shown[1] != 3 else "don_meet")


def test_a_seat_learned_for_one_role_tapping_for_another_gets_the_call_repeated() -> None:
    g = Game(load_bundled("sport"), 10, 0)
    _until_input(g, "mafia_meet")
    _call(g, "mafia_meet", [Tap(2), Tap(4), Tap(7)])
    _until_input(g, "don_meet")
    _call(g, "don_meet", [Tap(DON)])
    _until_input(g, "sheriff_meet")
    # Seat 2 is learned black: its tap for the sheriff is wrong, whatever the count.
    _call(g, "sheriff_meet", [Tap(2)])
    assert isinstance(g.state.current, NightInput) and g.state.current.step == "sheriff_meet"
    _call(g, "sheriff_meet", [Tap(SHERIFF)])
    assert g.state.possible[SHERIFF] == ("sheriff",)


def test_holders_may_type_their_own_seats_on_the_keypad() -> None:
    g = Game(load_bundled("sport"), 10, 0)
    _until_input(g, "mafia_meet")
    before = g.state.to_json()
    for bad in (11, 99):
        with pytest.raises(RuleError):
            g.apply(Entry(bad))  # no such seat: refused, nothing changes (and nothing said)
    assert g.state.to_json() == before
    g.apply(Entry(2))
    g.apply(Tap(4))  # pads and keypad mix
    g.apply(Entry(7))
    g.apply(Entry(7))  # typed twice: the same seat
    _close(g)
    _don_and_sheriff_meet(g, Entry)
    assert g.state.roles[DON] == "don" and g.state.roles[SHERIFF] == "sheriff"
    assert g.state.roles[2] == g.state.roles[4] == "mafia"


def test_after_too_many_wrong_calls_the_game_waits_and_night_zero_is_played_again() -> None:
    rules = configure(load_bundled("sport"), {"meet_calls": 2})
    g = Game(rules, 10, 0)
    _until_input(g, "mafia_meet")
    _call(g, "mafia_meet", [Tap(2)])
    _call(g, "mafia_meet", [Tap(2)])
    # The second wrong call's count and sleep cue, then the game is held.
    st = g.state
    assert isinstance(st.current, NightZeroHeld)
    assert st.paused and st.night_zero.redo_night_zero
    assert st.roles == [""] * 11 and st.night_zero.meet_calls == 0
    with pytest.raises(RuleError):
        g.apply(Tap(3))  # nothing is taken while held
    effects: list[Effect] = g.apply(Resume())
    assert not g.state.paused
    effects += _close(g)  # the held window runs out once resumed
    assert not g.state.night_zero.redo_night_zero
    said = [e.cue for e in effects if isinstance(e, Say)]
    assert said[:2] == ["resumed", "night_zero"]
    assert not any(isinstance(e, PauseTimers) for e in effects)
    _until_input(g, "mafia_meet")
    _call(g, "mafia_meet", [Tap(2), Tap(4), Tap(7)])
    assert isinstance(g.state.current, NightInput) and g.state.current.step == "don_meet"


def test_the_held_game_is_announced_once_paused() -> None:
    rules = configure(load_bundled("sport"), {"meet_calls": 1})
    g = Game(rules, 10, 0)
    _until_input(g, "mafia_meet")
    effects = _close(g)  # nobody tapped: wrong at once
    while not isinstance(g.state.current, NightZeroHeld):
        effects += _close(g)
    kinds = [e.kind for e in effects]
    assert kinds.index("pause_timers") < kinds.index("open_window", kinds.index("pause_timers"))
    assert [e.cue for e in effects if isinstance(e, Say)][-1] == "night_zero_redo"
