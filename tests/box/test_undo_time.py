"""An undo gives the game back as it was, its time too, and says only that it took
something back (found by a stranger at the table: seat 1 had 21 s left, a foul to seat 3
was taken back, and the timer jumped to 0:50 with "Player number one, your minute" again).

A box on a virtual clock with its journal: every undoable day action is taken back in a
speech and the speech's timer is read before and after; the next speaker, the vote, a
pause and a restart from the journal are undone the same way."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from narrator.clock import FakeClock
from narrator.daemon import Box
from narrator.engine.actions import (
    Action,
    AddTime,
    EndSpeech,
    Foul,
    Nominate,
    Pause,
    Resume,
    StartVoting,
    Undo,
    Unfoul,
    Vote,
    Withdraw,
)
from narrator.engine.deal import deal
from narrator.engine.state import State
from narrator.engine.tasks import Speech, VoteOn
from narrator.performer import Performer
from narrator.phrases.book import PhraseBook
from narrator.records.journal import GameHeader
from narrator.records.session import GameSession
from narrator.rules.loader import load_bundled
from narrator.voice.fake import FakeSpeaker
from narrator.windows import WindowTimers


class Played:
    """A journalled sport game played by a Box on a FakeClock, and started again from its
    journal on the same clock (`restart`)."""

    def __init__(self, state_dir: Path, rules: str = "sport") -> None:
        self.state_dir = state_dir
        self.clock = FakeClock()
        header = GameHeader(rules=rules, seats=10, seed=3, roles=tuple(deal(load_bundled(rules), 10, 3)),
                            game_id="g1", started="2025-01-01T20:00:00", input="keypad")
        session, opening = GameSession.start(state_dir, header, wall=lambda: 1.7e9)
        self.box = self._box(session, opening)

    def _box(self, session: GameSession, opening: list[Any]) -> Box:
        boxes: list[Box] = []
        self.speaker = FakeSpeaker(self.clock)
        timers = WindowTimers(self.clock, on_expire=lambda w: boxes[0].window_expired(w))
        box = Box(session, Performer(self.speaker, PhraseBook.load("en"), timers), self.clock)
        boxes.append(box)
        box.start(opening)
        return box

    async def restart(self) -> None:
        await self.box.stop()
        self.box.session.journal.close()  # type: ignore[attr-defined]
        resumed = GameSession.resume(self.state_dir, wall=lambda: 1.7e9)
        assert resumed is not None
        self.box = self._box(*resumed)

    @property
    def st(self) -> State:
        return self.box.game.state

    def left(self) -> float | None:
        return self.box.performer.timers.remaining(self.st.window)

    def running(self) -> bool:
        return bool(self.st.window) and self.box.performer.timers.is_open(self.st.window)

    async def until(self, done: Callable[[], bool], limit: int = 20_000) -> None:
        """Move the clock until `done` holds: to the next deadline, a second at most (a
        timer's time left is read to the second)."""
        clock = self.clock
        for _ in range(limit):
            for _ in range(20):
                await asyncio.sleep(0)
            if done():
                return
            deadline = clock.next_deadline()
            if deadline is None:
                raise AssertionError(f"the game stopped at {self.st.phase_label()}")
            clock.set(min(deadline, clock.now() + 1.0))
        raise AssertionError("the game did not get there")

    async def idle(self) -> None:
        """Whatever the last action said is said (its timer, if any, may run on)."""
        await asyncio.sleep(0)
        await self.until(lambda: self.box.performer.idle)

    async def at_left(self, seconds: float) -> None:
        """The speech's timer has `seconds` left (to a beat)."""
        await self.until(lambda: self.running() and (self.left() or 99) <= seconds)

    def said_since(self, mark: int) -> list[str]:
        return [text for _at, text in self.speaker.said[mark:]]

    async def undo_of(self, action: Action) -> list[str]:
        """Apply `action`, let its words be said, undo it: what the undo said."""
        self.box.apply_now(action)
        await self.idle()
        mark = len(self.speaker.said)
        self.box.apply_now(Undo())
        await self.idle()
        return self.said_since(mark)


def play(tmp: Path, body: Callable[[Played], Coroutine[Any, Any, None]], rules: str = "sport") -> None:
    async def main() -> None:
        table = Played(tmp, rules)
        try:
            await body(table)
        finally:
            await table.box.stop()

    asyncio.run(main())


def first_speech(t: Played) -> Callable[[], bool]:
    return lambda: t.st.phase == "day" and isinstance(t.st.current, Speech) and t.running()


def test_an_undo_in_a_speech_leaves_its_time_and_says_only_taken_back(tmp_path: Path) -> None:
    async def body(t: Played) -> None:
        await t.until(first_speech(t))
        speaker, window = t.st.speaker, t.st.window
        await t.at_left(45)
        for action in (Foul(3), Nominate(5), AddTime(30), Pause(), Withdraw()):
            if isinstance(action, Withdraw):
                t.box.apply_now(Nominate(6))  # a nomination to withdraw
                await t.idle()
            before = t.st.to_json()
            left, since = t.left(), t.clock.now()
            assert left is not None
            said = await t.undo_of(action)
            assert said == ["Taken back."], (action, said)
            assert t.st.to_json() == before, action
            # The same speech, on the same timer: the time it had, less the time that ran
            # while the box said the action and "taken back", never the speech's start again.
            assert t.st.window == window and t.st.speaker == speaker
            assert t.running() and not t.box.performer.timers.paused, action
            now = t.left()
            assert now is not None, action
            if isinstance(action, Pause):  # its time stood still until the undo
                assert left - 3 < now < left, (action, left, now)
            else:
                assert abs(now - (left - (t.clock.now() - since))) < 0.01, (action, left, now)
        # Fouls taken back one at a time: an unfoul, then its undo.
        t.box.apply_now(Foul(4))
        await t.idle()
        left, since = t.left() or 0, t.clock.now()
        assert await t.undo_of(Unfoul(4)) == ["Taken back."] and t.st.fouls[4] == 1
        assert abs((t.left() or 0) - (left - (t.clock.now() - since))) < 0.01

    play(tmp_path, body)


def test_an_undo_across_a_pause_keeps_the_game_paused_and_its_time(tmp_path: Path) -> None:
    async def body(t: Played) -> None:
        await t.until(first_speech(t))
        await t.at_left(30)
        t.box.apply_now(Pause())
        await t.idle()
        timers = t.box.performer.timers
        left = t.left()
        assert timers.paused and left is not None
        # A foul given and taken back during the pause: still paused, not a second gone.
        assert await t.undo_of(Foul(2)) == ["Taken back."]
        assert t.st.paused and timers.paused and t.left() == left
        # The resume taken back: paused again with the same time.
        assert await t.undo_of(Resume()) == ["Taken back."]
        assert t.st.paused and timers.paused and t.left() == left
        # The pause itself taken back: the speech runs on from there.
        mark = len(t.speaker.said)
        t.box.apply_now(Undo())
        await t.idle()
        assert t.said_since(mark) == ["Taken back."]
        assert not t.st.paused and not timers.paused and t.running()
        assert left - 3 < (t.left() or 0) <= left

    play(tmp_path, body)


def test_the_next_speaker_undone_gives_the_speaker_back_the_time_they_had(tmp_path: Path) -> None:
    async def body(t: Played) -> None:
        await t.until(first_speech(t))
        first = t.st.speaker
        await t.at_left(21)
        left = t.left()
        assert left is not None
        t.box.apply_now(EndSpeech())
        await t.until(lambda: t.running() and t.st.speaker != first)
        await t.until(lambda: (t.left() or 99) < 40)  # the next speaker has talked a while
        mark = len(t.speaker.said)
        t.box.apply_now(Undo())
        await t.idle()
        assert t.st.speaker == first and t.running()
        # 21 s of this part and the 10 s warning's part: "you have 31 seconds".
        assert t.said_since(mark) == ["Taken back.", "Player number one, you have thirty-one seconds."]
        assert left - 4 < (t.left() or 0) <= left

    play(tmp_path, body)


def test_the_vote_undone_gives_the_last_speech_back(tmp_path: Path) -> None:
    # Across a change of the day's moment: from the speeches to the vote, and a hand in it.
    async def body(t: Played) -> None:
        await t.until(first_speech(t))
        t.box.apply_now(Nominate(7))
        await t.until(lambda: t.st.speaker != 1 and t.running())
        t.box.apply_now(Nominate(8))  # two nominees: the first day votes
        await t.idle()
        await t.at_left(21)
        left = t.left() or 0
        speaker = t.st.speaker
        t.box.apply_now(StartVoting())
        await t.until(lambda: isinstance(t.st.current, VoteOn) and t.box.performer.idle)
        ballot = t.st.window
        hand = next(s for s in t.st.living() if s not in (7, 8))
        assert await t.undo_of(Vote(hand)) == ["Taken back."]
        assert t.st.window == ballot and isinstance(t.st.current, VoteOn)
        mark = len(t.speaker.said)
        t.box.apply_now(Undo())
        await t.idle()
        assert isinstance(t.st.current, Speech) and t.st.speaker == speaker and t.running()
        assert t.said_since(mark) == ["Taken back.",
                                      "Player number two, you have thirty-one seconds."]
        assert left - 4 < (t.left() or 0) <= left

    play(tmp_path, body)


def test_an_undo_after_a_restart_from_the_journal(tmp_path: Path) -> None:
    async def body(t: Played) -> None:
        await t.until(first_speech(t))
        first = t.st.speaker
        await t.at_left(21)
        left = t.left() or 0
        t.box.apply_now(EndSpeech())
        await t.until(lambda: t.running() and t.st.speaker != first)
        t.box.apply_now(Foul(5))
        await t.idle()
        await t.restart()  # the power went: the second speech opens again
        await t.until(lambda: t.running() and t.box.performer.idle)
        second = t.left() or 0
        # The foul (before the cut) taken back: the second speech keeps its time.
        mark = len(t.speaker.said)
        t.box.apply_now(Undo())
        await t.idle()
        assert t.said_since(mark) == ["Taken back."] and t.st.fouls[5] == 0
        assert second - 3 < (t.left() or 0) <= second
        # The next speaker (before the cut) taken back: the first speaker's 21 s, from the
        # journal.
        mark = len(t.speaker.said)
        t.box.apply_now(Undo())
        await t.idle()
        assert t.st.speaker == first
        assert t.said_since(mark) == ["Taken back.", "Player number one, you have thirty-one seconds."]
        assert left - 4 < (t.left() or 0) <= left

    play(tmp_path, body)
