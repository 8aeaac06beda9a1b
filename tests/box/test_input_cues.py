"""A table plays with pads, with the private keypad alone, or with both: every cue tells
the players to use what the table has. A keypad-only evening (`narrator demo --input
keypad`, `narrator run` on a box without pads) never hears of pads; a pad table still taps
its pads."""

from __future__ import annotations

import asyncio
import contextlib
import re
from functools import cache
from pathlib import Path

import pytest

from narrator.boxconfig import load_settings
from narrator.clock import FakeClock
from narrator.daemon import Box
from narrator.demo import DemoOptions, DemoResult, play_demo
from narrator.devices.fake import FakeSeatPanel
from narrator.devices.keypads import FakeKeypad
from narrator.engine.deal import deal
from narrator.errors import ConfigError
from narrator.rules.loader import bundled_names, load_bundled
from narrator.sdnotify import Notifier
from narrator.service import Ports, Service, input_method
from narrator.sim.driver import PadPlayers
from narrator.sim.players import Table
from narrator.voice.fake import FakeSpeaker

PAD = {"en": re.compile(r"\bpads?\b", re.IGNORECASE), "ru": re.compile(r"кноп", re.IGNORECASE)}
KEYPAD = {"en": re.compile(r"\bkeypad\b"), "ru": re.compile(r"клавиатур")}


@cache  # a game per rule set, language and input, shared by the tests below
def demo(name: str, lang: str, keypad_only: bool) -> DemoResult:
    rules = load_bundled(name)
    result = asyncio.run(play_demo(DemoOptions(rules, rules.min_seats, 4, lang=lang, fast=True,
                                               keypad_only=keypad_only)))
    assert result.box.game.over
    return result


def demo_texts(name: str, lang: str, keypad_only: bool) -> tuple[list[str], Box]:
    result = demo(name, lang, keypad_only)
    return [s.text for s in result.box.performer.spoken], result.box


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("name", bundled_names())
def test_a_keypad_only_game_hears_no_pad_instruction(name: str, lang: str) -> None:
    texts, box = demo_texts(name, lang, keypad_only=True)
    assert not [t for t in texts if PAD[lang].search(t)]
    # Every night input came from the keypad, and the keypad is what the cues named.
    assert box.night_inputs["keypad"] > 0 and box.night_inputs["pads"] == 0
    assert any(KEYPAD[lang].search(t) for t in texts)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_pad_game_still_hears_its_pads(lang: str) -> None:
    texts, box = demo_texts("sport", lang, keypad_only=False)
    assert box.night_inputs["pads"] > 0
    taps = [t for t in texts if PAD[lang].search(t)]
    assert len(taps) >= 4  # night zero's three meetings and the first night's wakes
    assert not [t for t in texts if KEYPAD[lang].search(t)]


def test_the_night_script_has_the_same_shape_with_either_input() -> None:
    # The method is the table's, fixed for the game: the same cues in the same order, the
    # words of the instruction alone differ (no cue depends on who acts).
    def cues(keypad_only: bool) -> list[str]:
        spoken = demo("sport", "en", keypad_only).box.performer.spoken
        return [s.cue for s in spoken if s.phase in ("night-0", "night-1")]

    assert cues(True) == cues(False)


def test_auto_is_the_pads_where_the_box_has_them_else_the_keypad() -> None:
    clock = FakeClock()
    speaker = FakeSpeaker(clock)
    with_pads = Ports(speaker, FakeSeatPanel(10, clock), [FakeKeypad()])
    without = Ports(speaker, None, [FakeKeypad()])
    assert input_method("auto", with_pads) == "pads"
    assert input_method("auto", without) == "keypad"
    assert input_method("both", with_pads) == "both"
    assert input_method("keypad", with_pads) == "keypad"


def test_the_input_setting_is_checked(tmp_path: Path) -> None:
    assert load_settings(None, {}).input == "auto"
    assert load_settings(None, {"input": "keypad"}).input == "keypad"
    config = tmp_path / "narrator.yaml"
    config.write_text("input: fingers\n")
    with pytest.raises(ConfigError, match=r"input: expected one of auto, pads, keypad, both, "
                                          r"got 'fingers'"):
        load_settings(config)


