"""The uplink as `narrator run` starts it beside the service. Every `INTERVAL` seconds it
looks at the box's pairing: a box paired with a tournament key announces itself (when its
page is up and mDNS is not turned off) with the key's tag, so that only its own
tournament's collector lists it, and announces again when the key changes; a box not
paired announces nothing. Then the outbox delivers what waits, and every `STATUS_EVERY`
seconds the box tells its collector what it is doing (narrator.tournament.wire.BoxStatus).

A box follows its collector: the collector announces itself by mDNS with its key's tag,
and when the address the box knows does not answer (the collector was started again on
another port, or on another laptop), the box asks each address announced with its tag;
the first whose answer is signed with the key becomes the box's collector. An announcement
alone never moves a box: anybody can announce anything on a club's network.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from collections.abc import Mapping

import aiohttp

from narrator.box.evening import Evening
from narrator.boxconfig import Settings
from narrator.clock import Clock
from narrator.evening.setup import Event
from narrator.mdns import COLLECTOR_SERVICE, Announcer, Browser
from narrator.tournament.signing import key_tag
from narrator.tournament.wire import BoxStatus, post
from narrator.uplink import pairing
from narrator.uplink.announce import box_announcer
from narrator.uplink.outbox import Outbox

log = logging.getLogger("narrator.uplink")

INTERVAL = 2.0
STATUS_EVERY = 10.0  # seconds (the box's clock) between two statuses that say the same


def default_table() -> str:
    return socket.gethostname().split(".")[0] or "narrator"


class Uplink:
    def __init__(
        self,
        settings: Settings,
        clock: Clock,
        table: str | None = None,
        mdns: str = "all",
        evening: Evening | None = None,
    ) -> None:
        self.table = table or default_table()
        self.mdns = mdns  # "all", "off", or the address of the one interface to announce on
        self.state_dir = settings.state_dir
        self.clock = clock
        self.evening = evening  # what the box is doing, for its status
        self.host: str | None = None
        self.port = 0
        self.outbox = Outbox(settings.state_dir, clock, self.table, lambda: self.port)
        self.announcer: Announcer | None = None
        self.finder: Browser | None = None
        self.candidates: dict[str, str] = {}  # collectors announced with our tag: url -> tag
        self._last: tuple[BoxStatus, float] | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self, host: str | None, port: int | None) -> None:
        self.host, self.port = host, port or 0
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            try:
                await self._announce()
                await self.outbox.deliver()
                await self._tell()
            except Exception:  # the uplink never stops the box: the next pass tries again
                log.exception("the tournament uplink failed")
            await self.clock.sleep(INTERVAL)

    def _interfaces(self) -> list[str] | None:
        return None if self.mdns == "all" else [self.mdns]

    async def _announce(self) -> None:
        if self.mdns == "off":
            return
        current = pairing.load(self.state_dir)
        tag = key_tag(current.key) if current.paired else ""
        if tag and self.finder is None:
            self.finder = Browser(COLLECTOR_SERVICE, self._found, self._interfaces())
            if not await self.finder.start():
                self.finder = None
        if self.host is None or not self.port:
            return
        if self.announcer is not None and self.announcer.properties.get("tag") == tag:
            return
        if self.announcer is not None:
            await self.announcer.stop()
            self.announcer = None
        if not tag:
            return
        interfaces = self._interfaces()
        announcer = box_announcer(
            self.table, self.mdns if interfaces else self.host, self.port, interfaces, tag
        )
        if await announcer.start():
            self.announcer = announcer

    def _found(self, name: str, address: str, port: int, props: Mapping[str, str]) -> None:
        host = f"[{address}]" if ":" in address else address
        self.candidates[f"http://{host}:{port}"] = props.get("tag", "")

    def status(self) -> BoxStatus:
        current = pairing.load(self.state_dir)
        ledger = self.outbox.ledger()
        evening = self.evening
        event, playing, phase, number, since = None, False, "", 0, None
        if evening is not None:
            event = evening.setup.event
            box = evening.box
            header = box.session.header if box is not None else None
            if evening.in_play and box is not None and header is not None:
                st = box.game.state
                told = header.event
                event = Event(
                    str(told.get("tournament") or ""), told.get("table"), told.get("round"), told.get("game")
                )
                playing = event.tournament == current.tournament
                phase, number = (st.phase, st.number) if st.phase in ("day", "night") else ("", 0)
                since = _epoch(header.started)
        return BoxStatus(
            box=self.table,
            port=self.port,
            tournament=current.tournament,
            round=event.round if event else None,
            table=event.table if event else None,
            game=event.game if event else None,
            playing=playing,
            phase=phase if playing else "",
            number=number if playing else 0,
            since=since if playing else None,
            waiting=len(ledger.waiting),
            refused=len(ledger.refused),
            note=self.outbox.last_error[:300],
        )

    async def _tell(self) -> None:
        """The box's status to its collector (when it changed, else every STATUS_EVERY s);
        an unanswered status sends the box looking for where its collector went."""
        current = pairing.load(self.state_dir)
        if not current.paired or not current.collector:
            return
        status = self.status()
        now = self.clock.now()
        if self._last is not None and self._last[0] == status and now - self._last[1] < STATUS_EVERY:
            return
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=5)) as http:
            reply = await post(http, current.collector, current.key, status)
            if reply.ok:
                self._last = (status, now)
                return
            tag = key_tag(current.key)
            for url, their_tag in list(self.candidates.items()):
                if their_tag != tag or url == current.collector:
                    continue
                moved = await post(http, url, current.key, status)
                if moved.ok:
                    log.info("the collector moved: %s -> %s", current.collector, url)
                    pairing.save(self.state_dir, pairing.load(self.state_dir).with_collector(url))
                    self._last = (status, now)
                    return

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self.announcer is not None:
            await self.announcer.stop()
        if self.finder is not None:
            await self.finder.stop()


def _epoch(started: str) -> float | None:
    try:
        return time.mktime(time.strptime(started, "%Y-%m-%dT%H:%M:%S"))
    except ValueError:
        return None
