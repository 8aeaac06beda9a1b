"""The tournament key and the signature of every request between a box and its collector.

The key is a short text the organiser reads at the collector and types once on each box's
page. Each request carries the time it was made, a one-time nonce and an HMAC-SHA256 over
the method, the path, both of them and the body; the answer is signed over its status,
the request's nonce and its body, so a box knows the acknowledgement came from its own
collector. A request more than `WINDOW` seconds away from the receiver's time, or whose
nonce was already seen, is refused: a recorded request replayed later does nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any

TIME = "X-Narrator-Time"
NONCE = "X-Narrator-Nonce"
SIGNATURE = "X-Narrator-Signature"
WINDOW = 120.0  # seconds between the sender's and the receiver's clocks at most
_KEY_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud and typed


def make_key() -> str:
    """A new tournament key: 16 characters in four groups (80 bits)."""
    chars = "".join(secrets.choice(_KEY_ALPHABET) for _ in range(16))
    return "-".join(chars[i : i + 4] for i in range(0, 16, 4))


def normal_key(text: str) -> str:
    """The key as typed, made comparable: case, spaces and dashes do not matter."""
    return "".join(c for c in text.upper() if c.isalnum())


def _secret(key: str) -> bytes:
    return hashlib.sha256(("narrator-tournament:" + normal_key(key)).encode()).digest()


def _mac(key: str, *parts: bytes) -> str:
    return hmac.new(_secret(key), b"\n".join(parts), hashlib.sha256).hexdigest()


def key_tag(key: str) -> str:
    """What a box announces of its key (mDNS TXT `tag`): the collector lists only the boxes
    of its own tournament. An HMAC of a constant: it tells nothing of the key."""
    return _mac(key, b"announce")[:12]


def sign_request(
    key: str, method: str, path: str, body: bytes, now: Callable[[], float] = time.time
) -> dict[str, str]:
    """The headers that authenticate this request."""
    stamp = f"{now():.3f}"
    nonce = secrets.token_hex(16)
    return {
        TIME: stamp,
        NONCE: nonce,
        SIGNATURE: _mac(key, method.upper().encode(), path.encode(), stamp.encode(), nonce.encode(), body),
    }


def sign_answer(key: str, status: int, nonce: str, body: bytes) -> str:
    return _mac(key, str(status).encode(), nonce.encode(), body)


def signed_json(key: str, status: int, nonce: str, data: Mapping[str, Any]) -> tuple[bytes, dict[str, str]]:
    """An answer's JSON body and the header that signs exactly those bytes."""
    body = json.dumps(data).encode()
    return body, {SIGNATURE: sign_answer(key, status, nonce, body)}


def answer_ok(key: str, status: int, nonce: str, body: bytes, signature: str | None) -> bool:
    return signature is not None and hmac.compare_digest(sign_answer(key, status, nonce, body), signature)


@dataclass
class Verifier:
    """Checks signed requests with one key, and remembers their nonces while they could
    still be replayed (`seen` may be a persistent mapping: a restart then refuses them too)."""

    key: str
    now: Callable[[], float] = time.time
    seen: MutableMapping[str, float] = field(default_factory=dict)

    def check(self, method: str, path: str, headers: Mapping[str, str], body: bytes) -> str | None:
        """Why this request is refused (None: it is genuine and new; its nonce is kept)."""
        stamp, nonce, signature = headers.get(TIME), headers.get(NONCE), headers.get(SIGNATURE)
        if not stamp or not nonce or not signature:
            return "not signed"
        try:
            when = float(stamp)
        except ValueError:
            return "not signed"
        expected = _mac(
            self.key, method.upper().encode(), path.encode(), stamp.encode(), nonce.encode(), body
        )
        if not hmac.compare_digest(expected, signature):
            return "wrong key"
        now = self.now()
        if abs(now - when) > WINDOW:
            return "too old (or the clocks differ by more than two minutes)"
        self._forget(now)
        if nonce in self.seen:
            return "replayed"
        self.seen[nonce] = when
        return None

    def _forget(self, now: float) -> None:
        purge = getattr(self.seen, "purge", None)
        if purge is not None:  # a store forgets in one statement
            purge(now - 2 * WINDOW)
            return
        for nonce in [n for n, t in self.seen.items() if now - t > 2 * WINDOW]:
            del self.seen[nonce]
