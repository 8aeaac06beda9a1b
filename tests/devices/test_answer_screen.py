"""The keypad's screen shows a check's answer where the box has no answer LEDs (DESIGN.md
invariant 3), for exactly the answer's time, then wipes it; a peeker sees the same
on-screen activity whether the checker is alive or dead (issue 13's rule for the answer
LEDs). The terminal keypad's screen is a real pseudo-terminal here: the answer is one
line drawn in place and wiped, never a newline, so nothing stays in the scrollback."""

from __future__ import annotations

import asyncio
import logging
import os
import select

from narrator.box.build import build
from narrator.box.performer import Performer
from narrator.box.session import Unrecorded
from narrator.box.windows import WindowTimers
from narrator.clock import FakeClock
from narrator.devices.display import (
    WIDTH,
    WIPE,
    AnswerTimer,
    FakeDisplay,
    Shown,
    TerminalDisplay,
    answer_text,
)
from narrator.devices.keypads import TerminalKeypad
from narrator.engine.actions import Entry, Remove
from narrator.engine.effects import ShowAnswer
from narrator.engine.game import Game
from narrator.engine.tasks import CallOut
from narrator.phrases.book import PhraseBook
from narrator.rules.loader import load_bundled
from narrator.voice.fake import FakeSpeaker

SPORT = ("civilian", "mafia", "sheriff", "mafia", "civilian", "civilian", "don",
         "civilian", "civilian", "civilian")
SHERIFF = 3


def night_one(remove: int, check: int | None, lang: str = "en") -> tuple[list[Shown], list[str]]:
    """A sport game on a box without a seat panel, its answers on a keypad's screen, to the
    end of night 1: `remove` leaves on day 1; the sheriff (if alive) types `check`.
    Returns what the screen showed in night 1 (times from the night's start) and every
    text said."""
    clock = FakeClock()

    async def main() -> tuple[list[Shown], list[str]]:
        game = Game(load_bundled("sport"), 10, 3, SPORT)
        speaker = FakeSpeaker(clock)
        screen = FakeDisplay(clock)
        book = PhraseBook.load(lang).for_rules("sport").for_input("keypad").for_answers("screen")
        box = build(Unrecorded(game), speaker, book, clock, displays=[screen])
        timers = box.performer.timers
        box.start(list(game.opening))
        removed = typed = False
        night_start: float | None = None
        for _ in range(100_000):
            st = game.state
            if st.phase == "day" and st.number == 1 and not removed and st.current is not None \
                    and box.performer.idle:
                removed = True
                box.handle(Remove(remove), "keypad")
            if st.phase_label() == "night-1" and night_start is None:
                night_start = clock.now()
            if check and not typed and isinstance(st.current, CallOut) \
                    and st.current.step == "sheriff_check" and timers.is_open(st.window):
                typed = True
                box.handle(Entry(check), "keypad")
            if box.performer.phase == "day-2":
                break
            await clock.step()
        await box.stop()
        assert night_start is not None
        shown = [Shown(s.text, round(s.at - night_start, 3),
                       None if s.until is None else round(s.until - night_start, 3))
                 for s in screen.shown if s.at >= night_start]
        return shown, [t for _a, t in speaker.said]

    return asyncio.run(main())


def activity(shown: list[Shown]) -> list[tuple[float, float | None]]:
    """What a peeker sees of the screen: a line comes and goes, and when."""
    return [(s.at, s.until) for s in shown]


def test_the_screen_shows_the_answer_for_its_time_and_the_same_whoever_is_alive() -> None:
    alive, said = night_one(remove=5, check=2)
    dead, _ = night_one(remove=SHERIFF, check=None)
    rules = load_bundled("sport")
    seconds = {s.id: s.answer for s in rules.night}
    assert len(alive) == 2  # the don's window (a decoy: he chose nothing), the sheriff's
    assert alive[1].text == "answer: YES"  # seat 2 is mafia
    assert [round(s.until - s.at, 3) for s in alive if s.until is not None] == \
        [seconds["don_check"], seconds["sheriff_check"]]
    assert activity(alive) == activity(dead)  # the same moments, the same lengths
    assert all(s.text in ("answer: YES", "answer: NO") for s in alive + dead)
    assert not any(t.startswith("The check of player") for t in said)  # never spoken


