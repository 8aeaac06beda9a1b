"""The memory card under faults outside a game's journal lines: the protocol can't be
written when the game ends, a new game's journal can't be made, the state file found on
start is unreadable. The card is made to fail for real: where the box writes is a file
instead of a folder (the OS refuses, as a read-only or full card does), or the journal is
garbage bytes. The game goes on or the box waits, says so and shows it; nothing already
written is lost or set aside as abandoned."""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from narrator.box.referee import GO_ON_SECONDS, Box
from narrator.clock import FakeClock
from narrator.devices.keypads import FakeKeypad
from narrator.records.disk import FileOps
from narrator.records.journal import read, replay
from narrator.web import pages
from narrator.web.reading import view_of
from narrator.web.text import text
from tests.box.test_service import make_service, start
from tests.faults.disk_box import box_on_disk

SPORT = ("civilian",) * 6 + ("sheriff", "mafia", "mafia", "don")


def test_a_protocol_that_cannot_be_written_leaves_the_game_end_said_and_is_written_later(
        tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    blocked = state / "protocols"
    blocked.write_text("the card refuses this folder")  # mkdir fails: OSError

    async def main() -> tuple[list[str], str, list[str]]:
        clock = FakeClock()
        keypad = FakeKeypad()
        service, _panel, _speaker = make_service(tmp_path, clock, keypad)
        keypad.attach(service.submit)
        task = await start(service, games=2)
        first = service.box
        assert first is not None
        while not first.game.over or not first.performer.idle:
            assert await clock.step(), "the game froze"
        cues = [s.cue for s in first.performer.spoken]
        light = service.status_light.state
        # Still unfinished on disk: not archived, and above all not as abandoned.
        assert (state / "journal" / "current.jsonl").is_file()
        assert not list((state / "games").glob("*"))
        blocked.unlink()  # the card can be written again
        for _ in range(20):
            await clock.step()
        keypad.press("enter")  # the host starts the next game
        while service.box is first or not service.box.performer.spoken:  # type: ignore[union-attr]
            assert await clock.step()
        assert service.box is not None
        second = [s.cue for s in service.box.performer.spoken]
        assert service.status_light.state == "game" and not service.notices.items
        task.cancel()
        return cues, light, second

    cues, light, second = asyncio.run(main())
    win = [c for c in cues if c.startswith("win_")]
    assert win, "the winner was never said"
    assert "protocol_unsaved" in cues[cues.index(win[0]):]
    assert "protocol_saved" not in cues
    assert light == "error"
    # The first game's protocol was written once the card came back, with its winner,
    # and its journal archived as a finished game.
    protocols = [p for p in (state / "protocols").glob("*.json")
                 if not p.name.endswith(".polemica.json")]
    assert len(protocols) == 1
    data = json.loads(protocols[0].read_text())
    assert data["winner"] in ("red", "black")
    archived = list((state / "games").glob("*.jsonl"))
    assert len(archived) == 1 and "abandoned" not in archived[0].name
    assert '"end"' in archived[0].read_text().splitlines()[-1]
    assert "new_game" in second


def test_a_card_that_refuses_the_journal_at_start_up_is_said_shown_and_retried(
        tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    blocked = state / "journal"
    blocked.write_text("the card refuses this folder")

    async def main() -> tuple[list[str], str, list[str], list[str]]:
        clock = FakeClock()
        keypad = FakeKeypad()
        service, _panel, speaker = make_service(tmp_path, clock, keypad)
        task = asyncio.get_running_loop().create_task(service.run(games=1))
        for _ in range(30):  # three tries, five seconds apart on the clock
            await clock.step()
            if not task.done() and clock.now() > 12:
                break
        assert not task.done(), "the box stopped"
        assert service.box is None
        said = [text for _at, text in speaker.said]
        light, notices = service.status_light.state, list(service.notices.items)
        blocked.unlink()  # the card takes writes again
        while service.box is None or len(service.box.performer.spoken) < 2:
            assert await clock.step()
        cues = [s.cue for s in service.box.performer.spoken]
        task.cancel()
        assert service.status_light.state == "game" and not service.notices.items
        return said, light, notices, cues

    said, light, notices, cues = asyncio.run(main())
    assert said == ["The memory card cannot be written, so no game can be saved. The "
                    "organiser's page says why; the box keeps trying."]  # once, not per try
    assert light == "error" and notices == ["card"]
    assert cues[:2] == ["ready", "new_game"]


@pytest.mark.parametrize("damage", ["zeros", "garbage_header", "rules_gone"])
def test_an_unreadable_state_file_is_kept_aside_said_and_a_new_game_begins(
        tmp_path: Path, damage: str, caplog: pytest.LogCaptureFixture) -> None:
    """A power cut on a cheap card can leave a block of zeros where the journal's header
    was; a header can name a rule-set file that is gone. The box must not exit (systemd
    would not restart it after exit 2: the evening would be over)."""
    journal = tmp_path / "state" / "journal"
    journal.mkdir(parents=True)
    action = json.dumps({"at": 5.0, "wall": 1.7e9, "action": {"kind": "tap", "seat": 3}})
    header = {"journal": 1, "wall": 1.7e9, "header": {
        "rules": str(tmp_path / "gone.yaml"), "seats": 10, "seed": 1, "lang": "en",
        "settings": {}, "roles": None, "game_id": "g", "started": "", "history": 200}}
    broken = {
        "zeros": b"\0" * 4096 + b"\n" + action.encode() + b"\n",
        "garbage_header": b'{"journal": 1, "header": 7}\n' + action.encode() + b"\n",
        "rules_gone": json.dumps(header).encode() + b"\n" + action.encode() + b"\n",
    }[damage]
    (journal / "current.jsonl").write_bytes(broken)

    async def main() -> list[str]:
        clock = FakeClock()
        keypad = FakeKeypad()
        service, _panel, _speaker = make_service(tmp_path, clock, keypad)
        task = await start(service)
        box = service.box
        assert box is not None
        while "new_game" not in [s.cue for s in box.performer.spoken]:
            assert await clock.step()
        assert "record" in service.notices.items
        task.cancel()
        return [s.cue for s in box.performer.spoken]

    with caplog.at_level(logging.ERROR, logger="narrator.service"):
        cues = asyncio.run(main())
    assert cues[:2] == ["ready", "journal_unreadable"] and "new_game" in cues
    kept = list(journal.glob("current.broken-*.jsonl"))
    assert len(kept) == 1 and kept[0].read_bytes() == broken  # kept whole
    lines = [r.getMessage() for r in caplog.records if "could not be read" in r.getMessage()]
    assert len(lines) == 1 and "\n" not in lines[0] and str(kept[0]) in lines[0]


def test_a_card_gone_read_only_pauses_then_the_game_goes_on_and_is_saved_if_it_comes_back(
        tmp_path: Path) -> None:
    """A card that turns read-only mid-game does not come back by itself: a technical
    pause of GO_ON_SECONDS, then the game goes on with its lines held in memory; the page
    says the game is not being saved (not "nothing is lost"). Here the card does come back
    later: every line reaches it, in order, and the journal replays to the same game."""
    clock = FakeClock()
    gate = threading.Event()

    class ReadOnly(FileOps):
        def write(self, fd: int, data: bytes) -> int:
            if not gate.is_set():
                raise OSError(errno.EROFS, "Read-only file system")
            return super().write(fd, data)

    async def main() -> tuple[list[str], int, int, dict[str, Any], Box]:
        made = box_on_disk(tmp_path, clock, ReadOnly())
        box, session, speaker, until = made.box, made.session, made.speaker, made.until
        made.start()
        await until(lambda: box.disk_fault is not None)
        stopped = box.game.state.window
        await until(lambda: box.unsaved)
        assert clock.now() >= GO_ON_SECONDS
        view = view_of(box).to_json()
        page = pages.live_fragment(text("en"), view)
        await until(lambda: box.game.state.window > stopped + 5)  # the game goes on
        gone_on = box.game.state.window
        gate.set()  # the card is back (remounted): the held lines go to it
        await until(lambda: box.disk_fault is None)
        await box.stop()
        session.journal.close()
        assert view["unsaved"] and "Not saved" in page and "nothing is lost" not in page
        return [t for _a, t in speaker.said], stopped, gone_on, box.game.state.to_json(), box

    said, stopped, gone_on, final, _box = asyncio.run(main())
    pause = said.index("Technical pause. Please wait.")
    assert said.index("The technical pause is over. We continue.") > pause
    assert said.count("The technical pause is over. We continue.") == 1  # not again at the end
    assert gone_on > stopped
    contents = read(tmp_path / "journal" / "current.jsonl")
    game, replayed, refused = replay(contents, "j")
    assert refused is None and replayed == len(contents.entries)
    assert game.state.to_json() == final  # every action reached the card, in order


def test_a_lost_sound_device_is_on_the_status_led_and_the_page_until_it_is_back(
        tmp_path: Path) -> None:
    """The USB speaker is unplugged mid-game: the speaker's real Player fails on its
    stream (and holds each clip's time: tests/voice/test_playback.py) and tells the
    service from its thread; the service shows it on the status LED and the page, whose
    live part keeps showing each cue as it is said; plugged back in, the next clip plays
    and both clear. No polling: a box between games leaves the clock idle."""
    import numpy as np

    from narrator.voice.fake import FakeOutputStream
    from narrator.voice.playback import Player
    from narrator.voice.wav import Clip

    streams = [FakeOutputStream(fail=True), FakeOutputStream()]
    player = Player(sample_rate=8000, open_stream=lambda **_: streams.pop(0))
    clip = Clip(np.zeros(80, dtype=np.float32), 8000)

    async def later(clock: FakeClock, seconds: float) -> None:
        until = clock.now() + seconds
        while clock.now() < until:
            assert await clock.step()

    async def main() -> None:
        clock = FakeClock()
        service, _panel, speaker = make_service(tmp_path, clock, FakeKeypad())
        speaker.player = player  # what the real speaker plays on
        task = await start(service)
        box = service.box
        assert box is not None
        await later(clock, 2.5)  # the player tells the service from its thread
        light = service.status_light
        assert light.state_now() == "game" and "sound" not in service.notices.items
        await asyncio.wait_for(asyncio.wrap_future(player.play(clip).done), 5)  # unplugged
        assert player.failed
        await later(clock, 2.5)  # the player tells the service from its thread
        assert light.state_now() == "error"
        assert "fake device lost" in service.notices.items["sound"].params["error"]
        said = box.performer.last_said
        while box.performer.last_said == said:
            assert await clock.step()
        assert pages.live_fragment(text("en"), view_of(box).to_json()).count(box.performer.last_said) == 1
        await asyncio.wait_for(asyncio.wrap_future(player.play(clip).done), 5)  # plugged in
        assert not player.failed
        await later(clock, 2.5)  # the player tells the service from its thread
        assert light.state_now() == "game" and "sound" not in service.notices.items
        task.cancel()

    try:
        asyncio.run(main())
    finally:
        player.close()


def test_a_full_card_never_spoils_a_file_already_saved(tmp_path: Path) -> None:
    """The set-up remembered for the next game (names), the PIN and the protocols are
    rewritten whole: on a card that takes no more bytes (here the OS's file-size limit, a
    real EFBIG from write(2)) the old file stays as it was, and no half file is left."""
    import resource
    import signal

    from narrator.box.memory import last_setup, remember
    from narrator.evening.setup import GameSetup

    state = tmp_path / "state"
    names = tuple(f"Player {n}" for n in range(1, 11))
    remember(state, GameSetup(rules="sport", seats=10, names=names))
    before = (state / "evening.json").read_bytes()
    old_signal = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG, not a kill
    old_limit = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (64, old_limit[1]))
    try:
        remember(state, GameSetup(rules="sport", seats=10, names=tuple("ABCDEFGHIJ")))
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old_limit)
        signal.signal(signal.SIGXFSZ, old_signal)
    assert (state / "evening.json").read_bytes() == before
    last = last_setup(state)
    assert last is not None and last.names == names
    assert sorted(p.name for p in state.iterdir()) == ["evening.json"]


