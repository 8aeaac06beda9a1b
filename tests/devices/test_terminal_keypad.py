"""The laptop's keyboard as the private keypad (`--keypad terminal`), on a real
pseudo-terminal: what is typed is never echoed (the screen shows nothing that depends on
it), keys are taken one at a time, and the terminal is given back as it was."""

from __future__ import annotations

import asyncio
import os
import select
import termios

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
        readable, _, _ = select.select([master], [], [], 0)
        echoed = os.read(master, 1024) if readable else b""
        assert echoed == b""  # nothing typed came back to the screen
        assert termios.tcgetattr(slave)[3] == before[3]
    finally:
        stream.close()
        os.close(slave)
        os.close(master)
