"""The laptop's keyboard as the private keypad (`--keypad terminal`), on a real
pseudo-terminal: what is typed is never echoed (the screen shows nothing that depends on
it), keys are taken one at a time, and the terminal is given back as it was."""

from __future__ import annotations

import asyncio
import os
import select
import termios

from narrator.devices.display import WIPE
from narrator.devices.keymap import TERMINAL_HELP
from narrator.devices.keypads import TerminalKeypad
from narrator.engine.actions import Action, Entry, Foul


def test_typed_keys_are_not_echoed_and_the_terminal_is_restored() -> None:
    master, slave = os.openpty()
    before = termios.tcgetattr(slave)
    assert before[3] & termios.ECHO  # a terminal echoes by default
    stream = os.fdopen(slave, "r", closefd=False)

    async def main() -> list[Action]:
        got: list[Action] = []
        keypad = TerminalKeypad(stream)
        arrived = asyncio.Event()

        def sink(action: Action) -> None:
            got.append(action)
            if len(got) == 2:
                arrived.set()

        task = asyncio.get_running_loop().create_task(keypad.run(sink))
        await asyncio.sleep(0)  # run() has set the terminal up before its first await
        assert not termios.tcgetattr(slave)[3] & termios.ECHO
        os.write(master, b"12\n/3\n")
        await asyncio.wait_for(arrived.wait(), 5.0)
        keypad.close()
        os.write(master, b"\n")  # wakes the reader, which sees the keypad closed
        await asyncio.wait_for(task, 5.0)
        return got

    try:
        assert asyncio.run(main()) == [Entry(12), Foul(3)]
        shown = b""
        while select.select([master], [], [], 0)[0]:
            shown += os.read(master, 4096)
        # Nothing typed came back to the screen: it shows the keys' help and nothing else.
        help_lines = "".join(f"{WIPE}{line}\r\n" for line in TERMINAL_HELP["en"])
        assert shown == help_lines.encode()
        assert termios.tcgetattr(slave)[3] == before[3]
    finally:
        stream.close()
        os.close(slave)
        os.close(master)


def test_the_terminal_keypad_shows_its_keys_in_the_game_s_language() -> None:
    """Found by a new user (issue 33): the laptop's keypad showed no help, so nobody at the
    table knew `/ 3 Enter` is a foul. Both languages name the same keys, line by line."""
    en, ru = TERMINAL_HELP["en"], TERMINAL_HELP["ru"]
    assert len(en) == len(ru)
    keys = ("N Enter", "Enter", "M . N Enter", "/ N Enter", "/ Enter", "-", "+", "*", "Esc",
            "/ 0 Enter", "0 Enter")
    for a, b in zip(en, ru, strict=True):
        assert [k for k in keys if k in a] == [k for k in keys if k in b], (a, b)
    master, slave = os.openpty()
    stream = os.fdopen(slave, "r", closefd=False)

    async def main() -> None:
        keypad = TerminalKeypad(stream, lang="ru")
        task = asyncio.get_running_loop().create_task(keypad.run(lambda _a: None))
        await asyncio.sleep(0)
        keypad.close()
        os.write(master, b"\n")
        await asyncio.wait_for(task, 5.0)

    try:
        asyncio.run(main())
        shown = b""
        while select.select([master], [], [], 0)[0]:
            shown += os.read(master, 4096)
    finally:
        stream.close()
        os.close(slave)
        os.close(master)
    text = shown.decode()
    assert all(line in text for line in ru) and "/ N Enter" in text
