"""The organiser's page: how soon an open page shows a change of the box.

- web_update_ms_p95 / _median: a correction applied to the engine (a foul, then its undo,
  alternately) to the page in headless chromium having drawn it. The box and its page run
  on their own asyncio loop in a thread, as in the daemon; the change is stamped with the
  wall clock just before the Box applies it, the page stamps `Date.now()` in the first
  animation frame after it swapped the new fragment in (what a person would see).
- web_load: the load average (1 min) while it ran: the machine is shared.

It needs chromium, chromium-driver and selenium (scripts/setup installs them with the
test tools); without them it reports why instead of a figure.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

_STAMP = """
const live = document.getElementById("live");
window.__shown = [];
new MutationObserver(() => requestAnimationFrame(() => window.__shown.push(Date.now())))
  .observe(live, {childList: true});
"""


def run(quick: bool) -> dict[str, float | int | str]:
    try:
        from selenium import webdriver  # noqa: F401
    except ImportError:
        return {"web_update_ms_p95": "n/a: selenium is not installed"}
    if shutil.which("chromium") is None or shutil.which("chromedriver") is None:
        return {"web_update_ms_p95": "n/a: chromium and chromium-driver are not installed"}
    samples = 10 if quick else 200
    with tempfile.TemporaryDirectory() as tmp:
        latencies = _measure(Path(tmp), samples)
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return {"web_update_ms_p95": round(p95, 1),
            "web_update_ms_median": round(statistics.median(ordered), 1),
            "web_update_samples": len(ordered),
            "web_load": round(os.getloadavg()[0], 2)}


def _measure(folder: Path, samples: int) -> list[float]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service as DriverService

    from narrator.engine.actions import Foul, Undo

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    def call(coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, loop).result(120)

    box, server, stop = call(_box_with_page(folder))
    options = webdriver.ChromeOptions()
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={folder / 'profile'}",
                 "--window-size=412,915"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=DriverService(shutil.which("chromedriver")), options=options)
    out: list[float] = []
    try:
        driver.get(f"http://127.0.0.1:{server.port}/game")
        _wait(driver, "return document.getElementById('live').dataset.game === 'bench'")
        time.sleep(0.5)  # the stream is open: its first message has come
        driver.execute_script(_STAMP)
        for i in range(samples):
            action = Foul(2) if i % 2 == 0 else Undo()
            sent = call(_apply(box, action))
            _wait(driver, f"return window.__shown.length > {i}")
            shown = float(driver.execute_script(f"return window.__shown[{i}]"))
            out.append(shown - sent)
            time.sleep(0.02)
    finally:
        driver.quit()
        call(stop())
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
    return out


def _wait(driver: Any, script: str, seconds: float = 10) -> None:
    end = time.monotonic() + seconds
    while not driver.execute_script(script):
        if time.monotonic() > end:
            raise TimeoutError(f"the page did not get there: {script}")
        time.sleep(0.002)


async def _apply(box: Any, action: Any) -> float:
    sent = time.time() * 1000
    box.apply_now(action)
    return sent


async def _box_with_page(folder: Path) -> tuple[Any, Any, Any]:
    """A sport game on a virtual clock brought to day 1's first speech (time then stands
    still, so the only changes are the bench's), with its page on a free port."""
    from narrator.box.build import build
    from narrator.boxconfig import load_settings
    from narrator.clock import FakeClock
    from narrator.engine.deal import deal
    from narrator.phrases.book import PhraseBook
    from narrator.records.journal import GameHeader
    from narrator.records.session import GameSession
    from narrator.rules.loader import load_bundled
    from narrator.voice.fake import FakeSpeaker
    from narrator.web.auth import PinGate
    from narrator.web.site import make_server

    clock = FakeClock()
    settings = load_settings(None, {"state_dir": str(folder / "state"), "keypad": "none"})
    header = GameHeader(rules="sport", seats=10, seed=1, roles=tuple(deal(load_bundled("sport"), 10, 1)),
                        game_id="bench", started="2025-01-01T20:00:00")
    session, opening = GameSession.start(settings.state_dir, header)
    box = build(session, FakeSpeaker(clock), PhraseBook.load("en"), clock)

    class Host:
        def __init__(self) -> None:
            self.box = box
            self.settings = settings
            self.on_box: list[Any] = []

    server = make_server(Host(), PinGate("0000", clock.now), clock)
    box.start(opening)
    st = box.game.state
    while not (st.phase == "day" and st.window and box.performer.timers.is_open(st.window)):
        await clock.step()
        st = box.game.state
    await server.start("127.0.0.1", 0)

    async def stop() -> None:
        await server.stop()
        await box.stop()

    return box, server, stop
