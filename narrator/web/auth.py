"""The organiser's PIN: sessions after a right PIN, and a brake on guessing.

A right PIN gives a random session token (a cookie, HttpOnly, SameSite=Strict, so another
site can't post with it; Max-Age its 12 h, so it outlives the browser's closing). Wrong
PINs are counted per address: after `free` misses each further try must wait, twice as
long each time up to `longest` seconds; a right PIN clears the count. They are counted
across all addresses too (`free_all`): a guesser with many addresses (IPv6, a phone
hopping networks) meets the same brake, and the organiser locked out by it meanwhile
signs in with the box's Next button (narrator.web.passes), which no guess can reach.
A signed-in phone's one-time code (narrator.web.passes.Invites) is tried in the PIN's
place and is braked the same way.

Sessions outlive a restart of the box (a power cut, the daemon restarted between games):
with `store`, each is kept in the state folder (`web-sessions.json`, mode 0600) until it
expires, `SESSION_HOURS` after the PIN was given (an evening's games). The file holds no
token and no PIN: a session is kept as the SHA-256 of PIN and token together, so a copy of
the file signs nobody in, and a new PIN ends every session made under the old one. A
sign-out removes it from the file too. Expiry is by the wall clock (`wall`), the one thing
that runs on across a restart; the brake on guessing stays in memory on the Clock port's
`now`, so the tests move it instead of sleeping.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

COOKIE = "narrator_session"
SESSIONS_FILE = "web-sessions.json"
PIN_FILE = "web-pin"  # the PIN the box made itself, mode 0600
SESSION_HOURS = 12.0  # an evening's games from one sign-in, not the next week's

log = logging.getLogger("narrator.web")


def load_or_make_pin(configured: str | None, folder: Path) -> str:
    """The configured PIN, or the box's own: made once (four random digits), kept in the
    state folder (mode 0600) so that a restart mid-game keeps the PIN the organiser has."""
    if configured:
        return configured
    path = folder / PIN_FILE
    try:
        pin = path.read_text(encoding="utf-8").strip()
        if pin.isdigit() and len(pin) >= 4:
            return pin
    except OSError:
        pass
    pin = f"{secrets.randbelow(10_000):04d}"
    from narrator.records.journal import private_dir, write_private

    try:
        private_dir(folder)
        write_private(path, pin + "\n")
    except OSError as exc:
        # A full or read-only card must not keep the box from starting (it did: exit 1 and
        # a restart loop): the PIN holds for this run, and is said and logged as usual.
        log.warning("cannot keep the page's PIN in %s (%s): it holds until a restart",
                    path, exc.strerror or exc)
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
    free_all: int = 20  # ...from all addresses together
    first_wait: float = 30.0
    longest: float = 900.0
    store: Path | None = None  # the sessions file; None: sessions live in memory only
    wall: Callable[[], float] = time.time  # expiry: the clock that runs on across restarts
    lifetime: float = SESSION_HOURS * 3600
    # A session's key (see _key) -> when it expires, by `wall`.
    sessions: dict[str, float] = field(default_factory=dict)
    # Sessions the box's Next button opened: anyone at the table can reach that button,
    # so they correct the game but never read roles (the judge's page, a deal, an
    # abandoned game's sheet), which takes the PIN.
    by_button: set[str] = field(default_factory=set)
    _misses: dict[str, _Misses] = field(default_factory=dict)
    _all: _Misses = field(default_factory=_Misses)  # every address's misses together

    def __post_init__(self) -> None:
        if self.store is not None:
            kept, button = _read_sessions(self.store)
            self.sessions.update(kept)
            self.by_button.update(k for k in button if k in kept)

    def wait_left(self, client: str) -> float:
        """Seconds before `client` may try a PIN again (0: now): its own wait, or the one
        all addresses share."""
        return max(self._left(self._misses.get(client)), self._left(self._all))

    def everyone_waits(self) -> bool:
        """Whether the brake across all addresses holds now (the page says so)."""
        return self._left(self._all) > 0

    def _left(self, m: _Misses | None) -> float:
        return max(0.0, m.until - self.now()) if m else 0.0

    def try_pin(self, client: str, pin: str, also: Callable[[str], bool] | None = None
                ) -> str | None:
        """A session token for the right PIN (or a code `also` takes: a one-time code);
        None for a wrong one or one tried too soon (a try during the wait is not even
        compared, so waiting can't be skipped)."""
        if self.wait_left(client) > 0:
            return None
        given = pin.strip()
        if hmac.compare_digest(given.encode(), self.pin.encode()) or (also is not None
                                                                       and also(given)):
            self._misses.pop(client, None)
            self._all = _Misses()
            return self.open_session()
        self._miss(self._misses.setdefault(client, _Misses()), self.free)
        self._miss(self._all, self.free_all)
        if len(self._misses) > 10_000:  # a flood of addresses: forget the oldest
            del self._misses[next(iter(self._misses))]
        return None

    def _miss(self, m: _Misses, free: int) -> None:
        m.count += 1
        if m.count >= free:
            wait = min(self.longest, self.first_wait * 2 ** min(m.count - free, 32))
            m.until = self.now() + wait

    def open_session(self, by_button: bool = False) -> str:
        """A new session's token (a right PIN, a one-time code; `by_button`: the box's
        Next button, a session that never reads roles)."""
        token = secrets.token_urlsafe(24)
        self.sessions[self._key(token)] = self.wall() + self.lifetime
        if by_button:
            self.by_button.add(self._key(token))
        self._save()
        return token

    def reads_roles(self, token: str | None) -> bool:
        """A valid session opened with the PIN (or a code a signed-in phone made), not by
        the box's Next button, which anyone at the table can hold."""
        return self.valid(token) and self._key(token or "") not in self.by_button

    def valid(self, token: str | None) -> bool:
        if not token:
            return False
        expires = self.sessions.get(self._key(token))
        return expires is not None and expires > self.wall()

    def end(self, token: str | None) -> None:
        if token and self.sessions.pop(self._key(token), None) is not None:
            self.by_button.discard(self._key(token))
            self._save()

    def _key(self, token: str) -> str:
        return hashlib.sha256(f"{self.pin}\n{token}".encode()).hexdigest()

    def _save(self) -> None:
        """The sessions still valid, to the file (a failure costs a sign-in after a
        restart, never the page: logged)."""
        now = self.wall()
        for key in [k for k, expires in self.sessions.items() if expires <= now]:
            del self.sessions[key]
        self.by_button &= set(self.sessions)
        if self.store is None:
            return
        from narrator.records.journal import private_dir, write_private

        try:
            private_dir(self.store.parent)
            write_private(self.store, json.dumps({"sessions": self.sessions,
                                                  "by_button": sorted(self.by_button)}) + "\n")
        except OSError as exc:
            log.warning("cannot keep the page's sessions in %s: %s", self.store, exc.strerror)


def _read_sessions(path: Path) -> tuple[dict[str, float], set[str]]:
    """The sessions kept by the last run, and which of them the Next button opened; a
    missing or damaged file is none (logged)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}, set()
    except (OSError, ValueError) as exc:
        log.warning("%s: the page's sessions are not kept (%s); sign in again", path, exc)
        return {}, set()
    found = data.get("sessions") if isinstance(data, dict) else None
    if not isinstance(found, dict):
        return {}, set()
    button = data.get("by_button")
    return ({str(k): float(v) for k, v in found.items()
             if isinstance(v, int | float) and not isinstance(v, bool)},
            {str(k) for k in button} if isinstance(button, list) else set())
