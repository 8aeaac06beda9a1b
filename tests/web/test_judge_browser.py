"""Judge mode in a real browser (headless chromium at 412 x 915): a whole game set up with
"a judge sits at this table", every night step entered on the judge's page while the
simulated players tap their pads in vain, the day played by them at the pads and the
keypad, to the protocol. Screenshots under `<tmp>/shots/judge-*.png` (the docs' come
from here)."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from narrator.devices.fake import FakeSeatPanel
from narrator.engine.deal import deal
from narrator.engine.tasks import AnswerWindow, CallOut, NightInput
from narrator.records.session import protocols_dir
from narrator.rules.loader import load_bundled
from narrator.web.text import text
from tests.web.browser import chromium, wait_for
from tests.web.evening_box import EveningBox
from tests.web.test_browser import (
    NAMES,
    assert_no_role_text,
    body_text,
    fill_setup,
    header_names,
    shoot,
    sign_in,
)

# The cards the evening's simulated players hold when the box has not dealt them
# (tests/web/evening_box.py): what the judge sees at night zero and enters.
CARDS = deal(load_bundled("sport"), 10, 7)
EN = text("en")


def judged(evening: EveningBox) -> bool:
    box = evening.box
    return box is not None and box.session.header is not None and box.session.header.judge \
        and header_names(evening) == tuple(NAMES)


def open_step(evening: EveningBox, done: set[tuple[int, str]]) -> tuple[int, str] | None:
    """The night step whose input window runs now and the judge has not seen yet, or
    None at the game's end."""
    found: list[tuple[int, str]] = []

    def there() -> bool:
        box = evening.box
        assert box is not None
        st = box.game.state
        if box.game.over:
            return True
        task = st.current
        if st.phase == "night" and isinstance(task, CallOut | NightInput) \
                and (st.number, task.step) not in done and box.performer.timers.is_open(st.window):
            found.append((st.number, task.step))
            return True
        return False

    evening.until(there)
    return found[-1] if found else None


def tap(driver: WebDriver, selector: str) -> None:
    """Click what a thumb would: scrolled into the middle of the screen first (the
    header stays on top of the page)."""
    element = driver.find_element(By.CSS_SELECTOR, selector)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def pick(driver: WebDriver, *seats: int) -> None:
    for seat in seats:
        tap(driver, f'#judge .jseat[data-seat="{seat}"]')


def confirm(driver: WebDriver) -> None:
    tap(driver, "#judge .jconfirm")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#judge .jentered"))


def public(url: str) -> str:
    """What a phone that is not signed in gets."""
    with urllib.request.urlopen(url, timeout=10) as r:  # 127.0.0.1 only
        return str(r.read().decode())


