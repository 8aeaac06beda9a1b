"""Every finished game the collector asked this box for goes to it until it says it has
it: a box that was off, rebooted or out of the network delivers when it is back.

The protocols folder is the queue (its files are written before a game's end is said, and
survive any restart); a game is delivered with the journal it was played from (the
collector replays it through the engine before it counts it). Only a game of a round the
collector sent (its tournament, round, table and game: narrator.uplink.pairing) is
delivered: a game played after the round ("next game") is the box's own and stays here.
What the collector answered is kept in the state folder per game, with the protocol's
digest: a protocol written again (extra points given after the game) is delivered again,
and the collector keeps it to wait for the organiser's yes; a refused game is not sent
again (the box's page says why) unless its protocol changes. Each delivery is signed with
the tournament key, and only an answer signed with it counts.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from narrator.clock import Clock
from narrator.errors import RecordError
from narrator.records.journal import games_dir, write_private
from narrator.records.protocol_value import Protocol
from narrator.records.session import protocols_dir
from narrator.tournament.wire import Delivery, Receipt, post
from narrator.uplink.pairing import Place, load

log = logging.getLogger("narrator.uplink")

DELIVERED = "tournament-delivered.json"
INTERVAL = 3.0  # seconds between passes (on the box's clock)


@dataclass
class Ledger:
    """The box's finished games of its tournament, by what became of them."""

    waiting: list[Path] = field(default_factory=list)  # to deliver
    kept: list[str] = field(default_factory=list)  # the collector has them
    refused: list[tuple[str, str]] = field(default_factory=list)  # (game id, why)
    own: list[str] = field(default_factory=list)  # no round asked for them: kept on the box
    played: dict[Place, str] = field(default_factory=dict)  # each ordered place played -> game id


class Outbox:
    def __init__(
        self, state_dir: Path, clock: Clock, box: str, port: Callable[[], int], interval: float = INTERVAL
    ) -> None:
        self.state_dir = state_dir
        self.clock = clock
        self.box = box
        self.port = port  # the page's port, told to the collector
        self.interval = interval
        self.answers, self.last_error = read_answers(state_dir)
        self._read_before: dict[str, tuple[int, Protocol | None]] = {}  # each file read once a version

    def _protocol(self, path: Path) -> Protocol | None:
        try:
            stamp = path.stat().st_mtime_ns
        except OSError:
            return None
        seen = self._read_before.get(path.stem)
        if seen is None or seen[0] != stamp:
            seen = (stamp, _protocol(path))
            self._read_before[path.stem] = seen
        return seen[1]

    def ledger(self) -> Ledger:
        return scan(self.state_dir, self.answers, self._protocol)

    def waiting(self) -> list[Path]:
        return self.ledger().waiting

    async def deliver(self) -> int:
        """One pass: deliver what waits; how many the collector took (or refused for good)."""
        waiting = self.waiting()
        if not waiting:
            return 0
        pairing = load(self.state_dir)
        done = 0
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=20)) as http:
            for path in waiting:
                delivery = self._delivery(path)
                if delivery is None:
                    continue
                reply = await post(http, pairing.collector, pairing.key, delivery)
                if reply.problem:
                    self.note(f"the collector is {reply.problem}")
                    log.info("%s: game %s waits", self.last_error, path.stem)
                    return done
                if not reply.genuine:
                    self.note(f"the collector's answer is not signed with this box's key ({reply.status})")
                    log.warning("%s: game %s waits", self.last_error, path.stem)
                    return done
                receipt = Receipt.from_json(reply.data)
                if reply.status not in (200, 400, 409) or not receipt.final:
                    self.note(f"the collector could not take game {path.stem} now ({reply.status})")
                    log.warning("%s", self.last_error)
                    continue
                self.answers[path.stem] = {
                    "digest": _digest(path),
                    "kept": receipt.kept,
                    "reason": receipt.reason,
                }
                done += 1
                if receipt.kept == "refused":
                    self.last_error = f"the collector refused game {path.stem}: {receipt.reason}"
                    log.warning("%s", self.last_error)
                else:
                    self.last_error = ""
                    log.info("game %s delivered to the collector (%s)", path.stem, receipt.kept)
                self._save()
        return done

    def _delivery(self, path: Path) -> Delivery | None:
        protocol = self._protocol(path)
        journal = games_dir(self.state_dir) / f"{path.stem}.jsonl"
        try:
            text = journal.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            self.note(f"game {path.stem} can't be delivered: its journal {journal.name} can't be read")
            log.warning("%s", self.last_error)
            return None
        if protocol is None:
            return None
        return Delivery(self.box, self.port(), protocol, text)

    def note(self, text: str) -> None:
        """The outbox's last problem (kept for the box's page: "" once all is well)."""
        if text != self.last_error:
            self.last_error = text
            self._save()

    def _save(self) -> None:
        data = {"answers": self.answers, "note": self.last_error}
        write_private(self.state_dir / DELIVERED, json.dumps(data) + "\n")


def read_answers(state_dir: Path) -> tuple[dict[str, dict[str, Any]], str]:
    """What the collector answered for each game, and the outbox's last problem."""
    data = _json(state_dir / DELIVERED) or {}
    kept = data.get("answers")
    answers: dict[str, Any] = kept if isinstance(kept, dict) else data
    out: dict[str, dict[str, Any]] = {}
    for k, v in answers.items():
        if isinstance(v, dict):
            out[k] = v
        elif isinstance(v, list) and len(v) == 2:  # written before the answers were kept
            out[k] = {"digest": v[0], "kept": "new", "reason": ""}
    note = data.get("note") if "answers" in data else ""
    return out, note if isinstance(note, str) else ""


def scan(
    state_dir: Path, answers: dict[str, dict[str, Any]], read: Callable[[Path], Protocol | None] | None = None
) -> Ledger:
    """The box's finished games of its tournament, by what became of them."""
    read = read or _protocol
    out = Ledger()
    pairing = load(state_dir)
    if not pairing.paired or not pairing.tournament:
        return out
    for path in sorted(protocols_dir(state_dir).glob("*.json")):
        if path.name.endswith(".polemica.json"):
            continue
        protocol = read(path)
        if protocol is None or not protocol.finished or protocol.event.tournament != pairing.tournament:
            continue
        event = protocol.event
        if not pairing.ordered(event):
            out.own.append(path.stem)
            continue
        assert event.round is not None and event.table is not None and event.game is not None
        out.played[(event.tournament, event.round, event.table, event.game)] = path.stem
        known = answers.get(path.stem)
        if known is None or known.get("digest") != _digest(path):
            out.waiting.append(path)
        elif known.get("kept") == "refused":
            out.refused.append((path.stem, str(known.get("reason", ""))))
        else:
            out.kept.append(path.stem)
    return out


def played_here(state_dir: Path, place: Place) -> str | None:
    """The game id of a finished game this box played for `place`, if any."""
    tournament, rnd, table, game = place
    for path in sorted(protocols_dir(state_dir).glob("*.json")):
        if path.name.endswith(".polemica.json"):
            continue
        protocol = _protocol(path)
        if protocol is None or not protocol.finished:
            continue
        e = protocol.event
        if (e.tournament, e.round, e.table, e.game) == (tournament, rnd, table, game):
            return path.stem
    return None


def _protocol(path: Path) -> Protocol | None:
    data = _json(path)
    if data is None:
        return None
    try:
        return Protocol.from_json(data, str(path))
    except RecordError:
        return None


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
