"""The organiser's page in a real browser (headless chromium through selenium): a game
played by simulated players on a virtual clock, watched and corrected from the page.

Each page is saved as a screenshot under the test's tmp dir (`<tmp>/shots/*.png`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from narrator.rules.loader import load_bundled
from narrator.sim.selfplay import deal
from narrator.web.text import text
from tests.web.browser import LoopThread, chromium, wait_for
from tests.web.harness import PIN, Table, seat_players

SPORT_ROLES = tuple(load_bundled("sport").roles)
ROLE_NAMES = sorted({*SPORT_ROLES, *(text("en").role(r) for r in SPORT_ROLES)})


class Live:
    """The box with its page on a loop thread; the test moves its virtual clock."""

    def __init__(self, tmp: Path) -> None:
        self.loop = LoopThread()
        self.tmp = tmp

        async def start() -> Table:
            table = Table(tmp / "state", roles=deal(load_bundled("sport"), 10, 21), seed=21)
            seat_players(table)
            await table.server.start("127.0.0.1", 0)
            return table

        self.table = self.loop.call(start())
        self.url = f"http://127.0.0.1:{self.table.server.port}"

    def until(self, what: str) -> None:
        table = self.table
        checks = {
            "day 1 speech": lambda: table.state.phase == "day" and table.window_running(),
            "night 1": lambda: table.state.phase == "night" and table.state.number == 1,
            "day 2 speech": lambda: table.state.number >= 2 and table.state.phase == "day"
            and table.window_running(),
            "over": lambda: table.state.phase == "over",
        }
        self.loop.call(table.until(checks[what], limit=200_000))

    def close(self) -> None:
        async def stop() -> None:
            await self.table.server.stop()
            await self.table.box.stop()

        self.loop.call(stop())
        self.loop.close()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Live]:
    box = Live(tmp_path)
    try:
        yield box
    finally:
        box.close()


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
    shown = body_text(driver) + "\n" + driver.page_source
    named = [r for r in ROLE_NAMES if re.search(rf"\b{re.escape(r)}\b", shown, re.IGNORECASE)]
    assert not named, f"role text on the page before the end: {named}"


def seat_fouls(driver: WebDriver, seat: int) -> str:
    el = driver.find_element(By.CSS_SELECTOR, f'#live li.seat[data-seat="{seat}"] .fouls')
    return str(el.get_attribute("title"))


def test_a_game_watched_and_corrected_from_the_page(live: Live, tmp_path: Path) -> None:
    with chromium(tmp_path / "profile") as driver:
        driver.get(live.url + "/")
        wait_for(driver, lambda d: "Night 0" in body_text(d))
        assert_no_role_text(driver)
        shoot(driver, tmp_path, "1-game-night")

        # The box moves on; the open page follows by itself.
        live.until("day 1 speech")
        wait_for(driver, lambda d: "Day 1" in body_text(d) and "Speech: Seat 1" in body_text(d))
        timer = driver.find_element(By.CSS_SELECTOR, "#live .timer")
        assert timer.get_attribute("data-running") == "1"
        assert_no_role_text(driver)

        # Corrections need the PIN.
        driver.find_element(By.LINK_TEXT, "Enter the PIN to make corrections").click()
        wait_for(driver, lambda d: d.find_elements(By.NAME, "pin"))
        driver.find_element(By.NAME, "pin").send_keys("0000")
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        wait_for(driver, lambda d: "Wrong PIN." in body_text(d))
        shoot(driver, tmp_path, "2-pin")
        driver.find_element(By.NAME, "pin").send_keys(PIN)
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        wait_for(driver, lambda d: d.find_elements(By.ID, "controls"))

        # A foul to seat 3, from the page: the engine takes it, the page shows it.
        driver.find_element(By.CSS_SELECTOR, '#controls .seatpick[data-seat="3"]').click()
        driver.find_element(By.CSS_SELECTOR, '#controls button[data-kind="foul"]').click()
        wait_for(driver, lambda d: seat_fouls(d, 3) == "Fouls: 1")
        assert live.table.state.fouls[3] == 1
        assert "Done." in driver.find_element(By.ID, "result").text
        shoot(driver, tmp_path, "3-game-day-foul")

        # Undo, with the confirm step naming what goes.
        driver.find_element(By.CSS_SELECTOR, '#controls button[data-undo]').click()
        question = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#confirm .question").text)
        assert question == "Undo the foul to seat 3?"
        shoot(driver, tmp_path, "4-undo-confirm")
        driver.find_element(By.CSS_SELECTOR, "#confirm .yes").click()
        wait_for(driver, lambda d: seat_fouls(d, 3) == "Fouls: 0")
        assert live.table.state.fouls[3] == 0

        # A refused correction says why and changes nothing.
        driver.find_element(By.CSS_SELECTOR, '#controls button[data-kind="resume"]').click()
        wait_for(driver, lambda d: "Refused: not paused" in d.find_element(By.ID, "result").text)

        # The night: nothing about roles, whatever happens.
        live.until("night 1")
        wait_for(driver, lambda d: "Night 1" in body_text(d))
        assert_no_role_text(driver)
        live.until("day 2 speech")
        wait_for(driver, lambda d: "Day 2" in body_text(d))
        assert_no_role_text(driver)

        # The end: winner, roles, eliminations, protocol links.
        live.until("over")
        outcome = live.table.state.outcome
        assert outcome is not None
        winner = outcome.winner
        wait_for(driver, lambda d: text("en").winner(winner) in body_text(d))
        shown = body_text(driver)
        assert "Sheriff" in shown and "Don" in shown
        assert "left the table" in shown.lower()
        assert driver.find_elements(By.CSS_SELECTOR, '#controls button[data-kind="next_game"]')
        assert not driver.find_elements(By.CSS_SELECTOR, '#controls button[data-kind="foul"]')
        links = driver.find_elements(By.CSS_SELECTOR, "#live .links a")
        assert [a.text for a in links] == ["Sheet (HTML)", "JSON", "Polemica"]
        shoot(driver, tmp_path, "5-game-over")
        href = links[0].get_attribute("href")
        driver.get(str(href))
        wait_for(driver, lambda d: "Sheriff" in body_text(d) or "sheriff" in body_text(d))
        shoot(driver, tmp_path, "6-protocol")

        driver.get(live.url + "/archive")
        wait_for(driver, lambda d: "Archive" in body_text(d))
        assert driver.find_elements(By.CSS_SELECTOR, ".archive li")
        shoot(driver, tmp_path, "7-archive")
