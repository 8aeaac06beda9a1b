"""The first run: only the speech the rule set needs is rendered, the first needed first,
in the background; the box greets the table before it is done, and the progress is told
on the organiser's page (and in the log)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from narrator.box.warmup import needed_cues, needed_texts
from narrator.clock import FakeClock
from narrator.devices.keypads import FakeKeypad
from narrator.phrases.book import PhraseBook
from narrator.phrases.variants import likely_texts
from narrator.rules.loader import load_bundled
from tests.box.test_service import make_service


def test_only_the_cues_a_rule_set_says_the_first_needed_first() -> None:
    sport = load_bundled("sport")
    cues = needed_cues(sport, 10)
    assert cues[:2] == ["ready", "web_page"]
    # Night zero before the first day, the first day before the end.
    assert cues.index("night_zero") < cues.index("mafia_meet") < cues.index("morning")
    assert cues.index("speaker") < cues.index("win_black") or cues.index("speaker") < cues.index("win_red")
    # Princeton's words are no sport game's: not rendered for it.
    assert "accusations_open" not in cues and "ask_second" not in cues
    book = PhraseBook.load("en").for_rules("sport")
    texts = needed_texts(book, sport, 10)
    assert len(texts) == len(set(texts))
    assert len(texts) < len(set(likely_texts(book, sport, 10))) / 2
    assert texts[0] == "The narrator is ready."
    assert book.render("night_zero", {}) in texts[:5]


class SlowSpeakerPrepare:
    """Holds the background rendering until the test lets it go."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.calls = 0

    def __call__(self, texts: Iterable[str]) -> int:
        self.calls += 1
        self.release.wait(10)
        return len(list(texts))


def test_the_box_greets_the_table_while_the_speech_is_still_rendered(tmp_path: Path) -> None:
    clock = FakeClock()
    service, _panel, speaker = make_service(tmp_path, clock, FakeKeypad())
    slow = SlowSpeakerPrepare()
    speaker.prepare = slow  # type: ignore[method-assign]

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(service.run(games=1))
        while not speaker.said:
            assert await clock.step()
        assert speaker.said[0][1] == "The narrator is ready."
        while service.warmup.total == 0:
            await asyncio.sleep(0.01)  # the texts are found on a worker thread
        assert not service.warmup.ready
        view = service_view(service)
        assert view is not None and view["voice_cache"] == {"done": 0, "total": service.warmup.total}
        slow.release.set()
        while not service.warmup.ready:
            await asyncio.sleep(0.01)  # the worker thread finishes its chunks
        after = service_view(service)
        assert after is not None and "voice_cache" not in after
        task.cancel()

    asyncio.run(main())
    assert slow.calls > 1  # rendered in chunks, progress told between them


def service_view(service: object) -> dict[str, Any] | None:
    from narrator.web.auth import PinGate
    from narrator.web.server import WebServer

    server = WebServer(service, PinGate("1234", lambda: 0.0), FakeClock())  # type: ignore[arg-type]
    return server.view()