def test_a_card_that_stays_unwritable_lets_the_table_play_unsaved(tmp_path: Path) -> None:
    """Eight games tonight and a card that will not take a journal (full, read-only after
    fsck): after three tries the game begins all the same, unsaved, and the table and the
    page are told so (note the result by hand); the LED stays on error. Once the card is
    back, the next game is saved again."""
    state = tmp_path / "state"
    state.mkdir()
    blocked = state / "journal"
    blocked.write_text("the card refuses this folder")

    async def main() -> tuple[list[str], bool, str, list[str], list[str]]:
        clock = FakeClock()
        keypad = FakeKeypad()
        service, _panel, _speaker = make_service(tmp_path, clock, keypad)
        keypad.attach(service.submit)
        task = asyncio.get_running_loop().create_task(service.run(games=2))
        await drive_until(clock, lambda: service.box is not None)  # after three tries
        first = service.box
        assert first is not None and clock.now() >= 3 * 5.0
        await drive_until(clock, lambda: first.game.over and first.performer.idle)
        cues = [s.cue for s in first.performer.spoken]
        light, notices = service.status_light.state_now(), list(service.notices.items)
        blocked.unlink()  # the card is back
        keypad.press("enter")
        await drive_until(clock, lambda: service.box is not first)
        second = service.box
        assert second is not None
        await drive_until(clock, lambda: len(second.performer.spoken) > 0)
        task.cancel()
        return cues, first.game.over, light, notices, list(service.notices.items)

    cues, over, light, notices, after = asyncio.run(main())
    assert over and cues[:2] == ["ready", "game_unsaved"] and "new_game" in cues
    assert light == "error" and "card" in notices
    assert "card" not in after
    assert (state / "journal" / "current.jsonl").is_file()  # the second game is saved
    assert not (state / "protocols").exists()  # the first left nothing behind


async def drive_until(clock: FakeClock, done: Callable[[], bool], limit: float = 20_000) -> None:
    start_at = clock.now()
    while not done():
        if not await clock.step():
            clock.advance(1.0)
        assert clock.now() - start_at < limit, "never happened"


def test_a_card_that_refuses_the_pin_still_gives_the_page_one(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Found for real: `narrator run` on a full card, first start (no PIN kept yet), died
    with ENOSPC making the page's PIN, before a word was said: a restart loop."""
    from narrator.web.auth import load_or_make_pin

    state = tmp_path / "state"
    state.write_text("the card refuses this folder")
    pin = load_or_make_pin(None, state)
    assert pin.isdigit() and len(pin) == 4
    assert "cannot keep the page's PIN" in caplog.text
