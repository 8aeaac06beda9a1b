"""The organiser's PIN: sessions after a right PIN, and a brake on guessing.

A right PIN gives a random session token (a cookie, HttpOnly, SameSite=Strict, so another
site can't post with it). Wrong PINs are counted per address: after `free` misses each
further try must wait, twice as long each time up to `longest` seconds; a right PIN clears
the count. A four-digit PIN then takes days to guess instead of seconds, and the
organiser's own address is never locked by somebody else's guessing.

Time comes from a clock (the Clock port's `now`), so the tests move it instead of sleeping.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

COOKIE = "narrator_session"


def load_or_make_pin(configured: str | None, folder: Path) -> str:
    """The configured PIN, or the box's own: made once (four random digits), kept in the
    state folder (mode 0600) so that a restart mid-game keeps the PIN the organiser has."""
    if configured:
        return configured
    path = folder / "web-pin"
    try:
        pin = path.read_text(encoding="utf-8").strip()
        if pin.isdigit() and len(pin) >= 4:
            return pin
    except OSError:
        pass
    pin = f"{secrets.randbelow(10_000):04d}"
    from narrator.records.journal import private_dir, write_private

    private_dir(folder)
    write_private(path, pin + "\n")
    return pin


@dataclass
class _Misses:
    count: int = 0
    until: float = 0.0  # no try is looked at before this time


@dataclass
class PinGate:
    pin: str
    now: Callable[[], float]
    free: int = 5  # wrong tries before the brake
    first_wait: float = 30.0
    longest: float = 900.0
    sessions: set[str] = field(default_factory=set)
    _misses: dict[str, _Misses] = field(default_factory=dict)

    def wait_left(self, client: str) -> float:
        """Seconds before `client` may try a PIN again (0: now)."""
        m = self._misses.get(client)
        return max(0.0, m.until - self.now()) if m else 0.0

    def try_pin(self, client: str, pin: str) -> str | None:
        """A session token for the right PIN; None for a wrong one or one tried too soon
        (a try during the wait is not even compared, so waiting can't be skipped)."""
        if self.wait_left(client) > 0:
            return None
        if hmac.compare_digest(pin.strip().encode(), self.pin.encode()):
            self._misses.pop(client, None)
            token = secrets.token_urlsafe(24)
            self.sessions.add(token)
            return token
        m = self._misses.setdefault(client, _Misses())
        m.count += 1
        if m.count >= self.free:
            wait = min(self.longest, self.first_wait * 2 ** (m.count - self.free))
            m.until = self.now() + wait
        if len(self._misses) > 10_000:  # a flood of addresses: forget the oldest
            del self._misses[next(iter(self._misses))]
        return None

    def valid(self, token: str | None) -> bool:
        return bool(token) and token in self.sessions

    def end(self, token: str | None) -> None:
        if token:
            self.sessions.discard(token)
