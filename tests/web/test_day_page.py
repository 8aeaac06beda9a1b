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
from selenium.common.exceptions import StaleElementReferenceException
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
    press,
    seat_fouls,
    sign_in,
)

LONG_NAME = "Maximiliana Konstantinopolskaya"


@pytest.fixture
def evening(tmp_path: Path) -> Iterator[EveningBox]:
    box = EveningBox(tmp_path, night_keypad=True, asked=False)  # waits for the set-up
    try:
        yield box
    finally:
        box.close()


def screen(driver: WebDriver, folder: Path, name: str, top: bool = True) -> None:
    """What the phone's screen shows (412 x 915), from the page's top unless `top` is off
    (under `<folder>/shots/`: docs/page-*.png are these)."""
    (folder / "shots").mkdir(exist_ok=True)
    driver.set_window_size(412, 915)
    # The window's own bars take some of its height: the page itself gets 915 px.
    bars = driver.execute_script("return window.outerHeight - window.innerHeight")
    driver.set_window_size(412, 915 + int(bars))
    if top:
        driver.execute_script("window.scrollTo(0, 0)")
    assert driver.save_screenshot(str(folder / "shots" / f"{name}.png"))
    driver.set_window_size(412, 915)


def tap_tile(driver: WebDriver, seat: int) -> None:
    """A tap on a seat tile, scrolled to mid-screen first as a thumb would (the bar covers
    the screen's foot)."""
    for _ in range(5):  # the live part may be swapped between finding a tile and the tap
        try:
            tile = driver.find_element(By.CSS_SELECTOR, f'#live li.seat[data-seat="{seat}"]')
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", tile)
            tile.click()
            return
        except StaleElementReferenceException:
            continue
    raise AssertionError(f"seat {seat}'s tile kept being swapped")


def bar(driver: WebDriver, kind: str) -> None:
    button = driver.find_element(By.CSS_SELECTOR, f'.daybar button[data-kind="{kind}"]')
    assert in_view(driver, f'.daybar button[data-kind="{kind}"]'), f"{kind} is off the screen"
    button.click()


def bar_line(driver: WebDriver) -> str:
    """The bar's line: what the last action did, or what a tap does in the mode chosen."""
    return str(driver.find_element(By.ID, "result").text)


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


BLACK = ("mafia", "don")


