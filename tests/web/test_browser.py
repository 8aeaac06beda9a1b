"""The organiser's page in a real browser (headless chromium through selenium), in front
of the real service on fake devices and a virtual clock: an evening set up, played by
simulated players, watched and corrected from the page.

Each page is saved as a screenshot under the test's tmp dir (`<tmp>/shots/*.png`)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from narrator.evening import GameSetup
from narrator.records.session import GameSession
from narrator.rules.loader import load_bundled
from narrator.web.text import text
from tests.web.browser import chromium, wait_for
from tests.web.evening_box import PIN, EveningBox

SPORT_ROLES = tuple(load_bundled("sport").roles)
ROLE_NAMES = sorted({*SPORT_ROLES, *(text("en").role(r) for r in SPORT_ROLES)})
NAMES = ["Ann", "Boris", "Chloé", "Dmitri", "Eve", "Farid", "Gala", "Hugo", "Irina", "Jack"]


def shoot(driver: WebDriver, tmp: Path, name: str) -> None:
    folder = tmp / "shots"
    folder.mkdir(exist_ok=True)
    # The whole page, not just the window: the browser is made as tall as the page.
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(412, max(915, int(height) + 20))
    driver.execute_script("window.scrollTo(0, 0)")
    assert driver.save_screenshot(str(folder / f"{name}.png"))
    driver.set_window_size(412, 915)


def body_text(driver: WebDriver) -> str:
    return str(driver.find_element(By.TAG_NAME, "body").text)


def assert_no_role_text(driver: WebDriver) -> None:
    """No role word on the page before the end; a signed-in page's cue aside (it shows the
    night's cues, which name roles, to be read aloud where the box has no speaker)."""
    shown = body_text(driver) + "\n" + driver.page_source
    if driver.find_elements(By.CSS_SELECTOR, 'form[action="/logout"]'):
        for said in driver.find_elements(By.CSS_SELECTOR, "#live .said"):
            shown = shown.replace(said.text, "")
        shown = re.sub(r'<p class="said">.*?</p>', "", shown, flags=re.S)
    named = [r for r in ROLE_NAMES if re.search(rf"\b{re.escape(r)}\b", shown, re.IGNORECASE)]
    assert not named, f"role text on the page before the end: {named}"


def seat_fouls(driver: WebDriver, seat: int) -> str:
    el = driver.find_element(By.CSS_SELECTOR, f'#live li.seat[data-seat="{seat}"] .fouls')
    return str(el.get_attribute("title"))


def shows(selector: str, wanted: str) -> Callable[[WebDriver], bool]:
    def check(driver: WebDriver) -> bool:
        return str(driver.find_element(By.CSS_SELECTOR, selector).text) == wanted

    return check


def seat_name(driver: WebDriver, seat: int) -> str:
    return str(driver.find_element(By.CSS_SELECTOR, f'#live li.seat[data-seat="{seat}"] .name').text)


def sign_in(driver: WebDriver, url: str, tmp: Path | None = None) -> None:
    driver.get(url + "/login?next=/setup")
    if tmp is not None:
        driver.find_element(By.NAME, "pin").send_keys("0000")
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        wait_for(driver, lambda d: "Wrong PIN." in body_text(d))
        shoot(driver, tmp, "1-pin")
    driver.find_element(By.NAME, "pin").send_keys(PIN)
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait_for(driver, lambda d: d.find_elements(By.ID, "setup"))


def fill_setup(driver: WebDriver, deal: str = "cards") -> None:
    for seat, name in enumerate(NAMES, 1):
        field = driver.find_element(By.NAME, f"name{seat}")
        field.clear()
        field.send_keys(name)
    for key, value in (("tournament", "Thursday Cup"), ("table", "1"), ("round", "2"), ("game", "3")):
        field = driver.find_element(By.NAME, key)
        field.clear()
        field.send_keys(value)
    Select(driver.find_element(By.NAME, "deal")).select_by_value(deal)


