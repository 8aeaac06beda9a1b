"""The terminal keypad never echoes night numbers (a real pseudo-terminal)."""

from __future__ import annotations

import asyncio
import os
import select
import termios

from narrator.devices.keypads import TerminalKeypad
from narrator.engine.actions import Action


def test_typed_numbers_are_read_and_not_shown() -> None:
    master, slave = os.openpty()
    stream = os.fdopen(slave, "r")
    got: list[Action] = []

    async def main() -> bytes:
        keypad = TerminalKeypad(stream)
        task = asyncio.get_running_loop().create_task(keypad.run(got.append))
        for _ in range(1000):
            if not termios.tcgetattr(slave)[3] & termios.ECHO:
                break
            await asyncio.sleep(0)
        os.write(master, b"7\n")
        for _ in range(2000):
            if got:
                break
            await asyncio.sleep(0.001)  # the reader thread's turn
        readable, _, _ = select.select([master], [], [], 0)
        shown = os.read(master, 100) if readable else b""
        keypad.close()
        task.cancel()
        return shown

    shown = asyncio.run(main())
    os.close(master)  # the reader thread's readline ends
    assert got, "the number never arrived"
    assert b"7" not in shown