class Host:
    """The organiser with the phone: runs each day window from the page, as it comes. The
    box's own state (read, never changed) tells the test what is open and who is black:
    the town votes the mafia out, so the game ends with a red win in three days."""

    def __init__(self, evening: EveningBox, box: Box, driver: WebDriver, shots: Path) -> None:
        self.evening = evening
        self.box = box
        self.driver = driver
        self.shots = shots
        self.acted = 0  # the last window the page acted in
        self.fouled = self.paused = self.by_other = self.counted_late = self.best_move = False
        self.asked_self = False

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

    def play(self) -> None:
        while True:
            self.evening.until(self.ready)
            st = self.st
            self.acted = st.window
            if st.phase == "over":
                return
            self.shows(f"Day {st.number}")
            task = st.current
            if isinstance(task, Speech):
                self.speech(task.seat)
            elif isinstance(task, VoteOn):
                self.ballot(task)
            elif isinstance(task, LastWord) and st.first_victim == task.seat and not st.best_move:
                self.best(task.seat)
            else:
                bar(self.driver, "end_speech")
                done(self.driver)

    def shows(self, words: str) -> None:
        wait_for(self.driver, lambda d: words in body_text(d))

    def tap_says(self, kind: str) -> None:
        wait_for(self.driver, lambda d: d.execute_script(
            "return document.querySelector('#live ol.seats').dataset.tap") == kind)

    def hint_is(self, words: str) -> None:
        wait_for(self.driver, lambda d: d.find_element(By.ID, "taphint").text == words)

    def speech(self, speaker: int) -> None:
        driver, box, st = self.driver, self.box, self.st
        self.tap_says("nominate")
        assert not driver.find_element(By.CSS_SELECTOR, '.daybar button[data-kind="count"]').is_displayed()
        if not self.fouled:
            self.corrections()
        black = [s for s in st.living() if st.roles[s] in BLACK and s != speaker]
        red = [s for s in st.living() if st.roles[s] not in BLACK and s != speaker]
        taken = [n.target for n in st.nominations]
        if not taken and black and not self.asked_self:
            # The speaker's own tile: asked first (a slip, more often than a choice).
            tap_tile(driver, speaker)
            question = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#confirm .question").text)
            assert question == f"Seat {speaker} nominates themself?", question
            driver.find_element(By.CSS_SELECTOR, "#confirm .no").click()
            assert not box.game.state.nominations
            self.asked_self = True
        if not taken and black:
            tap_tile(driver, black[0])  # nominated by the speaker
            done(driver)
            assert [n.target for n in box.game.state.nominations] == [black[0]]
            if st.number == 1:
                screen(driver, self.shots, "day-speech")
        elif len(taken) == 1 and red:
            target = next(s for s in red if s not in taken)
            if not self.by_other:
                # "Who nominates whom": the speaker, then the nominee. The mode shows on its
                # button and in the bar; the same button again turns it off, and says so.
                by = '#controls button[data-mode="by"]'
                press(driver, by)
                self.hint_is("Tap the seat that nominates.")
                assert bar_line(driver) == "Tap the seat that nominates."
                assert driver.find_element(By.CSS_SELECTOR, by).get_attribute("aria-pressed") == "true"
                press(driver, by)
                wait_for(driver, lambda d: bar_line(d) == "Cancelled. Tap a seat: the speaker nominates it.")
                assert driver.find_element(By.CSS_SELECTOR, by).get_attribute("aria-pressed") == "false"
                press(driver, by)
                # The numbers right under the hint are seats too while the mode waits.
                press(driver, f'#controls .seatpick[data-seat="{speaker}"]')
                self.hint_is(f"Seat {speaker} nominates: tap whom.")
                assert bar_line(driver) == f"Seat {speaker} nominates: tap whom."
                self.by_other = True
            tap_tile(driver, target)
            done(driver)
            assert [n.target for n in box.game.state.nominations][-1] == target
        if st.number == 2 and not self.paused:
            self.pause_and_resume()
        bar(driver, "end_speech")
        done(driver)

    def corrections(self) -> None:
        """A foul from the bar (the next tile tapped gets it), the undo's question above
        the bar, +30 s; and the page's end is clear of the bar."""
        driver, box, window = self.driver, self.box, self.st.window
        # A seat picked in the corrections' row first: Foul still waits for the seat tapped.
        press(driver, '#controls .seatpick[data-seat="6"]')
        bar(driver, "foul")
        self.hint_is("Tap the seat that gets the foul.")
        assert bar_line(driver) == "Tap the seat that gets the foul."
        self.evening.settle()
        assert box.game.state.fouls[6] == 0
        tap_tile(driver, 3)
        wait_for(driver, lambda d: seat_fouls(d, 3) == "Fouls: 1")
        assert box.game.state.fouls[3] == 1 and box.game.state.fouls[6] == 0
        # Its "Done." does not outlive the next tap, nor a few seconds.
        wait_for(driver, lambda d: bar_line(d) == "Done.")
        press(driver, "#controls button[data-undo]")
        assert bar_line(driver) != "Done."
        self.fouled = True
        wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#confirm .question").text
                 == "Undo the foul to seat 3?")
        wait_for(driver, lambda d: above_the_bar(d, "#confirm"))
        # Yes and Cancel apart; the page under the question veiled, "Next game" too.
        assert driver.execute_script(
            "const y = document.querySelector('#confirm .yes').getBoundingClientRect();"
            "const n = document.querySelector('#confirm .no').getBoundingClientRect();"
            "return n.left - y.right") >= 8
        assert driver.execute_script(
            "const b = document.querySelector('#controls button[data-kind=next_game]');"
            "const r = b.getBoundingClientRect();"
            "const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
            "return !b.contains(at) && (at === null || at.classList.contains('veil'))"), \
            "Next game can be tapped under the question"
        screen(driver, self.shots, "undo-confirm", top=False)
        driver.find_element(By.CSS_SELECTOR, ".veil").click()  # a tap beside the question: Cancel
        wait_for(driver, lambda d: not d.find_element(By.ID, "confirm").is_displayed())
        self.evening.settle()
        assert box.game.state.fouls[3] == 1
        driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
        assert above_the_bar(driver, '#controls button[data-kind="next_game"]')
        left = box.performer.timers.remaining(window)
        assert left is not None
        bar(driver, "add_time")
        done(driver)
        self.evening.until(lambda: (box.performer.timers.remaining(window) or 0) > left + 20,
                           limit=10)

    def pause_and_resume(self) -> None:
        """One button, showing only what applies."""
        driver, box = self.driver, self.box
        bar(driver, "pause")
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '.daybar button[data-kind="resume"]'))
        assert box.game.state.paused
        assert not driver.find_elements(By.CSS_SELECTOR, '.daybar button[data-kind="pause"]')
        assert driver.find_element(By.CSS_SELECTOR, "[data-toggle]").text == "Resume"
        bar(driver, "resume")
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '.daybar button[data-kind="pause"]'))
        assert not box.game.state.paused
        self.paused = True

    def ballot(self, task: VoteOn) -> None:
        driver, box, st, evening = self.driver, self.box, self.st, self.evening
        candidate = task.seat
        self.tap_says("hand")
        assert driver.find_element(By.CSS_SELECTOR, '.daybar button[data-kind="count"]').is_displayed()
        # Count beside Foul, not in its colour; +30 s (no speech to add to) gives it room.
        assert not driver.find_element(By.CSS_SELECTOR, '.daybar button[data-kind="add_time"]').is_displayed()
        foul, count = driver.execute_script(
            "return ['foul', 'count'].map(k => getComputedStyle("
            "document.querySelector('.daybar button[data-kind=' + k + ']')).backgroundColor)")
        assert foul != count, foul
        hands = [s for s in st.living() if s != candidate]
        for seat in hands:
            tap_tile(driver, seat)
            done(driver)
        # A hand counted by mistake goes down again with a second tap.
        tap_tile(driver, hands[0])
        done(driver)
        wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#live .count").text
                 == f"Hands up for seat {candidate}: {len(hands) - 1}")
        tile = driver.find_element(By.CSS_SELECTOR, f'#live li.seat[data-seat="{hands[0]}"]')
        assert "hand" not in str(tile.get_attribute("class"))
        if not self.counted_late:
            screen(driver, self.shots, "ballot")
            # Far past the rule set's 5 s: the ballot waits for the count.
            window, now = st.window, evening.clock.now()
            evening.until(lambda: evening.clock.now() >= now + 30)
            assert box.game.state.window == window and box.game.state.current == task
            self.counted_late = True
        bar(driver, "count")
        evening.until(lambda: box.game.state.current != task)
        if not box.game.over:  # the end: the page reloads, with the result
            done(driver)
        voted = [e for e in box.game.state.eliminations if e.how == "vote"]
        assert voted and voted[-1].seat == candidate

    def best(self, seat: int) -> None:
        """The first night's victim names up to three seats: tiles, then send."""
        driver = self.driver
        press(driver, '#controls button[data-mode="best"]')
        named = [s for s in range(1, 11) if s != seat][:2]
        for other in named:
            tap_tile(driver, other)
        send = driver.find_element(By.CSS_SELECTOR, '#controls button[data-mode="best"]')
        wait_for(driver, lambda d: send.text == f"Send the best move ({named[0]}, {named[1]})")
        press(driver, '#controls button[data-mode="best"]')
        done(driver)
        assert tuple(self.box.game.state.best_move) == tuple(named)
        self.best_move = True
        bar(driver, "end_speech")
        done(driver)