def press(driver: WebDriver, selector: str) -> None:
    """Click a control below the seat tiles, scrolled to mid-screen first as a thumb would
    (the day's bar covers the screen's foot)."""
    element = driver.find_element(By.CSS_SELECTOR, selector)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def in_view(driver: WebDriver, selector: str) -> bool:
    """The element is wholly inside the window (a phone's screen)."""
    return bool(driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;", selector))


def header_names(evening: EveningBox) -> tuple[str, ...]:
    box = evening.box
    if box is None or not isinstance(box.session, GameSession):
        return ()
    return tuple(box.session.header.names)


def test_an_evening_set_up_played_and_corrected_from_the_page(tmp_path: Path) -> None:
    evening = EveningBox(tmp_path, asked=False)  # a box just started: nothing asked for yet
    try:
        _evening_from_the_page(evening, tmp_path)
    finally:
        evening.close()


def _evening_from_the_page(evening: EveningBox, tmp_path: Path) -> None:
    # Nothing starts unasked: the box waits for the set-up (found trying the README's
    # laptop command: it started a default game, which the set-up then abandoned).
    speaker = evening.service.ports.speaker
    evening.until(lambda: any(t.startswith("Waiting for the game to be set up")
                              for _at, t in speaker.said), limit=600)  # type: ignore[attr-defined]
    assert evening.box is None
    with chromium(tmp_path / "profile") as driver:
        sign_in(driver, evening.url, tmp_path)

        # A refused set-up says why, beside the field, and starts nothing.
        fill_setup(driver)
        driver.find_element(By.NAME, "name4").clear()
        driver.find_element(By.NAME, "name4").send_keys("ann")
        driver.find_element(By.CSS_SELECTOR, "#setup button[type=submit]").click()
        wait_for(driver, lambda d: "The same name as seat 1." in body_text(d))
        assert evening.box is None  # still nothing started

        # Ten names, the tournament's fields: the game starts with them.
        fill_setup(driver)
        shoot(driver, tmp_path, "2-setup")
        driver.find_element(By.CSS_SELECTOR, "#setup button[type=submit]").click()
        evening.until(lambda: header_names(evening) == tuple(NAMES))
        wait_for(driver, lambda d: "Night 0" in body_text(d) and seat_name(d, 1) == "Ann")
        assert_no_role_text(driver)
        shoot(driver, tmp_path, "3-game-night")

        # The box moves on; the open page follows by itself.
        evening.until(lambda: evening.box is not None and evening.box.game.state.phase == "day"
                      and evening.box.performer.timers.is_open(evening.box.game.state.window))
        wait_for(driver, lambda d: "Day 1" in body_text(d) and "Speech: 1 · Ann" in body_text(d))
        assert driver.find_element(By.CSS_SELECTOR, "#live .timer").get_attribute("data-running") == "1"
        assert_no_role_text(driver)

        # A foul to seat 3, from the page: the engine takes it, the page shows it.
        box = evening.box
        assert box is not None
        # Foul in the bar, then the seat: its number in the corrections' row, in sight of
        # the hint (a tile does the same).
        driver.find_element(By.CSS_SELECTOR, '#controls button[data-kind="foul"]').click()
        press(driver, '#controls .seatpick[data-seat="3"]')
        wait_for(driver, lambda d: seat_fouls(d, 3) == "Fouls: 1")
        assert box.game.state.fouls[3] == 1
        assert "Done." in driver.find_element(By.ID, "result").text
        shoot(driver, tmp_path, "4-game-day-foul")

        # Undo, with the confirm step naming what goes.
        press(driver, "#controls button[data-undo]")
        question = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#confirm .question").text)
        assert question == "Undo the foul to seat 3?"
        # On a phone the question shows where the finger is, not below the screen's edge
        # (found at a club evening: the confirm box opened off-screen, nothing seemed to
        # happen), and its button says "Yes" (it said "yes": a YAML boolean key).
        wait_for(driver, lambda d: in_view(d, "#confirm"))
        assert driver.find_element(By.CSS_SELECTOR, "#confirm .yes").text == "Yes"
        shoot(driver, tmp_path, "5-undo-confirm")
        driver.find_element(By.CSS_SELECTOR, "#confirm .yes").click()
        wait_for(driver, lambda d: seat_fouls(d, 3) == "Fouls: 0")
        assert box.game.state.fouls[3] == 0

        # A refused correction says why and changes nothing.
        press(driver, '#controls button[data-kind="withdraw"]')
        wait_for(driver, lambda d: "Refused: There is no nomination to withdraw in this speech."
                 in d.find_element(By.ID, "result").text)
        wait_for(driver, lambda d: in_view(d, "#result"))

        # The nights and days that follow: nothing about roles, whatever happens.
        evening.until(lambda: box.game.state.phase == "night" and box.game.state.number == 1)
        wait_for(driver, lambda d: "Night 1" in body_text(d))
        assert_no_role_text(driver)
        evening.until(lambda: box.game.state.number >= 2 and box.game.state.phase != "night")
        wait_for(driver, lambda d: "Day 2" in body_text(d) or "wins" in body_text(d))
        if not box.game.over:
            assert_no_role_text(driver)

        # The end: winner, roles, eliminations, protocol links; the sheet has the names.
        evening.until(lambda: box.game.over)
        outcome = box.game.state.outcome
        assert outcome is not None
        winner = outcome.winner
        wait_for(driver, lambda d: text("en").winner(winner) in body_text(d))
        shown = body_text(driver)
        assert "Sheriff" in shown and "Don" in shown and "left the table" in shown.lower()
        assert driver.find_elements(By.CSS_SELECTOR, '#controls button[data-kind="next_game"]')
        links = driver.find_elements(By.CSS_SELECTOR, "#live .links a")
        assert [a.text for a in links] == ["Sheet (HTML)", "JSON", "Polemica"]
        shoot(driver, tmp_path, "6-game-over")
        sheet = str(links[0].get_attribute("href"))
        game_id = box.session.header.game_id
        driver.get(sheet)
        wait_for(driver, lambda d: game_id in body_text(d))
        shoot(driver, tmp_path, "7-protocol")  # its names: tests/web/test_protocol_names.py

        # The next game, with the same names, from the page.
        driver.get(evening.url + "/game")
        driver.find_element(By.CSS_SELECTOR, '#controls button[data-kind="next_game"]').click()
        evening.until(lambda: evening.box is not box and header_names(evening) == tuple(NAMES))
        wait_for(driver, lambda d: "Night 0" in body_text(d) and seat_name(d, 10) == "Jack")

        driver.get(evening.url + "/archive")
        wait_for(driver, lambda d: "Archive" in body_text(d))
        first_line = driver.find_element(By.CSS_SELECTOR, ".archive li").text
        assert "Ann" in first_line and text("en").winner(winner) in first_line
        shoot(driver, tmp_path, "8-archive")


def test_a_deal_without_cards_goes_round_the_phone(evening: EveningBox, tmp_path: Path) -> None:
    evening.until(lambda: evening.box is not None)
    with chromium(tmp_path / "profile") as driver:
        sign_in(driver, evening.url)
        fill_setup(driver, deal="phone")
        driver.find_element(By.CSS_SELECTOR, "#setup button[type=submit]").click()
        evening.until(lambda: header_names(evening) == tuple(NAMES))
        box = evening.box
        assert box is not None
        roles = [text("en").role(r) for r in box.game.state.roles[1:]]
        assert all(roles)  # the box dealt: it knows every role
        said = len(box.performer.spoken)
        for seat in range(1, 11):
            wait_for(driver, shows(".seatbig", f"Seat {seat}"))
            card = driver.find_element(By.CSS_SELECTOR, "#deal .card")
            assert card.text == ""  # nothing before the finger is down
            show = driver.find_element(By.CSS_SELECTOR, "#deal .show")
            ActionChains(driver).click_and_hold(show).perform()
            wait_for(driver, shows("#deal .card", roles[seat - 1]))
            if seat == 1:
                shoot(driver, tmp_path, "deal-seat-1")
            ActionChains(driver).release(show).perform()
            wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#deal .card").text == "")
            evening.settle()
            assert len(box.performer.spoken) == said  # the box waits, silent
            driver.find_element(By.CSS_SELECTOR, "#deal .pass").click()
        wait_for(driver, lambda d: d.current_url.endswith("/game"))
        evening.until(lambda: box.game.state.phase == "day")
        wait_for(driver, lambda d: "Day 1" in body_text(d))
        assert_no_role_text(driver)
        driver.get(evening.url + "/deal")
        wait_for(driver, lambda d: "can't be opened again" in body_text(d))


def test_the_input_method_is_chosen_for_the_next_game_on_the_page(evening: EveningBox,
                                                                 tmp_path: Path) -> None:
    evening.until(lambda: evening.box is not None)
    with chromium(tmp_path / "profile") as driver:
        sign_in(driver, evening.url)
        options = [o.text for o in Select(driver.find_element(By.NAME, "input")).options]
        assert options == [text("en")(f"input_{m}") for m in ("auto", "pads", "keypad", "both")]
        Select(driver.find_element(By.NAME, "input")).select_by_value("keypad")
        # Another language: the form comes back in Russian with the choice kept.
        Select(driver.find_element(By.NAME, "lang")).select_by_value("ru")
        wait_for(driver, lambda d: "Игроки вводят" in body_text(d))
        chosen = Select(driver.find_element(By.NAME, "input")).first_selected_option
        assert chosen.text == "только тайной клавиатурой"
        fill_setup(driver)
        shoot(driver, tmp_path, "setup-input-ru")
        driver.find_element(By.CSS_SELECTOR, "#setup button[type=submit]").click()

        def header_input() -> str:
            box = evening.box
            return box.session.header.input if box is not None and isinstance(
                box.session, GameSession) else ""

        evening.until(lambda: header_input() == "keypad")
        box = evening.box
        assert box is not None
        # This box has pads, but the game was set for the keypad: its cues say so.
        evening.until(lambda: box.game.state.phase == "day")
        night = [s.text for s in box.performer.spoken if s.phase == "night-0"]
        assert any("клавиатур" in t for t in night)
        assert not any(re.search("кноп", t, re.IGNORECASE) for t in night)
        assert box.game.engine.rules.name == "sport" and box.session.header.lang == "ru"  # type: ignore[attr-defined]


def test_a_russian_page_refuses_in_russian_and_a_restart_keeps_it_signed_in(
        tmp_path: Path) -> None:
    """Found at a club evening: a Russian page showed the engine's refusals in English
    ("Not now." after a pause), and a restart between games started a game unasked and
    signed the page out."""
    first = EveningBox(tmp_path)
    try:
        first.until(lambda: first.box is not None)
        first.loop.call(_russian_game(first))
        first.until(lambda: first.box is not None and isinstance(first.box.session, GameSession)
                    and first.box.session.header.lang == "ru" and first.box.game.state.phase == "day"
                    and first.box.performer.timers.is_open(first.box.game.state.window))
        box = first.box
        assert box is not None
        with chromium(tmp_path / "profile") as driver:
            sign_in(driver, first.url)
            driver.get(first.url + "/game")
            driver.find_element(By.CSS_SELECTOR, '#controls button[data-kind="pause"]').click()
            wait_for(driver, lambda d: "Готово." in d.find_element(By.ID, "result").text)
            driver.find_element(By.CSS_SELECTOR, '#controls button[data-kind="end_speech"]').click()
            refusal = "Отказано: Игра на паузе: сначала нажмите «Продолжить»."
            wait_for(driver, lambda d: d.find_element(By.ID, "result").text == refusal)
            assert box.game.state.paused
            shoot(driver, tmp_path, "ru-1-refused-paused")

            first.loop.call(_abandon(first))  # between games; then the box restarts
            first.close()
            again = EveningBox(tmp_path, asked=False)
            try:
                speaker = again.service.ports.speaker
                again.until(lambda: any(t.startswith("Ждём следующую игру.")
                                        for _at, t in speaker.said), limit=600)  # type: ignore[attr-defined]
                assert again.box is None
                driver.get(again.url + "/game")  # the same phone, the cookie it had
                wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '[data-evening="next-game"]'))
                assert "Ждём следующую игру" in body_text(driver) and "Выйти" in body_text(driver)
                shoot(driver, tmp_path, "ru-2-restarted-between-games")
                driver.find_element(By.CSS_SELECTOR, '[data-evening="next-game"]').click()
                again.until(lambda: again.box is not None)
                wait_for(driver, lambda d: "Ночь 0" in body_text(d))
                shoot(driver, tmp_path, "ru-3-next-game")
            finally:
                again.close()
    finally:
        if not first.loop.loop.is_closed():
            first.close()


