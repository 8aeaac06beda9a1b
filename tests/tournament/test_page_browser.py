"""The collector's page in a real browser (headless Chromium through selenium) at a
phone's 412 x 915: "where do I sit" is the first thing on it and answers a player's name;
every table's state is there; the standings fit the width with their points column in
view, no sideways scroll, for a stranger and for the organiser with all the controls."""

from __future__ import annotations

from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from narrator.tournament.signing import sign_request
from narrator.tournament.tables import free_port
from narrator.tournament.wire import STATUS_PATH, BoxStatus, to_bytes
from tests.tournament.cup import KEY, Cup, deliver, make_cup
from tests.web.browser import LoopThread, chromium, wait_for

LONG = ["Maximiliana Konstantinopolskaya-Rimskaya", "Александра Длиннофамильная-Двойная"]


def fits(driver: WebDriver) -> None:
    width = driver.execute_script("return document.documentElement.clientWidth")
    scroll = driver.execute_script("return document.documentElement.scrollWidth")
    assert scroll <= width, f"sideways scroll: the page is {scroll} px wide in a {width} px window"
    points = driver.find_element(By.XPATH, "//table[@class='standings']//th[last()]")
    box = points.rect
    assert points.text in ("Points", "Баллы") and box["x"] + box["width"] <= width, box


def test_the_page_on_a_phone(tmp_path: Path) -> None:
    cup = make_cup(tmp_path, names=LONG)
    loop = LoopThread()
    port = free_port()
    try:
        loop.call(_played(cup, port))
        with chromium(tmp_path / "profile") as driver:
            # The page's own width exactly (the window's includes the browser's frame).
            driver.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {"width": 412, "height": 915, "deviceScaleFactor": 1, "mobile": True},
            )
            driver.get(f"http://127.0.0.1:{port}/?lang=en")
            assert driver.execute_script("return document.documentElement.clientWidth") == 412
            sections = driver.find_elements(By.CSS_SELECTOR, "main section")
            assert sections[0].find_element(By.TAG_NAME, "h2").text.lower() == "where do i sit"
            standings = driver.find_element(By.XPATH, "//h2[normalize-space()='Standings']")
            assert sections[0].rect["y"] < standings.rect["y"]
            assert sections[0].rect["y"] < 300  # on the first screen, under the title
            assert "playing since" in driver.find_element(By.TAG_NAME, "body").text
            fits(driver)
            field = driver.find_element(By.NAME, "who")
            field.send_keys(LONG[1])
            field.submit()
            where = wait_for(
                driver, lambda d: "Round 2: table" in d.find_element(By.CSS_SELECTOR, ".where").text
            )
            assert where
            text = driver.find_element(By.CSS_SELECTOR, ".where").text
            assert "Round 1: table" in text and "seat" in text
            fits(driver)
            # The organiser, signed in: every control on the page, still no sideways scroll.
            driver.get(f"http://127.0.0.1:{port}/login?lang=ru")
            key = driver.find_element(By.NAME, "key")
            key.send_keys(KEY)
            key.submit()
            wait_for(
                driver,
                lambda d: "управление организатора" in d.find_element(By.TAG_NAME, "body").text.lower(),
            )
            fits(driver)
    finally:
        loop.call(cup.collector.stop())
        loop.close()


async def _played(cup: Cup, port: int) -> None:
    """Round 1: table 1's game in, table 2 playing day 3 for a quarter of an hour."""
    await cup.collector.start("127.0.0.1", port)
    async with TestClient(TestServer(cup.collector.app())) as client:
        assert (await deliver(client, cup.game(1, 1, seed=15)))[1]["kept"] == "new"
        body = to_bytes(BoxStatus("Box 2", 8082, "Cup", 1, 2, 1, True, "day", 3, cup.collector.now() - 900))
        reply = await client.post(
            STATUS_PATH, data=body, headers=sign_request(KEY, "POST", STATUS_PATH, body)
        )
        assert reply.status == 200
