"""The page at a judge's table, tried by a stranger and by the organiser in a real browser
at 412 x 915 (issue 33): the first start offers the usual game, not "Next game, same
names"; signed in, the night's cues show as the box says them, in judge mode's words
("Show yourselves to the judge"), so a table without a speaker can read the night aloud,
and the page says the players show their night to the judge; signed out, no cue that
names a role; /tournament and the served protocol sheet lead back to the game; an
abandoned game's sheet opens at once for the organiser."""

from __future__ import annotations

from pathlib import Path

from selenium.webdriver.common.by import By

from tests.web.browser import chromium, wait_for
from tests.web.evening_box import PIN, EveningBox
from tests.web.test_browser import (
    NAMES,
    assert_no_role_text,
    body_text,
    fill_setup,
    header_names,
    press,
    shoot,
    sign_in,
)

MEET = "Mafia, wake up. See each other. Show yourselves to the judge."


def said(driver: object) -> str:
    found = driver.find_elements(By.CSS_SELECTOR, "#live .said")  # type: ignore[attr-defined]
    return str(found[0].text) if found else ""


def test_a_judge_s_table_reads_its_night_from_the_page_and_a_stranger_does_not(
        tmp_path: Path) -> None:
    evening = EveningBox(tmp_path, asked=False)
    try:
        speaker = evening.service.ports.speaker
        evening.until(lambda: any(t.startswith("Waiting for the game to be set up")
                                  for _at, t in speaker.said), limit=600)  # type: ignore[attr-defined]
        with chromium(tmp_path / "profile") as driver:
            # A box that has not played yet: no "next game, same names" (there is none).
            driver.get(evening.url + "/game")
            wait_for(driver, lambda d: "No game yet" in body_text(d))
            assert "same names" not in body_text(driver)
            sign_in(driver, evening.url)
            driver.get(evening.url + "/game")
            wait_for(driver, lambda d: "Start the usual game" in body_text(d))
            assert "same names" not in body_text(driver)
            shoot(driver, tmp_path, "first-start")

            driver.get(evening.url + "/setup")
            fill_setup(driver)
            judge = driver.find_element(By.NAME, "judge")
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", judge)
            judge.click()
            driver.find_element(By.CSS_SELECTOR, "#setup button[type=submit]").click()
            evening.until(lambda: header_names(evening) == tuple(NAMES))
            box = evening.box
            assert box is not None
            evening.until(lambda: box.performer.last_said == MEET)

            # Signed in: the cue as said, in the judge's words, and how the night is given.
            driver.get(evening.url + "/game")
            wait_for(driver, lambda d: said(d) == MEET)
            line = driver.find_element(By.CSS_SELECTOR, ".setup-line").text
            assert "Players show their night choices to the judge" in line, line
            assert "keypad" not in said(driver) and "pad" not in said(driver)
            shoot(driver, tmp_path, "judge-night-signed-in")

            # /tournament leads back to the game.
            driver.get(evening.url + "/tournament")
            driver.find_element(By.CSS_SELECTOR, 'header nav a[href="/game"]').click()
            wait_for(driver, lambda d: said(d) == MEET)

            # Signed out, at the same moment: the cue that names a role is not shown.
            driver.find_element(By.CSS_SELECTOR, 'form[action="/logout"] button').click()
            wait_for(driver, lambda d: not d.find_elements(By.CSS_SELECTOR,
                                                           'form[action="/logout"]'))
            wait_for(driver, lambda d: "Night 0" in body_text(d))
            assert said(driver) == ""
            assert_no_role_text(driver)
            shoot(driver, tmp_path, "judge-night-signed-out")

            # The organiser abandons it: its sheet opens at once, and leads back.
            driver.get(evening.url + "/login?next=/game")
            driver.find_element(By.NAME, "pin").send_keys(PIN)
            driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
            wait_for(driver, lambda d: said(d) == MEET)
            press(driver, '#controls button[data-kind="abandon"]')
            wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#confirm .yes")
                     .is_displayed())
            driver.find_element(By.CSS_SELECTOR, "#confirm .yes").click()
            wait_for(driver, lambda d: "abandoned" in body_text(d))
            links = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#live .links a"))
            driver.get(str(links[0].get_attribute("href")))
            back = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR,
                                                              '.sheet-nav a[href="/archive"]'))
            assert back[0].is_displayed() and "Winner: abandoned" in body_text(driver)
            shoot(driver, tmp_path, "abandoned-sheet")
            back[0].click()
            wait_for(driver, lambda d: "Archive" in body_text(d))
    finally:
        evening.close()
