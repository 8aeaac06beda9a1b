"""Sign-in by the box's Next button in a real browser (headless chromium at 412 x 915):
the phone asks, its page says to hold Next and reloads itself; the button held on
gpiozero's mock pins lets it in, and the page is signed in without anyone typing a PIN.
The pages are saved as screenshots under the test's tmp dir (`<tmp>/shots/*.png`; the
README's docs/sign-in*.png are these pages)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from selenium.webdriver.common.by import By

from narrator.devices.gpio import GpioSeatPanel, mock_pin_factory
from narrator.devices.pinmap import load_pin_map
from narrator.engine.actions import Action
from narrator.web.site import let_in_by_button
from tests.devices.helpers import tick
from tests.web.browser import LoopThread, chromium, wait_for
from tests.web.harness import PIN, Table
from tests.web.test_browser import body_text, shoot


def test_the_box_s_next_button_signs_a_phone_in(tmp_path: Path) -> None:
    loop = LoopThread()
    factory = mock_pin_factory()
    got: list[Action] = []

    async def start() -> tuple[Table, GpioSeatPanel]:
        table = Table(tmp_path / "box")
        panel = GpioSeatPanel(load_pin_map(), pin_factory=factory, clock=table.clock)
        panel.start(got.append)
        let_in_by_button(table.server, panel)
        await table.server.start("127.0.0.1", 0)
        return table, panel

    async def hold_next(table: Table, pin: Any) -> None:
        pin.drive_low()
        await tick(table.clock, 1.2, step=0.05)
        pin.drive_high()
        await tick(table.clock, 0.2, step=0.05)

    table, panel = loop.call(start())
    url = f"http://127.0.0.1:{table.server.port}"
    try:
        with chromium(tmp_path / "profile") as driver:
            driver.get(url + "/login?next=/game")
            page = body_text(driver)
            assert "journalctl" in page and PIN not in driver.page_source
            shoot(driver, tmp_path, "sign-in")
            # The two ways in stand apart: a thumb meant for one never hits the other.
            assert driver.execute_script(
                "const pin = document.querySelector('form[action=\"/login\"] button');"
                "const box = document.getElementById('use-button');"
                "return box.getBoundingClientRect().top - pin.getBoundingClientRect().bottom") >= 8
            driver.find_element(By.ID, "use-button").click()
            wait_for(driver, lambda d: "hold the Next button" in body_text(d))
            assert "30 s left" in body_text(driver)
            shoot(driver, tmp_path, "sign-in-button")
            loop.call(hold_next(table, factory.pin(dict(load_pin_map().host_buttons)["next"])))
            # The waiting page reloads itself: signed in, on the game, with no PIN typed.
            wait_for(driver, lambda d: d.current_url == url + "/game", seconds=20)
            wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "form[action='/logout']"))
            assert got == []  # the hold did nothing to the game
    finally:
        async def stop() -> None:
            panel.close()
            await table.server.stop()
            await table.box.stop()

        loop.call(stop())
        loop.close()
        factory.reset()
        asyncio.set_event_loop(None)
