"""Where the page can be reached, written for the log and spoken for the table.

Listening on every interface (0.0.0.0), the box tells the address a phone on the same
network would use: the one its default route leaves from (a UDP socket is "connected",
which sends nothing), else its host name on mDNS.
"""

from __future__ import annotations

import socket

from narrator.phrases import numbers


def reachable_host(host: str) -> str:
    if host not in ("0.0.0.0", "::", ""):
        return host
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.254.254.254", 9))  # connect() on UDP only picks a route
            address = str(s.getsockname()[0])
            if not address.startswith("127."):
                return address
    except OSError:
        pass
    return f"{socket.gethostname()}.local"


def url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


_DOT = {"en": "dot", "ru": "точка"}


def spoken_host(host: str, lang: str) -> str:
    """An address as words the voice reads well: 'one hundred ninety-two dot ...'."""
    parts = host.split(".")
    if all(p.isdigit() for p in parts):
        words = [numbers.cardinal(int(p), lang) for p in parts]
        return f" {_DOT.get(lang, 'dot')} ".join(words)
    return host.replace(".", f" {_DOT.get(lang, 'dot')} ")


def spoken_digits(pin: str, lang: str) -> str:
    """A PIN digit by digit: 'four, one, seven, zero'."""
    return ", ".join(numbers.cardinal(int(d), lang) for d in pin if d.isdigit())
