"""The boxes on the network: python-zeroconf browses for `_narrator._tcp` and hands each
box found (its TXT record's table name, its address and page port, and the tag of its
tournament key) to `found`; `for_key` keeps only the boxes paired with one key."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any

log = logging.getLogger("narrator.tournament")

SERVICE = "_narrator._tcp.local."
Found = Callable[[str, str, int, str], None]  # table name, address, port, key tag


class Discovery:
    def __init__(self, found: Found, interfaces: Sequence[str] | None = None) -> None:
        self.found = found
        self.interfaces = list(interfaces) if interfaces else None
        self._zc: Any = None
        self._browser: Any = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        from zeroconf import InterfaceChoice, ServiceStateChange
        from zeroconf.asyncio import AsyncServiceBrowser, AsyncZeroconf

        self._zc = AsyncZeroconf(interfaces=self.interfaces or InterfaceChoice.All)

        def changed(zeroconf: Any, service_type: str, name: str, state_change: ServiceStateChange) -> None:
            if state_change in (ServiceStateChange.Added, ServiceStateChange.Updated):
                task = asyncio.ensure_future(self._resolve(service_type, name))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

        self._browser = AsyncServiceBrowser(self._zc.zeroconf, [SERVICE], handlers=[changed])

    async def _resolve(self, service_type: str, name: str) -> None:
        from zeroconf.asyncio import AsyncServiceInfo

        info = AsyncServiceInfo(service_type, name)
        if not await info.async_request(self._zc.zeroconf, 3000):
            return
        addresses = info.parsed_addresses()
        props = {
            (k.decode() if isinstance(k, bytes) else str(k)): (v.decode() if isinstance(v, bytes) else "")
            for k, v in info.properties.items()
        }
        table = props.get("table") or name.removesuffix("." + SERVICE)
        if addresses and info.port:
            log.info("box found: %s at %s:%d", table, addresses[0], info.port)
            self.found(table, addresses[0], int(info.port), props.get("tag", ""))

    async def stop(self) -> None:
        if self._browser is not None:
            await self._browser.async_cancel()
        if self._zc is not None:
            await self._zc.async_close()


def for_key(key: str, found: Callable[[str, str, int], None]) -> Found:
    """A `found` that passes on only the boxes announcing this key's tag."""
    from narrator.tournament.signing import key_tag

    tag = key_tag(key)

    def seen(table: str, address: str, port: int, their_tag: str) -> None:
        if their_tag == tag:
            found(table, address, port)
        else:
            log.info("a box of another tournament (or none) ignored: %s", table)

    return seen
