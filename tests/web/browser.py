"""A real browser for the page tests, and a box that runs beside it.

Chromium (Debian's `chromium` with `chromium-driver`, installed by scripts/setup) runs
headless through selenium, in a fresh profile under the test's tmp dir. The box, its
page and its simulated players run on an asyncio loop in a thread of their own, on a
virtual clock that the test moves; the test thread drives the browser, which waits for
the page with WebDriverWait (a real browser needs real time to draw, so that is the
one place these tests wait on the wall clock, and only until a condition holds).
"""

from __future__ import annotations

import asyncio
import shutil
import threading
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from selenium import webdriver
from selenium.common.exceptions import (
    NoSuchElementException,
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver.chrome.service import Service as DriverService
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

T = TypeVar("T")

CHROME_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage")


@contextmanager
def chromium(profile: Path, size: tuple[int, int] = (412, 915)) -> Iterator[WebDriver]:
    """Headless chromium with a phone-size window (412 x 915, a common Android phone)."""
    binary = shutil.which("chromium") or "/usr/bin/chromium"
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in CHROME_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={size[0]},{size[1]}")
    driver = webdriver.Chrome(service=DriverService(executable_path=driver_path), options=options)
    try:
        driver.set_page_load_timeout(30)
        yield driver
    finally:
        driver.quit()


def wait_for(driver: WebDriver, condition: Callable[[WebDriver], Any], seconds: float = 10) -> Any:
    """Wait until `condition` holds; the live part is swapped as the box changes, so an
    element that went stale or is not there yet only means "not yet"."""
    ignored = (StaleElementReferenceException, NoSuchElementException)

    def holds(d: WebDriver) -> Any:
        try:
            return condition(d)
        except WebDriverException as exc:
            # chromedriver reports an element swapped out between finding and reading it
            # this way too, not always as a stale reference (seen once in ~35 suite runs).
            if "does not belong to the document" in str(exc.msg):
                return False
            raise

    return WebDriverWait(driver, seconds, poll_frequency=0.05,
                         ignored_exceptions=ignored).until(holds)


class LoopThread:
    """An asyncio loop in a thread; `call` runs a coroutine there and waits for it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def call(self, coro: Coroutine[Any, Any, T], timeout: float = 120) -> T:
        future: Future[T] = asyncio.run_coroutine_threadsafe(coro, self.loop)
        return future.result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()
