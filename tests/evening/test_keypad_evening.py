"""A club evening with the private keypad alone, on a box without seat pads (a laptop with
`--keypad terminal`): several games in a row, the host's keys starting each next one. Every
cue tells the players what to press, every answer shows on the keypad's screen and is
gone before the next game, every game's protocol is written in the formats a rating reads,
and nothing from one game carries into the next (half-typed keys, a pause, an abandon
asked)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from narrator.box.ports import Ports
from narrator.box.referee import Box
from narrator.box.service import Service
from narrator.boxconfig import load_settings
from narrator.cli import main as cli
from narrator.clock import FakeClock
from narrator.devices.keypads import FakeKeypad
from narrator.engine.deal import deal
from narrator.engine.effects import ShowAnswer
from narrator.evening import Event, GameSetup
from narrator.records.polemica import parse_record
from narrator.sdnotify import Notifier
from narrator.sim.driver import PadPlayers
from narrator.sim.players import Table
from narrator.voice.fake import FakeSpeaker

PAD = {"en": re.compile(r"\bpads?\b|\btap", re.IGNORECASE),
       "ru": re.compile(r"кноп|коснит", re.IGNORECASE)}
KEYPAD = {"en": re.compile(r"\bkeypad\b"), "ru": re.compile(r"клавиатур")}


@dataclass
class Evening:
    service: Service
    keypad: FakeKeypad
    speaker: FakeSpeaker
    clock: FakeClock
    boxes: list[Box] = field(default_factory=list)
    answers: list[list[ShowAnswer]] = field(default_factory=list)  # per game


def evening(tmp: Path, setup: GameSetup, play: bool = True) -> Evening:
    """A box without pads, its keypad with a screen; `play`: simulated players at the keypad."""
    clock = FakeClock()
    keypad = FakeKeypad(clock=clock)
    settings = load_settings(None, {"state_dir": str(tmp / "state"),
                                    "cache_dir": str(tmp / "cache"), "keypad": "none"})
    speaker = FakeSpeaker(clock)
    service = Service(settings, Ports(speaker, None, [keypad]), clock, Notifier(""), setup=setup)
    service.evening.next()  # the host asks for the game: nothing starts unasked
    ev = Evening(service, keypad, speaker, clock)

    def seat_players(box: Box) -> None:
        shown: list[ShowAnswer] = []
        ev.answers.append(shown)
        box.listeners.append(lambda _a, effects: shown.extend(
            e for e in effects if isinstance(e, ShowAnswer)))
        ev.boxes.append(box)
        if not play:
            return
        rules = box.game.engine.rules
        seed = 7 + len(ev.boxes)
        table = Table(rules, seed, foul_rate=0.02, cards=deal(rules, setup.seats, seed))

        def no_pads(seat: int, down: bool) -> None:
            raise AssertionError("nobody has a pad at this table")

        PadPlayers(box, table, no_pads, keypad, clock, seed, keypad_only=True)

    service.on_box.append(seat_players)
    keypad.attach(service.submit)
    return ev


def run(ev: Evening, games: int, host: Callable[[Evening], Coroutine[Any, Any, None]]) -> None:
    async def main() -> None:
        task = asyncio.get_running_loop().create_task(ev.service.run(games=games))
        helper = asyncio.get_running_loop().create_task(host(ev))
        while not task.done():
            if not await ev.clock.step():
                ev.clock.advance(1.0)
            assert ev.clock.now() < 100_000, "the evening did not finish"
        await task
        helper.cancel()

    asyncio.run(main())


async def enter_between_games(ev: Evening) -> None:
    """The host: after each game, a bare Enter (the keypad's start key)."""
    seen = 0
    while True:
        await ev.clock.sleep(5)
        if ev.service.games > seen and not ev.service.evening.in_play:
            seen = ev.service.games
            ev.keypad.press("enter")


def in_start_order(path: Path) -> tuple[str, int]:
    """A game id is its start second, with "-2", "-3"... for the next games begun in that same
    second (a quick evening on a virtual clock): by name, "x-2.json" would come before "x.json"."""
    base, _, n = path.stem.partition("-")[2].partition("-")
    return path.stem.split("-")[0] + base, int(n or 1)


NAMES = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")


@pytest.mark.parametrize(("rules", "lang", "games"), [("sport", "en", 3), ("club", "ru", 2)])
def test_an_evening_on_the_keypad_alone(tmp_path: Path, rules: str, lang: str, games: int,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    setup = GameSetup(rules=rules, seats=10, lang=lang, names=NAMES, event=Event("Cup", 1, 1, 1))
    ev = evening(tmp_path, setup)
    run(ev, games, enter_between_games)
    assert ev.service.games == games and len(ev.boxes) == games
    texts = [t for _at, t in ev.speaker.said]
    # Every cue names the keypad, none the pads the table does not have.
    assert not [t for t in texts if PAD[lang].search(t)]
    assert sum(bool(KEYPAD[lang].search(t)) for t in texts) >= 3 * games
    screen = ev.keypad.screen
    assert screen is not None
    answer_word = {"en": "answer: ", "ru": "ответ: "}[lang]
    answers = [s for s in screen.shown if s.text.startswith(answer_word)]
    reveals = [s for s in screen.shown if not s.text.startswith(answer_word)]
    # Every answer went to the screen and was wiped after its time.
    assert len(answers) == sum(len(a) for a in ev.answers) > 0
    assert all(s.until is not None and s.until - s.at == pytest.approx(a.seconds)
               for s, a in zip(answers, [a for game in ev.answers for a in game], strict=True))
    # After each game its cards not of the town, until the next game begins.
    assert len(reveals) == games
    for shown, box in zip(reveals, ev.boxes, strict=True):
        deck, st = box.game.engine.rules.roles, box.game.state
        black = [s for s in range(1, 11) if deck[st.roles[s]].team != "red"]
        assert all(re.search(rf"\b{s}\b", shown.text) for s in black), (shown.text, black)
    assert all(s.until is not None for s in reveals[:-1]) and reveals[-1].until is None
    folder = tmp_path / "state" / "protocols"
    protocols = sorted((p for p in folder.glob("*.json") if not p.name.endswith(".polemica.json")),
                       key=in_start_order)
    assert len(protocols) == games
    for number, (path, box) in enumerate(zip(protocols, ev.boxes, strict=True), start=1):
        data = json.loads(path.read_text())
        game = data["game"]
        assert game["input"] == "keypad" and game["lang"] == lang and game["rules"] == rules
        assert game["event"] == {"tournament": "Cup", "table": 1, "round": 1, "game": number}
        assert [p["name"] for p in data["players"]] == list(NAMES)
        assert data["winner"] == box.game.state.outcome.winner  # type: ignore[union-attr]
        # Each game's own record only: its nights from night zero, its own eliminations.
        assert data["nights"][0]["number"] == 0
        assert len(data["eliminations"]) == sum(not a for a in box.game.state.alive[1:])
        html = path.with_suffix(".html").read_text()
        assert all(name in html for name in NAMES)
        # The paper sheet writes down each night kill the keypad made, not a miss.
        shot = [o["seat"] for o in data["eliminations"] if o["how"] == "shot"]
        assert all(re.search(rf"\): →{seat}\b", html) for seat in shot), shot
        polemica = path.with_name(path.stem + ".polemica.json")
        if rules == "sport":  # the format a rating imports: read back, and replayed
            record = parse_record(polemica.read_text(), str(polemica))
            assert record.result == data["winner"] and record.roles == box.game.state.roles[1:]
            assert cli(["replay", str(polemica), "--json"]) == 0
            assert json.loads(capsys.readouterr().out)["winner"] == data["winner"]
        # The page's next game after this one: the same names, the game number on.
    assert ev.service.evening.setup.event.game == games


def test_nothing_typed_or_paused_in_one_game_carries_into_the_next(tmp_path: Path) -> None:
    ev = evening(tmp_path, GameSetup(rules="sport", seats=10, names=NAMES), play=False)
    seen: dict[str, Any] = {}

    async def host(ev: Evening) -> None:
        svc, keys = ev.service, ev.keypad
        while svc.box is None or svc.box.game.state.phase != "night" or \
                not svc.box.performer.timers.open_windows():
            await ev.clock.sleep(0.5)
        keys.press("-")  # the host pauses the first game...
        await ev.clock.sleep(1)
        keys.press("/", "0", "enter")
        await ev.clock.sleep(1)
        keys.press("/", "0", "enter")  # ...abandons it (confirmed)...
        while svc.games < 1:
            await ev.clock.sleep(0.5)
        keys.press("3")  # ...a stray digit between games...
        svc.evening.next()  # ...and the page starts the next game
        while len(ev.boxes) < 2 or ev.boxes[1].game.state.phase != "night" or \
                not ev.boxes[1].performer.timers.open_windows():
            await ev.clock.sleep(0.5)
        box = ev.boxes[1]
        seen["typed"] = keys.decoder.typed
        keys.press("-")  # one press pauses the new game
        await ev.clock.sleep(1)
        seen["paused"] = box.game.state.paused
        keys.press("-")
        await ev.clock.sleep(1)
        keys.press("/", "0", "enter")  # the first /0 of this game asks again
        await ev.clock.sleep(1)
        seen["asked"] = ev.speaker.said[-1][1]
        seen["in_play"] = svc.evening.in_play
        await ev.clock.sleep(10)  # the question lapses
        # Abandoned while an answer is on the screen: it goes with the game.
        screen = keys.screen
        assert screen is not None
        while not screen.current:
            await ev.clock.sleep(0.1)
        keys.press("/", "0", "enter")
        keys.press("/", "0", "enter")
        await ev.clock.sleep(0.2)
        seen["left_on_screen"] = screen.current
        seen["shown_for"] = screen.shown[-1].until - screen.shown[-1].at  # type: ignore[operator]

    run(ev, 2, host)
    assert seen["left_on_screen"] == "" and seen["shown_for"] < 1.0
    assert seen["typed"] == ""
    assert seen["paused"] is True
    assert seen["in_play"] and seen["asked"].startswith("Abandon this game?")


def test_a_keypad_demo_records_its_input_method(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["demo", "--fast", "--input", "keypad", "--state-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    journal = next((tmp_path / "games").glob("*.jsonl"))
    assert json.loads(journal.read_text().splitlines()[0])["header"]["input"] == "keypad"
    protocol = next(p for p in (tmp_path / "protocols").glob("*.json")
                    if not p.name.endswith(".polemica.json"))
    assert json.loads(protocol.read_text())["game"]["input"] == "keypad"
