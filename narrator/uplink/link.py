"""The uplink as `narrator run` starts it beside the service: the outbox (always: it waits
quietly until the box is paired) and the announcement (when the page is up and mDNS is
not turned off)."""

from __future__ import annotations

import asyncio
import contextlib
import socket

from narrator.clock import Clock
from narrator.settings import Settings
from narrator.uplink.announce import Announcer
from narrator.uplink.outbox import Outbox


def default_table() -> str:
    return socket.gethostname().split(".")[0] or "narrator"


class Uplink:
    def __init__(self, settings: Settings, clock: Clock, table: str | None = None, mdns: str = "all") -> None:
        self.table = table or default_table()
        self.mdns = mdns  # "all", "off", or the address of the one interface to announce on
        self.port = 0
        self.outbox = Outbox(settings.state_dir, clock, self.table, lambda: self.port)
        self.announcer: Announcer | None = None
        self._task: asyncio.Task[None] | None = None
        self._announcing: asyncio.Task[bool] | None = None

    async def start(self, host: str | None, port: int | None) -> None:
        self.port = port or 0
        self._task = asyncio.get_running_loop().create_task(self.outbox.run())
        if host is not None and port and self.mdns != "off":
            interfaces = None if self.mdns == "all" else [self.mdns]
            self.announcer = Announcer(self.table, self.mdns if interfaces else host, port, interfaces)
            # mDNS probes the name for a second or so: the box does not wait for it.
            self._announcing = asyncio.get_running_loop().create_task(self.announcer.start())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._announcing is not None and not self._announcing.done():
            self._announcing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._announcing
        if self.announcer is not None:
            await self.announcer.stop()
