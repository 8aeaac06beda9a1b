"""The collector on the club's network: it browses for the boxes (`_narrator._tcp`: each
box's TXT record's table name, its address and page port, and the tag of its tournament
key) and hands those of its own tournament to `found`; and it announces itself
(`_narrator-tour._tcp`, with its port and its key's tag), so that a box finds its
collector again when the collector moves to another address or port. A box follows only
an address whose signed answer proves it is its collector (narrator.uplink.link)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence

from narrator.mdns import BOX_SERVICE, COLLECTOR_SERVICE, Announcer, Browser
from narrator.tournament.signing import key_tag

log = logging.getLogger("narrator.tournament")


def box_browser(
    key: str, found: Callable[[str, str, int], None], interfaces: Sequence[str] | None
) -> Browser:
    """A browser that passes on only the boxes announcing this key's tag."""
    tag = key_tag(key)

    def seen(name: str, address: str, port: int, props: Mapping[str, str]) -> None:
        table = props.get("table") or name
        if props.get("tag", "") == tag:
            log.info("box found: %s at %s:%d", table, address, port)
            found(table, address, port)
        else:
            log.info("a box of another tournament (or none) ignored: %s", table)

    return Browser(BOX_SERVICE, seen, interfaces)


def announcer(key: str, name: str, host: str, port: int, interfaces: Sequence[str] | None) -> Announcer:
    return Announcer(
        COLLECTOR_SERVICE, name, host, port, {"port": str(port), "tag": key_tag(key), "v": "1"}, interfaces
    )