def test_the_screen_speaks_the_game_s_language() -> None:
    shown, _ = night_one(remove=5, check=4, lang="ru")
    assert shown[1].text == "ответ: ДА"
    assert answer_text("ru", "no", 0) == "ответ: НЕТ"
    assert answer_text("en", "count", 2) == "answer: heard: 2"
    card = PhraseBook.load("ru").for_rules("boxed").role_name("mafia")
    assert answer_text("ru", "mafia", 3, card) == f"ответ: {card}"


def test_a_card_answer_shows_its_human_name() -> None:
    clock = FakeClock()
    screen = FakeDisplay(clock)

    async def main() -> None:
        timers = WindowTimers(clock, on_expire=lambda _w: None)
        performer = Performer(FakeSpeaker(clock), PhraseBook.load("en").for_rules("boxed"), timers,
                              displays=[screen])
        performer.start()
        performer.submit([ShowAnswer("mafia", 4.0, 2)])
        await clock.step()
        assert screen.current == f"answer: {PhraseBook.load('en').for_rules('boxed').role_name('mafia')}"
        clock.advance(4.0)
        await clock.step()
        assert screen.current == ""
        await performer.stop()

    asyncio.run(main())


def test_the_terminal_keypad_draws_the_answer_in_place_and_wipes_it() -> None:
    master, slave = os.openpty()
    stream = os.fdopen(slave, "r", closefd=False)
    log = logging.getLogger("test.answer_screen")
    log.propagate = False
    handler = logging.StreamHandler(os.fdopen(os.dup(slave), "w"))
    log.addHandler(handler)

    def screen_output() -> bytes:
        out = b""
        while select.select([master], [], [], 0)[0]:
            out += os.read(master, 4096)
        return out

    async def main() -> tuple[bytes, bytes, bytes]:
        clock = FakeClock()
        keypad = TerminalKeypad(stream)
        assert keypad.terminal is not None and keypad.display is keypad.terminal
        keypad.terminal.guard(log)
        timer = AnswerTimer(clock, [keypad.terminal])
        timer.show("answer: NO", 5.0)
        drawn = screen_output()
        log.warning("a log line while the answer is up")
        around_log = screen_output()
        clock.advance(4.9)
        await clock.step()
        assert keypad.terminal.shown  # still up at 4.9 s
        clock.advance(0.1)
        await clock.step()
        wiped = screen_output()
        keypad.close()
        return drawn, around_log, wiped

    try:
        drawn, around_log, wiped = asyncio.run(main())
    finally:
        log.removeHandler(handler)
        handler.close()
        stream.close()
        os.close(slave)
        os.close(master)
    wipe = WIPE.encode()
    assert drawn.startswith(wipe) and b"answer: NO" in drawn and b"\n" not in drawn
    # The log line goes above: the answer's line is wiped first and drawn again below it.
    text = b"a log line while the answer is up"
    assert around_log.index(wipe) < around_log.index(text) < around_log.rindex(b"answer: NO")
    assert b"answer: NO" not in around_log[:around_log.index(text)]
    assert wiped == wipe  # after exactly its time: erased in place, nothing else


def test_a_terminal_keypad_on_a_pipe_has_no_screen() -> None:
    read, write = os.pipe()
    try:
        with os.fdopen(read, "r", closefd=False) as stream:
            assert TerminalKeypad(stream).display is None  # an answer must never reach a file
    finally:
        os.close(read)
        os.close(write)


def test_the_checkers_are_told_where_the_answer_shows() -> None:
    for lang, screen in (("en", "keypad's screen"), ("ru", "экран клавиатуры")):
        book = PhraseBook.load(lang)
        for cue in ("angel_wake", "boxed_commissar_wake"):
            # Where the box shows answers decides the words, whatever the players type on.
            for method in ("pads", "keypad", "both"):
                on_screen = book.for_input(method).for_answers("screen").render(cue)
                assert screen in on_screen and "light" not in on_screen
                assert "индикатор" not in on_screen
                assert screen not in book.for_input(method).render(cue)  # the answer light


def test_every_answer_takes_the_same_width_on_the_terminal() -> None:
    import io

    widths = set()
    for text in ("answer: YES", "answer: NO", "ответ: ДА", "ответ: НЕТ", "answer: heard: 2"):
        display = TerminalDisplay(io.StringIO())
        display.show(text)
        widths.add(len(display.shown))
        display.wipe()
        assert display.shown == "" and display.out.getvalue().endswith(WIPE)  # type: ignore[attr-defined]
    assert widths == {WIDTH}  # a glance at the bar's length tells nothing
