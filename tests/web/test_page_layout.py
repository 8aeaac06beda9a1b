"""What a stranger's second look found on the page at 412 x 915 (real headless Chromium), in
Russian, whose words are the longest: the judge's roles broke names mid-word
("Christop/her-/Alexande/r"), a select cut its choice ("as the box is set (pads if it has
them, els"), the day bar's words could break mid-word. Screenshots under `<tmp>/shots/`."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from narrator.engine.deal import deal
from narrator.rules.loader import load_bundled
from tests.web.browser import LoopThread, chromium, wait_for
from tests.web.harness import PIN, Table
from tests.web.test_day_page import screen

NAMES = ("Christopher-Alexander", "Мария-Антуанетта Безукладникова", "Konstantin Konstantinopolsky",
         "Ann", "Бо", "Евлампия Кржижановская", "Gala", "Hugo", "Ирина", "Jack")

# Where a line of an element's text breaks between two letters (or digits): a word cut in two.
BROKEN_WORDS = """
const out = [];
for (const el of document.querySelectorAll(arguments[0])) {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let node, last = null, prev = "";
  while ((node = walker.nextNode())) {
    const text = node.textContent;
    for (let i = 0; i < text.length; i++) {
      const range = document.createRange();
      range.setStart(node, i); range.setEnd(node, i + 1);
      const rects = range.getClientRects();
      if (!rects.length) continue;
      const top = rects[0].top;
      const letter = /[\\p{L}\\p{N}]/u;
      if (last !== null && top > last + 2 && letter.test(prev) && letter.test(text[i]))
        out.push(el.textContent.trim());
      last = top; prev = text[i];
    }
  }
}
return out;
"""

# Selects whose chosen text is neither whole in the box nor written out under it.
CUT_SELECTS = """
const out = [];
for (const select of document.querySelectorAll(arguments[0])) {
  const text = select.options[select.selectedIndex].text;
  const style = getComputedStyle(select);
  const probe = document.createElement("span");
  probe.style.cssText = "position:absolute;visibility:hidden;white-space:nowrap";
  probe.style.font = style.font;
  probe.textContent = text;
  document.body.appendChild(probe);
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;
  const cut = probe.offsetWidth > room;
  probe.remove();
  const line = select.nextElementSibling;
  const spelled = !!line && line.classList.contains("fulltext") && !line.hidden
    && line.textContent === text && line.getBoundingClientRect().height > 0;
  if (cut && !spelled) out.push(select.name + ": " + text);
}
return out;
"""


@pytest.fixture
def russian(tmp_path: Path) -> Iterator[tuple[Table, str]]:
    loop = LoopThread()

    async def start() -> Table:
        table = Table(tmp_path / "box", lang="ru", judge=True, names=NAMES,
                      roles=deal(load_bundled("sport"), 10, 3), seed=3)
        await table.server.start("127.0.0.1", 0)
        return table

    table = loop.call(start())
    try:
        yield table, f"http://127.0.0.1:{table.server.port}"
    finally:
        async def stop() -> None:
            await table.server.stop()
            await table.box.stop()

        loop.call(stop())
        loop.close()
        asyncio.set_event_loop(None)


def sign_in(driver: WebDriver, url: str, then: str) -> None:
    driver.get(f"{url}/login?next={then}")
    driver.find_element(By.NAME, "pin").send_keys(PIN)
    driver.find_element(By.CSS_SELECTOR, "form[action='/login'] button[type=submit]").click()
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "form[action='/logout']"))


def test_long_names_and_long_words_are_whole_on_a_phone(russian: tuple[Table, str], tmp_path: Path) -> None:
    _table, url = russian
    with chromium(tmp_path / "profile") as driver:
        sign_in(driver, url, "/judge")
        wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "li.jrole")) == 10)
        screen(driver, tmp_path, "judge-roles-ru")
        # Every name is there, and wraps between its words, never inside one: on this
        # phone and on a slightly wider one (430 px), where the roles take two columns
        # whatever the page's scroll bar takes.
        shown = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "li.jrole span")]
        assert all(name in label for name, label in zip(NAMES, shown, strict=True)), shown
        for width in (412, 430):
            driver.set_window_size(width, 915)
            assert driver.execute_script(BROKEN_WORDS, "li.jrole span, li.jrole b") == [], width
        driver.set_window_size(412, 915)

        driver.get(url + "/game")
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".daybar button"))
        screen(driver, tmp_path, "game-ru", top=False)
        assert driver.execute_script(BROKEN_WORDS, ".daybar button, #controls .row button") == []
        # The bar's longest words at once: a paused ballot shows "Продолжить" and
        # "Подсчитано" (in the place of +30 s) beside the others; whole, within the screen.
        driver.execute_script("document.querySelector('.daybar [data-toggle]').textContent = 'Продолжить';"
                              "document.querySelector('.daybar [data-kind=count]').hidden = false;"
                              "document.querySelector('.daybar [data-kind=add_time]').hidden = true;")
        assert driver.execute_script(BROKEN_WORDS, ".daybar button") == []
        assert driver.execute_script(
            "return [...document.querySelectorAll('.daybar button')].every("
            "b => b.getBoundingClientRect().right <= window.innerWidth)")
        screen(driver, tmp_path, "bar-ru", top=False)

        driver.get(url + "/setup")
        wait_for(driver, lambda d: d.find_elements(By.ID, "setup"))
        # The cut choices are written out in full under their selects: all of them, for
        # each choice of how players give their inputs.
        for method in ("auto", "pads", "keypad", "both"):
            Select(driver.find_element(By.NAME, "input")).select_by_value(method)
            assert driver.execute_script(CUT_SELECTS, "#setup select") == [], method
        Select(driver.find_element(By.NAME, "input")).select_by_value("auto")
        line = driver.find_element(By.CSS_SELECTOR, "select[name=input] + .fulltext")
        assert line.is_displayed() and line.text.startswith("как настроена коробка"), line.text
        screen(driver, tmp_path, "setup-ru")
        driver.find_element(By.CSS_SELECTOR, "details.settings summary").click()
        assert driver.execute_script(CUT_SELECTS, "#setup select") == []