def test_a_sport_game_with_its_days_run_from_the_page(evening: EveningBox, tmp_path: Path) -> None:
    with chromium(tmp_path / "profile") as driver:
        driver.get(evening.url + "/login?next=/setup")
        screen(driver, tmp_path, "sign-in")
        sign_in(driver, evening.url)
        fill_setup(driver)
        name = driver.find_element(By.NAME, "name4")
        name.clear()
        name.send_keys(LONG_NAME)
        Select(driver.find_element(By.NAME, "input")).select_by_value("keypad")
        screen(driver, tmp_path, "setup")
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
        # Past the opening's words (the page's address), into the night's own cues.
        evening.until(lambda: len(box.performer.spoken) >= 3)
        wait_for(driver, lambda d: "PIN" not in body_text(d))
        screen(driver, tmp_path, "night")

        host = Host(evening, box, driver, tmp_path)
        host.play()
        assert host.fouled and host.counted_late and host.by_other and host.paused
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
        assert driver.execute_script(
            "const e = document.querySelector('#live li.seat[data-seat=\"4\"] .name');"
            "return e.scrollWidth <= e.clientWidth && e.getClientRects().length > 0"), "the name is cut"
        screen(driver, tmp_path, "result")
        assert host.best_move or box.game.state.first_victim == 0

        links = driver.find_elements(By.CSS_SELECTOR, "#live .links a")
        sheet = str(links[0].get_attribute("href"))
        driver.get(sheet)
        wait_for(driver, lambda d: LONG_NAME in body_text(d))
        screen(driver, tmp_path, "protocol")
        # The sheet fits the phone: nothing wider than its screen.
        assert driver.execute_script("const e = document.documentElement;"
                                     "return e.scrollWidth <= e.clientWidth && e.clientWidth <= 412")
        driver.get(evening.url + "/archive")
        wait_for(driver, lambda d: "Archive" in body_text(d))
        screen(driver, tmp_path, "archive")