async def _russian_game(evening: EveningBox) -> None:
    evening.service.evening.abandon()
    evening.service.evening.start(GameSetup(lang="ru"))


async def _abandon(evening: EveningBox) -> None:
    evening.service.evening.abandon()


def test_a_signed_in_phone_tells_the_box_the_date(evening: EveningBox, tmp_path: Path) -> None:
    """The box's clock may be 1970 (no real-time clock, no network); the phone's is right:
    the page's script tells the box once the organiser is signed in, not before."""
    evening.until(lambda: evening.box is not None)
    wall = evening.service.wallclock
    with chromium(tmp_path / "profile") as driver:
        driver.get(evening.url + "/game")
        wait_for(driver, lambda d: d.find_elements(By.ID, "live"))
        evening.settle()
        assert wall.source != "phone"  # nobody signed in yet
        sign_in(driver, evening.url)
        wait_for(driver, lambda _d: wall.source == "phone")
        phone = driver.execute_script("return Date.now()") / 1000
        assert abs(wall.now() - phone) < 60


@contextmanager
def page_left_open(tmp_path: Path) -> Iterator[tuple[WebDriver, int]]:
    """A signed-in phone's page that has told the box the date, then the box gone (a power
    cut) and the page left open: the driver and the port a restarted box takes again."""
    first = EveningBox(tmp_path)
    try:
        first.until(lambda: first.box is not None)
        with chromium(tmp_path / "profile") as driver:
            sign_in(driver, first.url)
            driver.get(first.url + "/game")
            wait_for(driver, lambda _d: first.service.wallclock.source == "phone")
            port = first.server.port
            first.close()
            yield driver, port
    finally:
        if not first.loop.loop.is_closed():
            first.close()


