"""Where this computer can be reached on the club's network (no packet is sent to learn
it: a UDP socket's connect() only picks the route)."""

from __future__ import annotations

import socket


def reachable_host(host: str) -> str:
    """The address a phone on the same network opens: `host` when it is one address;
    listening on every interface (0.0.0.0), the one the default route leaves from, else
    the host name on mDNS. Never 0.0.0.0 or 127.0.0.1 for a page on every interface."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.254.254.254", 9))
            address = str(s.getsockname()[0])
            if not address.startswith("127."):
                return address
    except OSError:
        pass
    return f"{socket.gethostname()}.local"


def own_address(host: str) -> str:
    """The address to announce by mDNS: the one listened on, or where the route to the
    mDNS group leaves."""
    if host not in ("", "0.0.0.0", "::"):
        return host
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("224.0.0.251", 5353))
            return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"