def test_a_whole_game_with_the_night_entered_on_the_judges_page(evening: EveningBox,
                                                                 tmp_path: Path) -> None:
    evening.until(lambda: evening.box is not None)
    with chromium(tmp_path / "profile") as driver:
        sign_in(driver, evening.url)
        fill_setup(driver)
        assert not driver.find_element(By.NAME, "judge").is_selected()
        tap(driver, 'input[name="judge"]')
        assert driver.find_element(By.NAME, "judge").is_selected()
        shoot(driver, tmp_path, "judge-0-setup")
        driver.find_element(By.CSS_SELECTOR, "#setup button[type=submit]").click()
        evening.until(lambda: judged(evening))
        box = evening.box
        assert box is not None
        # The set-up lands on the game page first (a page asked for before would race it).
        wait_for(driver, lambda d: d.current_url.endswith("/game"))
        driver.get(evening.url + "/judge")
        wait_for(driver, lambda d: d.find_elements(By.ID, "judge") and "Night 0" in body_text(d))

        black = [s for s, r in enumerate(CARDS, 1) if r in ("mafia", "don")]
        holders = {"mafia_meet": black, "don_meet": [CARDS.index("don") + 1],
                   "sheriff_meet": [CARDS.index("sheriff") + 1]}
        done: set[tuple[int, str]] = set()
        shots: list[int] = []
        while (found := open_step(evening, done)) is not None:
            done.add(found)
            night, step = found
            st = box.game.state
            def shown(d: WebDriver, selector: str = f'#judge .night[data-step="{step}"]') -> bool:
                return bool(d.find_elements(By.CSS_SELECTOR, selector))

            try:
                wait_for(driver, shown, 30)
            except Exception:
                (tmp_path / "stuck.html").write_text(driver.page_source)
                (tmp_path / "stuck.txt").write_text(f"{found} {box.game.state.current} "
                                                    f"{box.game.state.phase_label()}")
                raise
            # Nobody else's taps: the pads' night taps are not taken in a judged game.
            assert not driver.find_elements(By.CSS_SELECTOR, "#judge .jentered"), \
                f"{step} had an entry before the judge's: {body_text(driver)}"
            if not driver.find_elements(By.CSS_SELECTOR, "#judge form.jentry"):
                continue  # its holders are out: the box calls the step all the same
            if night == 0:
                pick(driver, *holders[step])
                if step == "mafia_meet":
                    shoot(driver, tmp_path, "judge-1-night-zero")
                confirm(driver)
                continue
            living = [s for s in range(1, 11) if st.alive[s]]
            red = [s for s in living if CARDS[s - 1] in ("civilian", "sheriff")]
            target = {"mafia_shot": red[-1], "don_check": red[0],
                      "sheriff_check": next((s for s in living if s in black), living[0])}[step]
            pick(driver, target)
            if step == "mafia_shot" and not shots:
                shoot(driver, tmp_path, "judge-2-shot")
                # The game page, signed in, and a phone not signed in: nothing of the night.
                driver.execute_script("window.open('/game', 'game')")
                driver.switch_to.window("game")
                wait_for(driver, lambda d: "Night 1" in body_text(d))
                assert_no_role_text(driver)
                driver.close()
                driver.switch_to.window(driver.window_handles[0])
                for path in ("/game", "/api/state", "/judge"):
                    served = public(evening.url + path)
                    assert not any(EN.role(r) in served for r in CARDS), path
            confirm(driver)
            if step == "mafia_shot":
                shots.append(target)
            if step == "sheriff_check" and night == 1:
                evening.until(lambda: isinstance(box.game.state.current, AnswerWindow)
                              and box.game.state.current.step == "sheriff_check")
                wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#judge .janswer .big")
                         .text == "Yes")
                shoot(driver, tmp_path, "judge-3-answer")
            if box.game.state.phase == "night" and night == 1 and step == "sheriff_check":
                evening.until(lambda: box.game.state.phase == "day")
                wait_for(driver, lambda d: "Day 2" in body_text(d))
                shoot(driver, tmp_path, "judge-4-day")

        # The end: the judge's entries made the game; the pads' night taps were not taken.
        assert box.game.over and shots
        assert box.night_inputs["pads"] == 0 and box.night_inputs["keypad"] == 0
        assert box.night_inputs["judge"] >= 5 + len(shots)
        assert box.inputs["pads"] > 0  # the day's votes were the table's
        panel = evening.service.ports.panel
        assert isinstance(panel, FakeSeatPanel) and panel.answers == []  # the judge showed them
        killed = [e for e in box.game.state.eliminations if e.phase == "night"]
        assert killed and killed[0].seat == shots[0] and killed[0].number == 1
        wait_for(driver, lambda d: "The game is over" in body_text(d))
        driver.get(evening.url + "/game")
        assert box.session.header is not None
        game_id = box.session.header.game_id
        protocol = json.loads((protocols_dir(evening.tmp / "state") / f"{game_id}.json").read_text())
        assert protocol["game"]["judge"] is True and protocol["names"] == NAMES
        assert [s["role"] for s in protocol["seats"]] == CARDS
        checks = next(n["checks"] for n in protocol["nights"] if n["number"] == 1)
        assert checks and checks[-1]["step"] == "sheriff_check" and checks[-1]["answer"] == "yes"
        # The live part is swapped as the box says its last words: read it once it holds.
        sheet = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#live .links a")
                         .get_attribute("href"))
        driver.get(str(sheet))
        wait_for(driver, lambda d: game_id in body_text(d) and "Ann" in body_text(d))
        shoot(driver, tmp_path, "judge-5-protocol")