def test_a_page_left_open_comes_back_after_a_box_that_answered_with_an_error(
        tmp_path: Path) -> None:
    """A restart caught half-way answers the page's live stream with an error: the browser
    then gives the stream up for good (only a dropped one is retried), and a phone left
    open would never update again. The page starts a new stream itself."""
    with page_left_open(tmp_path) as (driver, port):
        hits: list[str] = []

        class Refusing(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                hits.append(self.path)
                self.send_response(503)
                self.end_headers()

            do_POST = do_GET

            def log_message(self, *_args: object) -> None:
                pass

        refusing = ThreadingHTTPServer(("127.0.0.1", port), Refusing)
        serving = threading.Thread(target=refusing.serve_forever, daemon=True)
        serving.start()
        try:
            wait_for(driver, lambda _d: "/api/events" in hits, 20)
        finally:
            refusing.shutdown()
            refusing.server_close()
        again = EveningBox(tmp_path, port)
        try:
            wait_for(driver, lambda _d: again.service.wallclock.source == "phone", 20)
        finally:
            again.close()


def test_a_page_left_open_tells_a_restarted_box_the_date(tmp_path: Path) -> None:
    """Found at a club evening: the phone told the box the date when a page was opened, but
    a page left open through a power cut only reconnected its live part, so the resumed
    game ended dated by the box's own clock (a Pi's last shutdown), before its start."""
    with page_left_open(tmp_path) as (driver, port):
        again = EveningBox(tmp_path, port)
        try:
            assert again.service.wallclock.source != "phone"
            # Nobody opens a page: the one left open reconnects its live part.
            wait_for(driver, lambda _d: again.service.wallclock.source == "phone", 20)
            phone = driver.execute_script("return Date.now()") / 1000
            assert abs(again.service.wallclock.now() - phone) < 60
        finally:
            again.close()
