"""Telling systemd how the daemon is doing (sd_notify), without a library.

The unit is `Type=notify` with `WatchdogSec=`: the daemon says READY=1 once the cache is
rendered and the pads are live, then WATCHDOG=1 at least every `watchdog_interval()`
seconds (half the unit's WatchdogSec); if the loop hangs, systemd restarts it. Outside
systemd ($NOTIFY_SOCKET unset) every call does nothing.
"""

from __future__ import annotations

import logging
import os
import socket

log = logging.getLogger(__name__)


class Notifier:
    def __init__(self, address: str | None = None) -> None:
        self.address = address if address is not None else os.environ.get("NOTIFY_SOCKET", "")

    @property
    def enabled(self) -> bool:
        return bool(self.address)

    def send(self, *fields: str) -> bool:
        """Send `KEY=value` lines; False when not under systemd or the socket is gone."""
        if not self.address:
            return False
        # "@name" is an abstract socket: its real name starts with a NUL byte.
        address = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.connect(address)
                sock.sendall("\n".join(fields).encode("utf-8"))
        except OSError as exc:
            log.warning("sd_notify to %s failed: %s", self.address, exc)
            return False
        return True

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def reloading(self) -> bool:
        return self.send("RELOADING=1")


def watchdog_interval() -> float | None:
    """How often to send WATCHDOG=1: half of the unit's WatchdogSec, or None if the
    watchdog is off or meant for another process."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        value = int(usec)
    except ValueError:
        return None
    return value / 2_000_000 if value > 0 else None
