"""The uplink as `narrator run` starts it beside the service. Every `INTERVAL` seconds it
looks at the box's pairing: a box paired with a tournament key announces itself (when its
page is up and mDNS is not turned off) with the key's tag, so that only its own
tournament's collector lists it, and announces again when the key changes; a box not
paired announces nothing. Then the outbox delivers what waits."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket

from narrator.boxconfig import Settings
from narrator.clock import Clock
from narrator.tournament.signing import key_tag
from narrator.uplink import pairing
from narrator.uplink.announce import Announcer
from narrator.uplink.outbox import Outbox

log = logging.getLogger("narrator.uplink")

INTERVAL = 2.0


def default_table() -> str:
    return socket.gethostname().split(".")[0] or "narrator"


class Uplink:
    def __init__(self, settings: Settings, clock: Clock, table: str | None = None, mdns: str = "all") -> None:
        self.table = table or default_table()
        self.mdns = mdns  # "all", "off", or the address of the one interface to announce on
        self.state_dir = settings.state_dir
        self.clock = clock
        self.host: str | None = None
        self.port = 0
        self.outbox = Outbox(settings.state_dir, clock, self.table, lambda: self.port)
        self.announcer: Announcer | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self, host: str | None, port: int | None) -> None:
        self.host, self.port = host, port or 0
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            try:
                await self._announce()
                await self.outbox.deliver()
            except Exception:  # the uplink never stops the box: the next pass tries again
                log.exception("the tournament uplink failed")
            await self.clock.sleep(INTERVAL)

    async def _announce(self) -> None:
        if self.host is None or not self.port or self.mdns == "off":
            return
        current = pairing.load(self.state_dir)
        tag = key_tag(current.key) if current.paired else ""
        if self.announcer is not None and self.announcer.tag == tag:
            return
        if self.announcer is not None:
            await self.announcer.stop()
            self.announcer = None
        if not tag:
            return
        interfaces = None if self.mdns == "all" else [self.mdns]
        announcer = Announcer(self.table, self.mdns if interfaces else self.host, self.port, interfaces, tag)
        if await announcer.start():
            self.announcer = announcer

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.announcer is not None:
            await self.announcer.stop()
