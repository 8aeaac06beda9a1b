"""The box on the club's network: an mDNS/DNS-SD service `_narrator._tcp` whose TXT record
names its table and its page's port (python-zeroconf). The collector browses for it.
A box without a network announces nothing and plays all the same."""

from __future__ import annotations

import logging
import re
import socket
from collections.abc import Sequence

log = logging.getLogger("narrator.uplink")

SERVICE = "_narrator._tcp.local."


def service_name(table: str) -> str:
    return f"{table}.{SERVICE}"


def own_address(host: str) -> str:
    """The address to announce: the page's own, or where the route to the mDNS group leaves."""
    if host not in ("", "0.0.0.0", "::"):
        return host
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("224.0.0.251", 5353))  # no packet is sent
            return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"


class Announcer:
    def __init__(
        self, table: str, host: str, port: int, interfaces: Sequence[str] | None = None, tag: str = ""
    ) -> None:
        self.table = table
        self.tag = tag  # signing.key_tag of the box's tournament key
        self.address = own_address(host)
        self.port = port
        self.interfaces = list(interfaces) if interfaces else None
        self._zc: object | None = None

    async def start(self) -> bool:
        from zeroconf import InterfaceChoice
        from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

        slug = re.sub(r"[^a-z0-9-]+", "-", self.table.lower()).strip("-") or "narrator"
        info = AsyncServiceInfo(
            SERVICE,
            service_name(self.table),
            addresses=[socket.inet_aton(self.address)],
            port=self.port,
            properties={"table": self.table, "port": str(self.port), "tag": self.tag, "v": "1"},
            server=f"{slug}.local.",
        )
        try:
            zc = AsyncZeroconf(interfaces=self.interfaces or InterfaceChoice.All)
            await zc.async_register_service(info, allow_name_change=True)
        except (OSError, ValueError) as exc:  # no network: the box plays without it
            log.warning("the box is not announced on the network: %s", exc)
            return False
        self._zc = zc
        log.info("announced as %s (%s:%d)", self.table, self.address, self.port)
        return True

    async def stop(self) -> None:
        from zeroconf.asyncio import AsyncZeroconf

        zc = self._zc
        if isinstance(zc, AsyncZeroconf):
            await zc.async_unregister_all_services()
            await zc.async_close()
        self._zc = None
