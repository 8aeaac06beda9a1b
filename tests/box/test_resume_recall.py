"""A game resumed after a power cut says its moment's words again: a night step's wake cue
(and the number being called), the speaker, the nominee being voted on; in the game's
language, and the same words whoever holds the role and whether they live."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path

import pytest

from narrator.box.ports import Ports
from narrator.box.referee import Box
from narrator.box.service import Service
from narrator.boxconfig import load_settings
from narrator.clock import FakeClock
from narrator.devices.fake import FakeSeatPanel
from narrator.devices.keypads import FakeKeypad
from narrator.engine.actions import Action
from narrator.engine.deal import deal
from narrator.engine.effects import Effect, OpenWindow, Record, Say, ShowAnswer
from narrator.engine.game import Game
from narrator.engine.recall import recall
from narrator.engine.state import State
from narrator.engine.tasks import AnswerWindow, AskAnswer, CallOut, Speech, VoteOn
from narrator.phrases.book import PhraseBook
from narrator.rules.loader import load_bundled
from narrator.sdnotify import Notifier
from narrator.voice.fake import FakeSpeaker
from tests.box.test_service import seat_players as seat_pads
from tests.records.helpers import Reached, drive, game_at


def in_step(step: str, night: int = 1) -> Callable[[State], bool]:
    def where(st: State) -> bool:
        t = st.current
        return (st.phase == "night" and st.number == night and isinstance(t, CallOut)
                and t.step == step and t.seat >= 3)
    return where


def test_a_night_step_is_called_again_the_same_whoever_holds_the_role() -> None:
    game = game_at("sport", 5, in_step("sheriff_check"))
    rules = game.engine.rules
    st = game.state
    seat = st.current.seat  # type: ignore[union-attr]
    said = recall(rules, st)
    assert said == [Say("sheriff_wake", {}), Say("callout", {"seat": seat})]
    # The same words with the sheriff dead, or blocked: the step is called every night.
    sheriff = next(s for s in range(1, st.seats + 1) if st.roles[s] == "sheriff")
    dead = st.clone()
    dead.alive[sheriff] = False
    assert recall(rules, dead) == said
    blocked = st.clone()
    blocked.visit.blocked = [sheriff]
    assert recall(rules, blocked) == said
    # Another deal at the same moment of the night: the same words again.
    other = game_at("sport", 11, lambda s: in_step("sheriff_check")(s) and s.current == st.current)
    assert recall(rules, other.state) == said


def in_answer(step: str, roles: tuple[str, ...], alive: bool) -> Callable[[State], bool]:
    """In `step`'s answer window, with a holder of `roles` living (or none)."""
    def where(st: State) -> bool:
        t = st.current
        living = any(st.alive[s] and st.roles[s] in roles for s in range(1, st.seats + 1))
        return (st.phase == "night" and isinstance(t, (AskAnswer, AnswerWindow))
                and t.step == step and living == alive)
    return where


def answers(effects: list[Effect]) -> list[Effect]:
    return [e for e in effects if isinstance(e, ShowAnswer)
            or (isinstance(e, Say) and e.cue.startswith("answer_public"))]


CHECKS = [("sport", "don_check"), ("sport", "sheriff_check"), ("club", "sheriff_check"),
          ("classic", "angel_ask"), ("boxed", "commissar_check")]


@pytest.mark.parametrize(("rules", "step"), CHECKS)
@pytest.mark.parametrize("alive", [True, False])
def test_a_cut_in_the_answer_window_shows_that_answer_again(rules: str, step: str,
                                                            alive: bool) -> None:
    """The window reopened after a restart shows what it showed before the cut: the
    answer (said again where answers are public), the same decoy for a dead checker,
    nothing for a window held dark; after the wake cue, before the window opens."""
    rule_set = load_bundled(rules)
    where = in_answer(step, rule_set.step_index[step].roles, alive)
    reached = 0
    for seed in range(1, 13 if not alive else 4):
        shown: list[Effect] = []
        game = Game(rule_set, roles=deal(rule_set, rule_set.min_seats, seed))

        def apply(action: Action, game: Game = game, shown: list[Effect] = shown) -> None:
            effects = game.apply(action)
            if where(game.state):
                shown[:] = effects
                raise Reached

        def state(game: Game = game) -> State:
            return game.state

        with contextlib.suppress(Reached):
            drive(rules, seed, apply, state)
        st = game.state
        if not where(st):
            continue  # the checker lived through this game (or never did)
        reached += 1
        again = recall(game.engine.rules, st)
        wake = rule_set.step_index[step].cue("wake", st.deck, st.number)
        assert again[0] == Say(wake, {})
        assert answers(again) == answers(shown)
        checks = [e for e in shown if isinstance(e, Record) and e.event == "check"]
        shows = [e for e in again if isinstance(e, ShowAnswer)]
        if checks and shows:  # a living checker chose: the real answer, shown again
            assert [(e.answer, e.decoy) for e in shows] == [(checks[0].data["answer"], False)]
        if not alive and not rule_set.answers_public:
            assert shows and all(e.decoy for e in shows)  # a dead checker's decoy
        assert recall(game.engine.rules, st) == again  # the state was not touched
    assert reached >= 1


