"""Every finished game of the box's tournament goes to the collector until it says it has
it: a box that was off, rebooted or out of the network delivers when it is back.

The protocols folder is the queue (its files are written before a game's end is said, and
survive any restart); what the collector acknowledged is kept in the state folder as each
game's file digest, so a protocol written again (extra points given after the game) is
delivered again, and the collector keeps it as a correction. Each delivery is signed with
the tournament key, and only an answer signed with it counts as an acknowledgement.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

from narrator.clock import Clock
from narrator.records.journal import write_private
from narrator.records.session import protocols_dir
from narrator.tournament.signing import NONCE, SIGNATURE, answer_ok, sign_request
from narrator.uplink.pairing import load

log = logging.getLogger("narrator.uplink")

PATH = "/api/box/protocol"
DELIVERED = "tournament-delivered.json"
INTERVAL = 3.0  # seconds between passes (on the box's clock)


class Outbox:
    def __init__(
        self, state_dir: Path, clock: Clock, box: str, port: Callable[[], int], interval: float = INTERVAL
    ) -> None:
        self.state_dir = state_dir
        self.clock = clock
        self.box = box
        self.port = port  # the page's port, told to the collector (it learns the box by it)
        self.interval = interval
        self.delivered: dict[str, list[Any]] = self._read()
        self.last_error = ""

    async def run(self) -> None:
        while True:
            try:
                await self.deliver()
            except Exception:  # never let the outbox stop: the next pass tries again
                log.exception("delivering the protocols failed")
            await self.clock.sleep(self.interval)

    def waiting(self) -> list[Path]:
        """The finished games of this box's tournament the collector has not acknowledged."""
        pairing = load(self.state_dir)
        if not pairing.paired or not pairing.tournament:
            return []
        out = []
        for path in sorted(protocols_dir(self.state_dir).glob("*.json")):
            if path.name.endswith(".polemica.json"):
                continue
            try:
                stamp = path.stat().st_mtime_ns
            except OSError:
                continue
            known = self.delivered.get(path.stem)
            if known is not None and known[1] == stamp:
                continue
            protocol = _read_json(path)
            if protocol is None or not protocol.get("over") or protocol.get("abandoned"):
                continue
            if (protocol.get("game", {}).get("event") or {}).get("tournament") != pairing.tournament:
                continue
            if known is not None and known[0] == _digest(path):
                self.delivered[path.stem] = [known[0], stamp]
                continue
            out.append(path)
        return out

    async def deliver(self) -> int:
        """One pass: deliver what waits; how many the collector acknowledged."""
        waiting = self.waiting()
        if not waiting:
            return 0
        pairing = load(self.state_dir)
        done = 0
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as http:
            for path in waiting:
                protocol = _read_json(path)
                if protocol is None:
                    continue
                body = json.dumps(
                    {"box": self.box, "port": self.port(), "protocol": protocol}, ensure_ascii=False
                ).encode()
                headers = sign_request(pairing.key, "POST", PATH, body)
                try:
                    async with http.post(
                        pairing.collector.rstrip("/") + PATH,
                        data=body,
                        headers={**headers, "Content-Type": "application/json"},
                    ) as reply:
                        answer = await reply.read()
                        genuine = answer_ok(
                            pairing.key, reply.status, headers[NONCE], answer, reply.headers.get(SIGNATURE)
                        )
                        status = reply.status
                except (TimeoutError, aiohttp.ClientError, OSError) as exc:
                    self.last_error = f"the collector is out of reach ({exc.__class__.__name__})"
                    log.info("%s: game %s waits", self.last_error, path.stem)
                    return done
                if not genuine:
                    self.last_error = f"the collector's answer is not signed with this box's key ({status})"
                    log.warning("%s: game %s waits", self.last_error, path.stem)
                    return done
                if status != 200:
                    self.last_error = f"the collector refused game {path.stem}: {answer[:200]!r}"
                    log.warning("%s", self.last_error)
                    continue
                self.delivered[path.stem] = [_digest(path), path.stat().st_mtime_ns]
                self._save()
                self.last_error = ""
                done += 1
                log.info("game %s delivered to the collector", path.stem)
        return done

    def _read(self) -> dict[str, list[Any]]:
        data = _read_json(self.state_dir / DELIVERED)
        return {k: v for k, v in (data or {}).items() if isinstance(v, list) and len(v) == 2}

    def _save(self) -> None:
        write_private(self.state_dir / DELIVERED, json.dumps(self.delivered) + "\n")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
