"""Ways into the organiser's page besides the PIN, none of which the table can overhear.

- The box's Next button, held while a phone waits (`HostButton`): the phone asks, the page
  says "hold Next on the box now", and a hold of the button within `BUTTON_SECONDS` lets
  that one phone in, once. Being at the box is the proof. Only a hold counts: a short
  press of Next is the day's "next speaker" and keeps that meaning, so the organiser
  ending a speech never lets a waiting phone in by chance, and the hold that lets a
  phone in does nothing to the game. One phone waits at a time; a second is told that
  another waits, so the organiser whose page says so knows not to hold the button.
- A one-time code a signed-in phone makes for a second device (`Invites`): six digits,
  good once, for `INVITE_SECONDS`; typed where the PIN goes and braked like the PIN.

Tickets and codes are kept only as hashes and compared in constant time; the times come
from the Clock port's `now`.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

log = logging.getLogger("narrator.web")

BUTTON_SECONDS = 30.0
INVITE_SECONDS = 600.0
INVITE_DIGITS = 6
ASK_COOKIE = "narrator_ask"  # the waiting phone's ticket

Ask = Literal["granted", "waiting", "expired"]


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass
class _Wait:
    key: str  # the ticket's hash
    until: float
    granted: bool = False


@dataclass
class HostButton:
    now: Callable[[], float]
    seconds: float = BUTTON_SECONDS
    available: bool = False  # the box has a Next button (the page offers it only then)
    _wait: _Wait | None = None

    def ask(self) -> str | None:
        """A ticket for a phone that starts waiting; None while another phone waits (or
        has been let in and not yet come for its session)."""
        now = self.now()
        w = self._wait
        if w is not None and now < w.until + (self.seconds if w.granted else 0.0):
            return None
        ticket = secrets.token_urlsafe(24)
        self._wait = _Wait(_hash(ticket), now + self.seconds)
        log.info("a phone waits for the box's Next button to sign in")
        return ticket

    def busy_for(self) -> float:
        """Seconds before another phone may ask (0: now)."""
        w = self._wait
        if w is None:
            return 0.0
        return max(0.0, w.until + (self.seconds if w.granted else 0.0) - self.now())

    def held(self) -> bool:
        """The Next button was held: the waiting phone is let in. True when it was (the
        hold is then taken for that, and nothing else)."""
        w = self._wait
        if w is None or w.granted or self.now() >= w.until:
            return False
        w.granted = True
        log.warning("the box's Next button let the waiting phone in")
        return True

    def state(self, ticket: str | None) -> tuple[Ask, float]:
        """What became of the phone's ticket, and the seconds left to wait. "granted" is
        answered once: the ticket is spent by it."""
        w = self._wait
        if not ticket or w is None or not hmac.compare_digest(_hash(ticket), w.key):
            return "expired", 0.0
        if w.granted:
            self._wait = None
            return "granted", 0.0
        left = w.until - self.now()
        if left <= 0:
            self._wait = None
            return "expired", 0.0
        return "waiting", left


@dataclass
class Invites:
    now: Callable[[], float]
    seconds: float = INVITE_SECONDS
    _codes: dict[str, float] = field(default_factory=dict)  # hash -> until

    def make(self) -> str:
        now = self.now()
        for key in [k for k, until in self._codes.items() if until <= now]:
            del self._codes[key]
        code = f"{secrets.randbelow(10 ** INVITE_DIGITS):0{INVITE_DIGITS}d}"
        self._codes[_hash(code)] = now + self.seconds
        log.info("a signed-in phone made a one-time code for another device")
        return code

    def redeem(self, code: str) -> bool:
        """Whether `code` is a live one-time code; it is spent by this."""
        if len(code) != INVITE_DIGITS or not code.isdigit():
            return False
        until = self._codes.pop(_hash(code), None)
        return until is not None and until > self.now()
