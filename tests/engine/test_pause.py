"""A paused game is halted (the organiser's evening trial: during a pause "next speaker",
nominations and the vote still went ahead). The rule documents have no pause of their own;
what stops a club's game is the host, and while the host has it stopped nobody's turn ends
and nobody nominates or votes. So, while paused in the day, the engine refuses every action
that moves the game on, and legal() no longer offers them; the host's corrections (foul,
its taking back, removal, forfeit, added time) and the resume stay. At night the timers
stop the call-out: a tap at the number being called still counts, since refusing it would
lose a shot or a check its player believes given, and nothing at night may tell them."""

from __future__ import annotations

import pytest

from narrator.engine.actions import (
    AddTime,
    EndSpeech,
    Foul,
    Nominate,
    Pause,
    Resume,
    StartVoting,
    Tap,
    Unfoul,
    Vote,
    WindowClosed,
)
from narrator.engine.game import Game
from narrator.engine.legal import legal_actions
from narrator.engine.state import State
from narrator.engine.tasks import CallOut, Speech, VoteOn
from narrator.errors import RuleError
from tests.records.helpers import game_at


def speaking(st: State) -> bool:
    return st.phase == "day" and isinstance(st.current, Speech) and st.speaker > 0 \
        and not st.nominated


def voting(st: State) -> bool:
    return st.phase == "day" and isinstance(st.current, VoteOn)


def kinds(game: Game) -> set[str]:
    return {a.kind for a in legal_actions(game.engine.rules, game.state)}


@pytest.mark.parametrize("rules", ["sport", "club"])
def test_a_paused_day_refuses_what_moves_it_on(rules: str) -> None:
    game = game_at(rules, 3, speaking)
    assert {"end_speech", "nominate"} <= kinds(game)
    game.apply(Pause())
    target = next(s for s in game.state.living() if s != game.state.speaker)
    for action in (EndSpeech(), Nominate(target)):
        before = game.state.to_json()
        with pytest.raises(RuleError, match="paused"):
            game.apply(action)
        assert game.state.to_json() == before  # refused: nothing changed
    assert not {"end_speech", "nominate", "withdraw", "start_voting", "vote"} & kinds(game)
    # The host's corrections stay.
    assert {"foul", "remove", "resume", "add_time"} <= kinds(game)
    seat = game.state.speaker
    game.apply(Foul(seat))
    game.apply(Unfoul(seat))
    game.apply(AddTime(30))
    game.apply(Resume())
    game.apply(Nominate(target))  # on again once resumed
    game.apply(EndSpeech())


def test_a_paused_vote_takes_no_votes_and_no_start() -> None:
    game = game_at("sport", 3, voting)
    voter = game.state.living()[0]
    game.apply(Pause())
    for action in (Vote(voter), StartVoting()):
        with pytest.raises(RuleError):
            game.apply(action)
    assert "vote" not in kinds(game)
    clean = next(s for s in game.state.living() if not game.state.fouls[s])
    game.apply(Foul(clean))  # a correction, still taken
    game.apply(Resume())
    assert "vote" in kinds(game)


def test_the_box_timer_still_closes_a_window_during_a_pause() -> None:
    # A window that ran out just as the pause came: its close arrives after the pause and
    # must still be taken, or the moment would never end.
    game = game_at("sport", 3, speaking)
    game.apply(Pause())
    window = game.state.window
    assert WindowClosed(window) in legal_actions(game.engine.rules, game.state)
    game.apply(WindowClosed(window))


def test_a_paused_night_still_counts_the_tap_at_the_number_called() -> None:
    def checking(st: State) -> bool:
        t = st.current
        return st.phase == "night" and isinstance(t, CallOut) and t.step == "sheriff_check" \
            and st.alive[st.roles.index("sheriff")]

    game = game_at("sport", 3, checking)
    game.apply(Pause())
    sheriff = game.state.roles.index("sheriff")
    assert Tap(sheriff) in legal_actions(game.engine.rules, game.state)
    game.apply(Tap(sheriff))  # taken, as without the pause: no refusal may tell anyone
