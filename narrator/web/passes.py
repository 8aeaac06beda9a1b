"""Ways into the organiser's page besides the PIN, none of which the table can overhear.

- The box's Next button, held while a phone waits (`HostButton`): the phone asks, the page
  says "hold Next on the box now", and a hold of the button within `BUTTON_SECONDS` lets
  that one phone in, once. Being at the box is the proof. Only a hold counts: a short
  press of Next is the day's "next speaker" and keeps that meaning, so the organiser
  ending a speech never lets a waiting phone in by chance, and the hold that lets a
  phone in does nothing to the game. A hold lets a phone in only when it is the only one
  waiting: a second phone waiting alongside makes the hold let nobody in (and each page
  says how many wait), so a stranger can neither win the hold nor, braked per address,
  keep the organiser out.
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

Ask = Literal["granted", "waiting", "expired", "crowded"]


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass
class _Wait:
    key: str  # the ticket's hash
    client: str  # the address it asked from
    until: float
    granted: bool = False
    crowded: bool = False  # Next was held while others waited too: nobody was let in


@dataclass
class _Brake:
    count: int = 0  # asks of this address that ended without a sign-in
    until: float = 0.0  # no ask of this address is taken before this time


@dataclass
class HostButton:
    """The phones waiting for the box's Next button (found by a stranger: a signed-out ask
    held the only waiting place, and asking again every 30 s locked the organiser out of
    the one way in that no PIN brake stops). Any phone may wait, one ask per address at a
    time; a hold lets a phone in only when it is the only one waiting (with more, it lets
    nobody in and each waiting page says so), so waiting alongside never wins the hold,
    and the organiser's page says whether theirs is the only one. An address whose asks
    keep ending without a sign-in waits before asking again (30 s, doubling to 15 min),
    so a stranger can't keep a phone waiting all evening."""

    now: Callable[[], float]
    seconds: float = BUTTON_SECONDS
    available: bool = False  # the box has a Next button (the page offers it only then)
    free: int = 2  # asks of one address that may end without a sign-in before its brake
    first_wait: float = 30.0
    longest: float = 900.0
    most: int = 32  # phones waiting at once
    _waits: dict[str, _Wait] = field(default_factory=dict)  # by the ticket's hash
    _brakes: dict[str, _Brake] = field(default_factory=dict)

    def ask(self, client: str = "?") -> str | None:
        """A ticket for a phone that starts waiting; None when this address must wait
        first (`wait_left`), already has a phone waiting, or too many wait."""
        self._expire()
        if self.wait_left(client) > 0 or len(self._waits) >= self.most or any(
                w.client == client and not w.granted for w in self._waits.values()):
            return None
        ticket = secrets.token_urlsafe(24)
        self._waits[_hash(ticket)] = _Wait(_hash(ticket), client, self.now() + self.seconds)
        log.info("a phone waits for the box's Next button to sign in")
        return ticket

    def wait_left(self, client: str) -> float:
        """Seconds before `client` may ask again (0: now): its brake, or its phone still
        waiting."""
        self._expire()
        brake = self._brakes.get(client)
        left = max(0.0, brake.until - self.now()) if brake else 0.0
        for w in self._waits.values():
            if w.client == client and not w.granted:
                left = max(left, w.until - self.now())
        return left

    def others(self, ticket: str | None) -> int:
        """How many phones wait besides this ticket's."""
        self._expire()
        key = _hash(ticket) if ticket else ""
        return sum(1 for k, w in self._waits.items() if k != key and not w.granted and not w.crowded)

    def busy_for(self) -> float:
        """Seconds before every phone waiting now has given up (0: none waits)."""
        self._expire()
        return max((w.until - self.now() for w in self._live()), default=0.0)

    def held(self) -> bool:
        """The Next button was held. True when the hold was for a waiting phone (it is then
        taken for that, and nothing else): the one phone waiting is let in; with more
        than one, none is."""
        self._expire()
        live = self._live()
        if not live:
            return False
        if len(live) > 1:
            for w in live:
                w.crowded = True
            log.warning("the box's Next button was held while %d phones waited: none is let in",
                        len(live))
            return True
        live[0].granted = True
        log.warning("the box's Next button let the waiting phone in")
        return True

    def state(self, ticket: str | None) -> tuple[Ask, float]:
        """What became of the phone's ticket, and the seconds left to wait. "granted" and
        "crowded" are answered once: the ticket is spent by them."""
        self._expire()
        w = self._waits.get(_hash(ticket)) if ticket else None
        if w is None or not hmac.compare_digest(_hash(ticket or ""), w.key):
            return "expired", 0.0
        if w.granted or w.crowded:
            del self._waits[w.key]
            if w.granted:
                self._brakes.pop(w.client, None)
                return "granted", 0.0
            self._missed(w.client)
            return "crowded", 0.0
        return "waiting", w.until - self.now()

    def _live(self) -> list[_Wait]:
        return [w for w in self._waits.values() if not w.granted and not w.crowded]

    def _expire(self) -> None:
        """Asks whose time ran out without a hold (a granted one is kept as long again, for
        the phone to come for its session): their addresses are braked."""
        now = self.now()
        for key, w in list(self._waits.items()):
            if now >= w.until + (self.seconds if w.granted or w.crowded else 0.0):
                del self._waits[key]
                if not w.granted:
                    self._missed(w.client)
        if len(self._brakes) > 10_000:  # a flood of addresses: forget the oldest
            del self._brakes[next(iter(self._brakes))]

    def _missed(self, client: str) -> None:
        brake = self._brakes.setdefault(client, _Brake())
        brake.count += 1
        if brake.count >= self.free:
            wait = min(self.longest, self.first_wait * 2 ** min(brake.count - self.free, 32))
            brake.until = self.now() + wait


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
