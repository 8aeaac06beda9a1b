"""mDNS/DNS-SD on the club's network (python-zeroconf), for the boxes and their collector:
`Announcer` registers one service (its TXT record's properties, its address and port),
`Browser` hands each service of a type found (or found again, changed) to a callback.
A computer without a network announces nothing and finds nothing, and goes on all the same.
"""

from __future__ import annotations

import asyncio
import logging
import re
import socket
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from narrator.lan import own_address

log = logging.getLogger("narrator.mdns")

BOX_SERVICE = "_narrator._tcp.local."  # a box: TXT table, port, tag (of its tournament key)
COLLECTOR_SERVICE = "_narrator-tour._tcp.local."  # a tournament's collector: TXT port, tag

Found = Callable[[str, str, int, Mapping[str, str]], None]  # instance name, address, port, TXT


def _zeroconf(interfaces: Sequence[str] | None) -> Any:
    from zeroconf import InterfaceChoice
    from zeroconf.asyncio import AsyncZeroconf

    return AsyncZeroconf(interfaces=list(interfaces) if interfaces else InterfaceChoice.All)


class Announcer:
    def __init__(
        self,
        service: str,
        name: str,
        host: str,
        port: int,
        properties: Mapping[str, str],
        interfaces: Sequence[str] | None = None,
    ) -> None:
        self.service = service
        self.name = name
        self.address = own_address(host)
        self.port = port
        self.properties = dict(properties)
        self.interfaces = list(interfaces) if interfaces else None
        self._zc: Any = None

    async def start(self) -> bool:
        from zeroconf.asyncio import AsyncServiceInfo

        slug = re.sub(r"[^a-z0-9-]+", "-", self.name.lower()).strip("-") or "narrator"
        info = AsyncServiceInfo(
            self.service,
            f"{self.name}.{self.service}",
            addresses=[socket.inet_aton(self.address)],
            port=self.port,
            properties=self.properties,
            server=f"{slug}.local.",
        )
        try:
            zc = _zeroconf(self.interfaces)
            await zc.async_register_service(info, allow_name_change=True)
        except (OSError, ValueError) as exc:  # no network: announce nothing, go on
            log.warning("%s is not announced on the network: %s", self.name, exc)
            return False
        self._zc = zc
        log.info("announced %s as %s (%s:%d)", self.service, self.name, self.address, self.port)
        return True

    async def stop(self) -> None:
        zc, self._zc = self._zc, None
        if zc is not None:
            await zc.async_unregister_all_services()
            await zc.async_close()


class Browser:
    def __init__(self, service: str, found: Found, interfaces: Sequence[str] | None = None) -> None:
        self.service = service
        self.found = found
        self.interfaces = list(interfaces) if interfaces else None
        self._zc: Any = None
        self._browser: Any = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> bool:
        from zeroconf import ServiceStateChange
        from zeroconf.asyncio import AsyncServiceBrowser

        try:
            self._zc = _zeroconf(self.interfaces)
        except (OSError, ValueError) as exc:
            log.warning("no mDNS browsing for %s: %s", self.service, exc)
            return False

        def changed(zeroconf: Any, service_type: str, name: str, state_change: ServiceStateChange) -> None:
            if state_change in (ServiceStateChange.Added, ServiceStateChange.Updated):
                task = asyncio.ensure_future(self._resolve(service_type, name))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

        self._browser = AsyncServiceBrowser(self._zc.zeroconf, [self.service], handlers=[changed])
        return True

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
        if addresses and info.port:
            self.found(name.removesuffix("." + service_type), addresses[0], int(info.port), props)

    async def stop(self) -> None:
        if self._browser is not None:
            await self._browser.async_cancel()
            self._browser = None
        if self._zc is not None:
            await self._zc.async_close()
            self._zc = None