def test_a_box_without_pads_tells_the_table_to_use_the_keypad(tmp_path: Path) -> None:
    """`narrator run` on a laptop (`--keypad terminal`, no seat pads): a whole game played
    on the keypad alone, and nothing the box says mentions pads."""

    async def main() -> list[str]:
        clock = FakeClock()
        keypad = FakeKeypad()
        settings = load_settings(None, {"state_dir": str(tmp_path / "state"),
                                        "cache_dir": str(tmp_path / "cache"), "keypad": "none"})
        speaker = FakeSpeaker(clock)
        service = Service(settings, Ports(speaker, None, [keypad]), clock, Notifier(""))
        service.evening.next()  # the host asks for the game: nothing starts unasked
        assert service.input_method == "keypad"

        def seat_players(box: Box) -> None:
            rules = box.game.engine.rules
            table = Table(rules, 7, foul_rate=0.0, cards=deal(rules, 10, 7))

            def no_pads(seat: int, down: bool) -> None:
                raise AssertionError("nobody has a pad at this table")

            PadPlayers(box, table, no_pads, keypad, clock, 7, keypad_only=True)

        ready = asyncio.Event()
        service.on_box.append(seat_players)
        service.on_box.append(lambda _box: ready.set())
        keypad.attach(service.submit)
        task = asyncio.get_running_loop().create_task(service.run(games=1))
        await asyncio.wait_for(ready.wait(), timeout=120)
        while not task.done():
            if not await clock.step():
                clock.advance(1.0)
            assert clock.now() < 20_000, "the game did not finish"
        await task
        assert service.box is not None and service.box.game.over
        return [text for _at, text in speaker.said]

    texts = asyncio.run(main())
    assert "Voice commands are off. Use the keypad." in texts
    assert "Mafia, wake up. See each other. Each of you, type your seat number on the keypad " \
           "and press Enter." in texts
    assert not [t for t in texts if PAD["en"].search(t)]


def test_the_speech_rendered_ahead_is_the_tables_own() -> None:
    # The cache is filled, at start-up, with the words this table will hear: a keypad
    # table's instructions, not the pads' (and the other way round).
    from narrator.phrases.book import PhraseBook
    from narrator.warmup import needed_texts

    rules = load_bundled("sport")
    book = PhraseBook.load("en").for_rules("sport")
    keypad = needed_texts(book.for_input("keypad"), rules, 10)
    pads = needed_texts(book, rules, 10)
    assert book.for_input("keypad").render("don_wake") in keypad
    assert book.render("don_wake") in pads
    assert not [t for t in keypad if PAD["en"].search(t)]
    assert len(keypad) == len(pads)  # the same cues, each in its table's words


def test_say_speaks_a_cue_for_a_keypad_table() -> None:
    import argparse

    from narrator.cli.say import text_of

    args = argparse.Namespace(text=None, cue="don_wake", param=[], lang="ru", input="keypad")
    assert text_of(args) == ("Дон просыпается и ищет шерифа. Наберите номер на клавиатуре и нажмите "
                             "Enter. Ответ покажет световой индикатор.")
    args.input = "pads"
    assert text_of(args) == ("Дон просыпается и ищет шерифа. Коснитесь своей кнопки, когда "
                             "прозвучит нужный номер. Ответ покажет световой индикатор.")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_check_is_told_to_look_where_this_box_shows_its_answers(tmp_path: Path,
                                                                   lang: str) -> None:
    """The words say where the answer shows on this box's hardware: the answer light on a
    box with a seat panel, the keypad's screen on a box without one (the organiser's evening
    trial heard "the light" on a keypad-only box). The hardware alone decides, never a role."""
    light = {"en": re.compile(r"\blight\b"), "ru": re.compile(r"индикатор")}
    screen = {"en": re.compile(r"keypad's screen"), "ru": re.compile(r"экран клавиатуры")}

    async def said_by(panel: FakeSeatPanel | None) -> tuple[list[str], list[str]]:
        clock = FakeClock()
        settings = load_settings(None, {"state_dir": str(tmp_path / f"state-{panel is None}"),
                                        "cache_dir": str(tmp_path / "cache"), "keypad": "none",
                                        "game": {"rules": "classic", "lang": lang}})
        speaker = FakeSpeaker(clock)
        service = Service(settings, Ports(speaker, panel, [FakeKeypad(clock=clock)]), clock,
                          Notifier(""))
        service.evening.next()  # the host asks for the game: nothing starts unasked
        boxes: list[Box] = []
        service.on_box.append(boxes.append)
        task = asyncio.get_running_loop().create_task(service.run(games=1))
        while not boxes:
            await asyncio.sleep(0)
        book = boxes[0].performer.book
        cues = [book.render(c) for c in ("angel_wake", "boxed_commissar_wake")]
        assert service._warming is not None
        await service._warming  # the speech rendered ahead: what the night will say
        ahead = [t for t in speaker.prepared if "angel" in t.lower() or "ангел" in t.lower()]
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return cues, ahead

    cues, ahead = asyncio.run(said_by(None))  # a keypad-only box: the keypad's screen
    checks = [t for t in ahead if screen[lang].search(t) or light[lang].search(t)]
    assert checks and all(not light[lang].search(t) for t in cues + checks)
    assert all(screen[lang].search(t) for t in cues)
    panel = FakeSeatPanel(10, FakeClock())  # a seat panel's answer light, nothing else
    cues, ahead = asyncio.run(said_by(panel))
    checks = [t for t in ahead if screen[lang].search(t) or light[lang].search(t)]
    assert checks and all(not screen[lang].search(t) for t in cues + checks)
    assert all(light[lang].search(t) for t in cues)
