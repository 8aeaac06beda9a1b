"""`narrator run`'s page: where it listens (config and --web), the PIN, and the address
said once after "ready"; the PIN is logged once and never said."""

from __future__ import annotations

import argparse
import asyncio
import logging
from pathlib import Path

import pytest

from narrator import boxconfig as settings_module
from narrator.box.ports import Ports
from narrator.box.service import Service
from narrator.boxconfig import load_settings
from narrator.clock import FakeClock
from narrator.devices.keypads import FakeKeypad
from narrator.errors import ConfigError
from narrator.voice.fake import FakeSpeaker
from narrator.web.site import serve


def parse(*argv: str) -> settings_module.Settings:
    parser = argparse.ArgumentParser()
    settings_module.add_arguments(parser)
    return settings_module.from_args(parser.parse_args(list(argv)))


def test_web_listen_from_the_command_line_and_the_config(tmp_path: Path) -> None:
    assert parse("--web", "127.0.0.1:8080").web.host == "127.0.0.1"
    assert parse("--web", "[::1]:9000").web.port == 9000
    assert parse("--web", "off").web.host is None
    config = tmp_path / "narrator.yaml"
    config.write_text('web: {listen: "0.0.0.0:8081", pin: "0417"}\n')
    web = load_settings(config).web
    assert (web.host, web.port, web.pin) == ("0.0.0.0", 8081, "0417")


@pytest.mark.parametrize(("text", "problem"), [
    ("web: {listen: 8080}", "web.listen: expected HOST:PORT or off"),
    ('web: {listen: "host:99999"}', "web.listen: expected HOST:PORT"),
    ("web: {pin: 417}", "web.pin: expected 4-12 digits in quotes"),
    ('web: {pin: "12"}', "web.pin"),
    ("web: {port: 1}", "web.port: unknown key"),
])
def test_a_wrong_web_setting_names_the_key(tmp_path: Path, text: str, problem: str) -> None:
    config = tmp_path / "narrator.yaml"
    config.write_text(text + "\n")
    with pytest.raises(ConfigError) as caught:
        load_settings(config)
    assert str(config) in str(caught.value) and problem in str(caught.value)


def test_the_address_is_said_once_after_ready_and_the_pin_only_logged(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    settings = load_settings(None, {"state_dir": str(tmp_path / "state"), "keypad": "none",
                                    "cache_dir": str(tmp_path / "cache"), "web.listen": "127.0.0.1:0"})

    async def main() -> tuple[list[str], str]:
        clock = FakeClock()
        speaker = FakeSpeaker(clock)
        # A keypad with a screen: a box with no answer display refuses sport (its checks).
        service = Service(settings, Ports(speaker, None, [FakeKeypad()]), clock)
        service.evening.next()  # the host asks for the game: nothing starts unasked
        page = await serve(service, settings, clock, service.announce, service.evening)
        assert page is not None
        task = asyncio.get_running_loop().create_task(service.run(games=1))
        while len(speaker.said) < 5:
            assert await clock.step()
        task.cancel()
        await page.stop()
        pin = (tmp_path / "state" / "web-pin").read_text().strip()
        return [text for _at, text in speaker.said], pin

    with caplog.at_level(logging.INFO, logger="narrator.web"):
        said, pin = asyncio.run(main())
    assert said[0] == "The narrator is ready."
    assert said[1].startswith("The organiser's page is at one hundred twenty-seven dot zero dot zero dot one")
    assert sum("organiser's page" in s for s in said) == 1
    assert not [s for s in said if "PIN" in s or pin in s]  # tests/web/test_secrets.py: all forms
    logged = [r.getMessage() for r in caplog.records if "organiser's page:" in r.getMessage()]
    assert len(logged) == 1 and logged[0].startswith("the organiser's page: http://127.0.0.1:")
    assert logged[0].endswith(f"/  PIN {pin}") and len(pin) == 4 and pin.isdigit()


def test_a_port_already_taken_leaves_the_game_and_says_the_page_is_off(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Another program holds the page's port (or a second box was started): the game runs
    on the keypad and the voice; the table hears once that the page is off, and why is in
    the log. Before, the box said nothing, and the organiser waited for a page that never
    came."""
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    settings = load_settings(None, {"state_dir": str(tmp_path / "state"), "keypad": "none",
                                    "cache_dir": str(tmp_path / "cache"),
                                    "web.listen": f"127.0.0.1:{port}"})

    async def main() -> tuple[list[str], bool]:
        clock = FakeClock()
        speaker = FakeSpeaker(clock)
        service = Service(settings, Ports(speaker, None, [FakeKeypad()]), clock)
        service.evening.next()  # the host asks for the game: nothing starts unasked
        page = await serve(service, settings, clock, service.announce, service.evening)
        task = asyncio.get_running_loop().create_task(service.run(games=1))
        while len(speaker.said) < 4:
            assert await clock.step()
        playing = service.box is not None and not task.done()
        task.cancel()
        assert page is None
        return [text for _at, text in speaker.said], playing

    try:
        with caplog.at_level(logging.INFO, logger="narrator.web"):
            said, playing = asyncio.run(main())
    finally:
        taken.close()
    assert playing
    assert said[:2] == ["The narrator is ready.",
                        "The organiser's page is off: its port is taken. The game goes on "
                        "without it."]
    assert "A new game begins." in said
    logged = [r.getMessage() for r in caplog.records if "cannot listen" in r.getMessage()]
    assert len(logged) == 1 and f"127.0.0.1:{port}" in logged[0]
