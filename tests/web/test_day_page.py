"""The whole day from the organiser's page, one-handed on a phone (real headless Chromium at
412 x 915): a 10-seat sport game set up on the page, its nights given on the keypad by
simulated players, its days run by the page alone: nominations by tapping seat tiles
(and "who nominates whom"), fouls from the bar, hands raised and lowered on the tiles,
the count, the next speaker, pause and resume as one button, +30 s, the best move; to
the result and the protocol sheet.

On the box's virtual clock: a ballot the page counts outlasts its rule-set seconds and
waits for "Count". Each page is saved as a screenshot under `<tmp>/shots/`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from narrator.daemon import Box
from narrator.engine.state import State
from narrator.engine.tasks import LastWord, Speech, VoteOn
from narrator.engine.voting import counted_by_hand
from narrator.records.session import GameSession
from tests.web.browser import chromium, wait_for
from tests.web.evening_box import EveningBox
from tests.web.test_browser import (
    NAMES,
    assert_no_role_text,
    body_text,
    fill_setup,
    in_view,
    seat_fouls,
    shoot,
    sign_in,
)

LONG_NAME = "Maximiliana Konstantinopolskaya"


@pytest.fixture
def evening(tmp_path: Path) -> Iterator[EveningBox]:
    box = EveningBox(tmp_path, night_keypad=True)
    try:
        yield box
    finally:
        box.close()


def tap_tile(driver: WebDriver, seat: int) -> None:
    """A tap on a seat tile, scrolled to mid-screen first as a thumb would (the bar covers
    the screen's foot)."""
    tile = driver.find_element(By.CSS_SELECTOR, f'#live li.seat[data-seat="{seat}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", tile)
    tile.click()


def press(driver: WebDriver, selector: str) -> None:
    """A button of the corrections below the tiles, scrolled to mid-screen first."""
    button = driver.find_element(By.CSS_SELECTOR, selector)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()


def bar(driver: WebDriver, kind: str) -> None:
    button = driver.find_element(By.CSS_SELECTOR, f'.daybar button[data-kind="{kind}"]')
    assert in_view(driver, f'.daybar button[data-kind="{kind}"]'), f"{kind} is off the screen"
    button.click()


def done(driver: WebDriver) -> None:
    """The page's last action was taken ("Done.", not a refusal); the message is cleared
    for the next one."""
    said = wait_for(driver, lambda d: d.find_element(By.ID, "result").text)
    assert said == "Done.", said
    driver.execute_script("document.getElementById('result').textContent = ''")


def above_the_bar(driver: WebDriver, selector: str) -> bool:
    """The element is on the screen and the bar at its foot covers none of it."""
    return bool(driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "const bar = document.querySelector('.daybar').getBoundingClientRect();"
        "return r.height > 0 && r.top >= 0 && r.bottom <= bar.top;", selector))


class Day:
    """The test's side of the box: what is open now, read from the box's own state."""

    def __init__(self, evening: EveningBox, box: Box) -> None:
        self.evening = evening
        self.box = box
        self.acted = 0  # the last window the page acted in

    @property
    def st(self) -> State:
        return self.box.game.state

    def ready(self) -> bool:
        """A day window the page has not acted in is open and the box is done saying its
        cue (a counted ballot has no timer: the box has called it when it is idle); or the
        game is over."""
        st = self.st
        if st.phase == "over":
            return True
        if st.phase != "day" or not st.window or st.window == self.acted:
            return False
        performer = self.box.performer
        if counted_by_hand(st):
            return performer.idle
        return performer.timers.is_open(st.window)

    def next(self) -> None:
        self.evening.until(self.ready)
        self.acted = self.st.window


def test_a_sport_game_with_its_days_run_from_the_page(evening: EveningBox, tmp_path: Path) -> None:
    with chromium(tmp_path / "profile") as driver:
        sign_in(driver, evening.url)
        fill_setup(driver)
        name = driver.find_element(By.NAME, "name4")
        name.clear()
        name.send_keys(LONG_NAME)
        Select(driver.find_element(By.NAME, "input")).select_by_value("keypad")
        shoot(driver, tmp_path, "setup")
        driver.find_element(By.CSS_SELECTOR, "#setup button[type=submit]").click()

        def started() -> bool:
            box = evening.box
            return box is not None and isinstance(box.session, GameSession) \
                and box.session.header.names[:1] == (NAMES[0],)

        evening.until(started)
        box = evening.box
        assert box is not None and box.game.state.hand_count  # no pads: every ballot is counted
        wait_for(driver, lambda d: "Night 0" in body_text(d))
        # The night is the keypad's: the tiles take no action, and no role is shown.
        assert driver.execute_script("return document.querySelector('#live ol.seats').dataset.tap") is None
        assert_no_role_text(driver)
        shoot(driver, tmp_path, "night")

        day = Day(evening, box)
        fouled = pauses = best_moves = counted_late = 0
        by_other = False
        while True:
            day.next()
            st = day.st
            if st.phase == "over":
                break
            task = st.current
            wait_for(driver, lambda d: f"Day {st.number}" in body_text(d))
            if isinstance(task, Speech):
                speaker = task.seat
                wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#live ol.seats")
                         .get_attribute("data-tap") == "nominate")
                assert not driver.find_element(
                    By.CSS_SELECTOR, '.daybar button[data-kind="count"]').is_displayed()
                if not fouled:
                    # Scrolled to its end, the page's last button is clear of the bar.
                    driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
                    assert above_the_bar(driver, '#controls button[data-kind="next_game"]')
                    # The bar's foul: the next tile tapped gets it.
                    bar(driver, "foul")
                    wait_for(driver, lambda d: d.find_element(By.ID, "taphint").text
                             == "Tap the seat that gets the foul.")
                    tap_tile(driver, 3)
                    wait_for(driver, lambda d: seat_fouls(d, 3) == "Fouls: 1")
                    assert box.game.state.fouls[3] == 1
                    done(driver)
                    fouled = 1
                    # The undo's question opens where the finger is, above the bar.
                    press(driver, "#controls button[data-undo]")
                    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#confirm .question").text
                             == "Undo the foul to seat 3?")
                    wait_for(driver, lambda d: above_the_bar(d, "#confirm"))
                    shoot(driver, tmp_path, "undo-confirm")
                    driver.find_element(By.CSS_SELECTOR, "#confirm .no").click()
                    assert box.game.state.fouls[3] == 1
                    left = box.performer.timers.remaining(st.window)
                    bar(driver, "add_time")
                    done(driver)
                    assert left is not None
                    window = st.window
                    evening.until(lambda: (box.performer.timers.remaining(window) or 0) > left + 20,
                                  limit=10)
                living = st.living()
                black = [s for s in living if st.roles[s] in ("mafia", "don") and s != speaker]
                red = [s for s in living if st.roles[s] not in ("mafia", "don") and s != speaker]
                taken = {n.target for n in st.nominations}
                if not taken and black:
                    tap_tile(driver, black[0])  # nominated by the speaker
                    done(driver)
                    assert [n.target for n in box.game.state.nominations] == [black[0]]
                    if st.number == 1:
                        shoot(driver, tmp_path, "day-speech")
                elif len(taken) == 1 and red:
                    target = next(s for s in red if s not in taken)
                    if not by_other:
                        # "Who nominates whom": the speaker, then the nominee.
                        press(driver, '#controls button[data-mode="by"]')
                        tap_tile(driver, speaker)
                        wait_for(driver, lambda d: d.find_element(By.ID, "taphint").text
                                 == f"Seat {speaker} nominates: tap whom.")
                        by_other = True
                    tap_tile(driver, target)
                    done(driver)
                    assert [n.target for n in box.game.state.nominations][-1] == target
                if st.number == 2 and not pauses:
                    # Pause and resume: one button, showing only what applies.
                    bar(driver, "pause")
                    wait_for(driver, lambda d: d.find_elements(
                        By.CSS_SELECTOR, '.daybar button[data-kind="resume"]'))
                    assert box.game.state.paused
                    assert not driver.find_elements(By.CSS_SELECTOR, '.daybar button[data-kind="pause"]')
                    assert driver.find_element(By.CSS_SELECTOR, "[data-toggle]").text == "Resume"
                    bar(driver, "resume")
                    wait_for(driver, lambda d: d.find_elements(
                        By.CSS_SELECTOR, '.daybar button[data-kind="pause"]'))
                    assert not box.game.state.paused
                    pauses = 1
                bar(driver, "end_speech")
                done(driver)
            elif isinstance(task, VoteOn):
                candidate = task.seat
                wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#live ol.seats")
                         .get_attribute("data-tap") == "hand")
                assert driver.find_element(By.CSS_SELECTOR, '.daybar button[data-kind="count"]').is_displayed()
                hands = [s for s in st.living() if s != candidate]
                for seat in hands:
                    tap_tile(driver, seat)
                    done(driver)
                # A hand counted by mistake goes down again with a second tap.
                tap_tile(driver, hands[0])
                done(driver)
                wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#live .count").text
                         == f"Hands for seat {candidate}: {len(hands) - 1}")
                assert "hand" not in str(driver.find_element(
                    By.CSS_SELECTOR, f'#live li.seat[data-seat="{hands[0]}"]').get_attribute("class"))
                if not counted_late:
                    shoot(driver, tmp_path, "ballot")
                    # Far past the rule set's 5 s: the ballot waits for the count.
                    window = st.window
                    now = evening.clock.now()
                    evening.until(lambda: evening.clock.now() >= now + 30)
                    assert box.game.state.window == window and box.game.state.current == task
                    counted_late = 1
                bar(driver, "count")
                evening.until(lambda: box.game.state.current != task)
                if not box.game.over:  # the end: the page reloads, with the result
                    done(driver)
                voted = [r for r in box.game.state.eliminations if r.how == "vote"]
                assert voted and voted[-1].seat == candidate
            elif isinstance(task, LastWord) and st.first_victim == task.seat and not st.best_move:
                # The first night's victim names up to three seats: tiles, then send.
                press(driver, '#controls button[data-mode="best"]')
                named = [s for s in range(1, 11) if s != task.seat][:2]
                for seat in named:
                    tap_tile(driver, seat)
                send = driver.find_element(By.CSS_SELECTOR, '#controls button[data-mode="best"]')
                wait_for(driver, lambda d: send.text == f"Send the best move ({named[0]}, {named[1]})")
                press(driver, '#controls button[data-mode="best"]')
                done(driver)
                assert tuple(box.game.state.best_move) == tuple(named)
                best_moves = 1
                bar(driver, "end_speech")
                done(driver)
            else:
                bar(driver, "end_speech")
                done(driver)

        assert fouled and counted_late and by_other
        outcome = box.game.state.outcome
        assert outcome is not None and outcome.winner == "red"
        wait_for(driver, lambda d: "The red team wins" in body_text(d))
        # Black and red differ by a word and a mark, not only by colour.
        for seat in range(1, 11):
            role = box.game.state.roles[seat]
            shown = driver.find_element(By.CSS_SELECTOR, f'#live li.seat[data-seat="{seat}"] .role').text
            assert ("black team" in shown) == (role in ("mafia", "don")), (seat, shown)
            assert ("red team" in shown) == (role not in ("mafia", "don")), (seat, shown)
        # A long name wraps on a phone: all of it is there to read.
        assert driver.find_element(By.CSS_SELECTOR, '#live li.seat[data-seat="4"] .name').text == LONG_NAME
        shoot(driver, tmp_path, "result")
        assert best_moves or box.game.state.first_victim == 0

        links = driver.find_elements(By.CSS_SELECTOR, "#live .links a")
        sheet = str(links[0].get_attribute("href"))
        driver.get(sheet)
        wait_for(driver, lambda d: LONG_NAME in body_text(d))
        shoot(driver, tmp_path, "protocol")
        # The sheet fits the phone: nothing wider than its screen.
        assert driver.execute_script("const e = document.documentElement;"
                                     "return e.scrollWidth <= e.clientWidth && e.clientWidth <= 412")
        driver.get(evening.url + "/archive")
        wait_for(driver, lambda d: "Archive" in body_text(d))
        shoot(driver, tmp_path, "archive")
