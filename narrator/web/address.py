"""Where the page can be reached, written for the log and spoken for the table.

Listening on every interface (0.0.0.0), the box tells the address a phone on the same
network would use: the one its default route leaves from (a UDP socket is "connected",
which sends nothing), else its host name on mDNS.
"""

from __future__ import annotations

from narrator.lan import reachable_host
from narrator.phrases import numbers

__all__ = ["reachable_host", "spoken_digits", "spoken_host", "url"]


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
