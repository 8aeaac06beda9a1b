"""Screenshots of the tournament's standings page for the README (docs/tournament-*.png):
a whole `--demo` tournament of 2 tables and 2 rounds is played, then headless Chromium
opens its page at phone (412 x 915) and laptop (1280 x 800) size.

    NARRATOR_PURE_ENGINE=1 .venv/bin/python scripts/tournament_screenshots.py
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from narrator.tournament.demo import run_demo
from narrator.tournament.signing import make_key

DOCS = Path(__file__).resolve().parent.parent / "docs"
SIZES = {"phone": (412, 915), "laptop": (1280, 800)}


def shoot(url: str, profile: Path) -> None:
    for name, (width, height) in SIZES.items():
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for flag in (
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            f"--user-data-dir={profile / name}",
            f"--window-size={width},{height}",
        ):
            options.add_argument(flag)
        driver = webdriver.Chrome(
            service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options
        )
        try:
            driver.get(url)
            driver.save_screenshot(str(DOCS / f"tournament-{name}.png"))
        finally:
            driver.quit()


async def main() -> None:
    with tempfile.TemporaryDirectory(prefix="shots-") as tmp:
        collector = await run_demo(2, 2, Path(tmp), make_key())
        try:
            await asyncio.to_thread(shoot, collector.url + "/?lang=en", Path(tmp) / "profiles")
        finally:
            await collector.stop()


if __name__ == "__main__":
    asyncio.run(main())
    sys.exit(0)
