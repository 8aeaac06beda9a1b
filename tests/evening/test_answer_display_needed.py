"""A box with no answer display (no seat panel with answer LEDs, no keypad with a screen)
refuses a rule set whose check answers are private: one line naming the settings that
would give it one, exit 2 on the command line, the same reason on the page's set-up; a
rule set whose answers are public (or that has no checks at the table's size) plays."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from narrator.box.ports import Ports
from narrator.box.service import Service
from narrator.boxconfig import load_settings
from narrator.cli import main
from narrator.clock import FakeClock
from narrator.devices.keypads import FakeKeypad
from narrator.errors import DeviceError
from narrator.evening import GameSetup, SetupError
from narrator.evening.answers import checking_roles
from narrator.sdnotify import Notifier
from narrator.voice.fake import FakeSpeaker


def service(tmp_path: Path, keypad: FakeKeypad, setup: GameSetup) -> Service:
    clock = FakeClock()
    settings = load_settings(None, {"state_dir": str(tmp_path / "state"),
                                    "cache_dir": str(tmp_path / "cache"), "keypad": "none"})
    return Service(settings, Ports(FakeSpeaker(clock), None, [keypad]), clock, Notifier(""),
                   setup=setup)


def test_private_checks_need_a_screen_or_answer_leds(tmp_path: Path) -> None:
    with pytest.raises(SetupError) as caught:
        service(tmp_path, FakeKeypad(display=False), GameSetup(rules="sport"))
    message = str(caught.value)
    assert "\n" not in message
    assert "sport: the checks of don, sheriff are shown on answer LEDs or a keypad's screen" in message
    assert "'answer:'" in message and "keypad: terminal" in message and "answers_public" in message
    # With a screen on the keypad, the same set-up plays.
    assert service(tmp_path, FakeKeypad(), GameSetup(rules="sport")).evening.setup.rules == "sport"


def test_public_answers_need_no_display(tmp_path: Path) -> None:
    public = GameSetup(rules="classic", seats=10,
                       settings=MappingProxyType({"answers_public": True}))
    assert checking_roles(public) == []
    assert service(tmp_path, FakeKeypad(display=False), public).evening.setup == public.check()
    assert checking_roles(GameSetup(rules="classic", seats=10))  # the angels check privately


def test_a_judges_table_needs_no_display(tmp_path: Path) -> None:
    """The judge's page shows the answers (narrator.web.judge) and the judge shows them to
    the checker: private checks play on a box with no answer display at all."""
    judged = GameSetup(rules="sport", judge=True)
    assert service(tmp_path, FakeKeypad(display=False), judged).evening.setup.judge
    box = service(tmp_path / "b", FakeKeypad(display=False), judged)
    with pytest.raises(SetupError):  # the same table without a judge is refused
        box.evening.start(GameSetup(rules="sport"))


def test_the_evening_refuses_the_next_set_up_the_same_way(tmp_path: Path) -> None:
    box = service(tmp_path, FakeKeypad(display=False),
                  GameSetup(rules="classic", seats=10,
                            settings=MappingProxyType({"answers_public": True})))
    with pytest.raises(SetupError) as caught:
        box.evening.start(GameSetup(rules="sport"))  # what the page and the keypad call
    assert [p.code for p in caught.value.problems] == ["answer_display"]
    assert caught.value.problems[0].field == "rules"
    assert box.evening.setup.rules == "classic"  # nothing changed


def test_run_without_a_panel_and_a_usb_keypad_exits_2_with_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any) -> None:
    from narrator.devices import gpio

    def no_gpio(*_args: Any, **_kw: Any) -> None:
        raise DeviceError("no GPIO on this computer")

    monkeypatch.setattr(gpio.GpioSeatPanel, "__init__", no_gpio)
    code = main(["run", "--keypad", "evdev", "--state-dir", str(tmp_path / "s"),
                 "--cache-dir", str(tmp_path / "c")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert err[-1].startswith("narrator: set-up: sport: the checks of don, sheriff")
    assert "no seat panel; keypad: evdev (a USB keypad has no screen)" in err[-1]


def test_answer_leds_on_mock_pins_leave_the_answer_on_the_screen_too(tmp_path: Path) -> None:
    """A laptop run on mock pins has answer LEDs nobody sees: the keypad's screen shows the
    answers as well; a real panel (here its fake) keeps them to the LEDs."""
    from narrator.devices.fake import FakeSeatPanel
    from narrator.devices.gpio import GpioSeatPanel, mock_pin_factory

    clock = FakeClock()
    settings = load_settings(None, {"state_dir": str(tmp_path / "state"),
                                    "cache_dir": str(tmp_path / "cache"), "keypad": "none"})
    keypad = FakeKeypad(clock=clock)
    mock = GpioSeatPanel(pin_factory=mock_pin_factory(), clock=clock)
    try:
        laptop = Service(settings, Ports(FakeSpeaker(clock), mock, [keypad]), clock, Notifier(""))
        assert laptop.screens == [keypad.screen]
    finally:
        mock.close()
    table = Service(settings, Ports(FakeSpeaker(clock), FakeSeatPanel(10, clock), [keypad]), clock,
                    Notifier(""))
    assert table.screens == []
    alone = Service(settings, Ports(FakeSpeaker(clock), None, [keypad]), clock, Notifier(""))
    assert alone.screens == [keypad.screen]


def test_the_players_must_have_what_the_cues_name(tmp_path: Path) -> None:
    """No pads: a game set for pads is refused (its cues would say "tap your pad"); no
    keypad: one set for the keypad is; auto takes what the box has."""
    keypad_box = service(tmp_path, FakeKeypad(), GameSetup())
    for method in ("pads", "both"):
        with pytest.raises(SetupError) as caught:
            keypad_box.evening.start(GameSetup(input=method))
        problem = caught.value.problems[0]
        assert (problem.field, problem.code) == ("input", "input_no_pads")
        assert f"input: {method}, but this box has no seat pads" in str(caught.value)
    keypad_box.evening.start(GameSetup(input="keypad"))
    from narrator.devices.fake import FakeSeatPanel

    clock = FakeClock()
    settings = load_settings(None, {"state_dir": str(tmp_path / "s2"),
                                    "cache_dir": str(tmp_path / "cache"), "keypad": "none"})
    pads_box = Service(settings, Ports(FakeSpeaker(clock), FakeSeatPanel(10, clock), []), clock,
                       Notifier(""))
    with pytest.raises(SetupError, match="input: keypad, but this box has no keypad"):
        pads_box.evening.start(GameSetup(input="keypad"))
    assert pads_box.evening.start(GameSetup(input="auto")).input == "auto"
    assert pads_box.input_method == "pads"


def test_mock_pins_are_no_answer_display(tmp_path: Path) -> None:
    """A laptop on mock pins (GPIOZERO_PIN_FACTORY=mock) has answer LEDs nobody sees: with a
    keypad that has no screen (the terminal keypad not on a terminal), private checks are
    refused as on a box without a panel, and a game resumed there is held, not played."""
    from narrator.devices.gpio import GpioSeatPanel, mock_pin_factory

    clock = FakeClock()
    settings = load_settings(None, {"state_dir": str(tmp_path / "state"),
                                    "cache_dir": str(tmp_path / "cache"), "keypad": "none"})
    mock = GpioSeatPanel(pin_factory=mock_pin_factory(), clock=clock)
    try:
        with pytest.raises(SetupError, match=r"mock pins \(answer LEDs nobody sees\)"):
            Service(settings, Ports(FakeSpeaker(clock), mock, [FakeKeypad(display=False)]), clock,
                    Notifier(""), setup=GameSetup(rules="sport"))
        public = GameSetup(rules="classic", seats=10,
                           settings=MappingProxyType({"answers_public": True}))
        Service(settings, Ports(FakeSpeaker(clock), mock, [FakeKeypad(display=False)]), clock,
                Notifier(""), setup=public)
    finally:
        mock.close()