def test_the_day_says_the_speaker_or_the_nominee_again() -> None:
    game = game_at("sport", 5, lambda st: isinstance(st.current, Speech) and st.number == 1)
    seat = game.state.current.seat  # type: ignore[union-attr]
    cue = [e for e in recall(game.engine.rules, game.state) if isinstance(e, Say)]
    assert [c.cue for c in cue] in (["speaker"], ["speaker_short"])
    assert cue[0].params["seat"] == seat
    game = game_at("sport", 5, lambda st: isinstance(st.current, VoteOn))
    seat = game.state.current.seat  # type: ignore[union-attr]
    assert recall(game.engine.rules, game.state) == [Say("vote_for", {"seat": seat})]


def make_service(tmp_path: Path, clock: FakeClock, lang: str, openings: list[list[Effect]],
                 players: bool = True) -> tuple[Service, FakeSpeaker]:
    settings = load_settings(None, {"state_dir": str(tmp_path / "state"), "game.lang": lang,
                                    "cache_dir": str(tmp_path / "cache"), "keypad": "none"})
    speaker = FakeSpeaker(clock)
    panel = FakeSeatPanel(10, clock)
    keypad = FakeKeypad()
    service = Service(settings, Ports(speaker, panel, [keypad]), clock, Notifier(""))
    service.evening.next()  # the host asks for the game: nothing starts unasked

    def seat_players(box: Box) -> None:
        if players:
            seat_pads(box, panel, keypad, clock)
        box.listeners.append(lambda action, effects: openings.append(effects)
                             if action is None else None)

    service.on_box.append(seat_players)
    return service, speaker


async def _start(service: Service) -> asyncio.Task[None]:
    ready = asyncio.Event()
    service.on_box.append(lambda _box: ready.set())
    task = asyncio.get_running_loop().create_task(service.run(games=1))
    await asyncio.wait_for(ready.wait(), timeout=120)
    return task


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_box_killed_in_the_sheriffs_step_calls_the_sheriff_again(tmp_path: Path,
                                                                   lang: str) -> None:
    async def until_cut() -> CallOut:
        clock = FakeClock()
        service, _ = make_service(tmp_path, clock, lang, [])
        task = await _start(service)
        where = in_step("sheriff_check")
        while service.box is None or not where(service.box.game.state):
            assert await clock.step(), "the game stopped waiting for anything"
        current = service.box.game.state.current
        task.cancel()  # the power cord is kicked
        with pytest.raises(asyncio.CancelledError):
            await task
        assert isinstance(current, CallOut)
        return current

    async def after_restart() -> tuple[list[Effect], list[str]]:
        clock = FakeClock()
        openings: list[list[Effect]] = []
        service, speaker = make_service(tmp_path, clock, lang, openings)
        task = await _start(service)
        for _ in range(400):
            if len(speaker.said) >= 6:
                break
            await clock.step()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return openings[0], [text for _at, text in speaker.said]

    cut = asyncio.run(until_cut())
    opening, said = asyncio.run(after_restart())
    cues = [e for e in opening if isinstance(e, Say)]
    assert [c.cue for c in cues][-3:] == ["status_night", "sheriff_wake", "callout"]
    assert cues[-1].params == {"seat": cut.seat}
    # Said before the window opens again, so its time starts once the table has heard it.
    kinds = [type(e) for e in opening]
    assert kinds.index(OpenWindow) > max(i for i, e in enumerate(opening)
                                         if isinstance(e, Say))
    book = PhraseBook.load(lang).for_rules("sport").for_input("pads")
    status = book.render("status_night", {"day": 1})
    wake = book.render("sheriff_wake")
    assert said[said.index(status) + 1] == wake


def test_a_game_paused_when_the_power_went_stays_paused() -> None:
    """Night zero went wrong too often (nobody tapped): the game is held, paused, until the
    host resumes it. Killed then, it comes back held: the window waits, it doesn't run out
    and start night zero again by itself."""
    import tempfile

    from narrator.engine.tasks import NightZeroHeld

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)

        async def until_held() -> None:
            clock = FakeClock()
            service, _ = make_service(folder, clock, "en", [], players=False)
            task = await _start(service)
            while service.box is None or not isinstance(service.box.game.state.current,
                                                        NightZeroHeld):
                assert await clock.step(), "the game stopped waiting for anything"
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

        async def after_restart() -> tuple[State, list[str]]:
            clock = FakeClock()
            service, speaker = make_service(folder, clock, "en", [], players=False)
            task = await _start(service)
            for _ in range(300):
                if not await clock.step():
                    break
            assert service.box is not None
            state = service.box.game.state
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            return state, [text for _at, text in speaker.said]

        asyncio.run(until_held())
        state, said = asyncio.run(after_restart())
    assert isinstance(state.current, NightZeroHeld) and state.paused
    book = PhraseBook.load("en")
    assert said[-1] == book.render("night_zero_redo"), said
    assert book.render("night_zero") not in said
