"""The box on the club's network: an mDNS/DNS-SD service `_narrator._tcp` whose TXT record
names its table and its page's port, and the tag of its tournament key (narrator.mdns).
The collector browses for it. A box without a network announces nothing and plays all
the same."""

from __future__ import annotations

from collections.abc import Sequence

from narrator.mdns import BOX_SERVICE, Announcer


def box_announcer(table: str, host: str, port: int, interfaces: Sequence[str] | None, tag: str) -> Announcer:
    return Announcer(
        BOX_SERVICE, table, host, port, {"table": table, "port": str(port), "tag": tag, "v": "1"}, interfaces
    )
