"""What travels between a box and its collector, as small typed values that own their
path and their JSON (both sides import this module, as they share narrator.tournament.signing):

- `RoundOrder`: the collector to a box: play this table's game of this round, with these
  players in these seats, by this rule set and these settings;
- `Delivery`: a box to the collector: a finished game, its protocol and the journal it was
  played from (the collector replays the journal through the engine before it counts it);
- `BoxStatus`: a box to the collector every few seconds: what it is doing, how many games
  wait in its outbox; the collector's signed answer also tells a box that this is its
  collector (a box follows its collector to a new address only on such an answer);
- `Receipt`: the collector's answer to a delivery: kept, the same again, waiting for the
  organiser, or refused (with the reason in words).

`post` sends one of them signed with the tournament key and checks the answer's signature.
Every `from_json` raises WireError with one line saying what is wrong.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

import aiohttp

from narrator.errors import RecordError
from narrator.records.protocol_value import Protocol
from narrator.tournament.signing import NONCE, SIGNATURE, answer_ok, sign_request

ROUND_PATH = "/api/tournament/round"  # on the box
DELIVERY_PATH = "/api/box/protocol"  # on the collector
STATUS_PATH = "/api/box/status"  # on the collector
JOURNAL_MAX = 1024 * 1024  # narrator.records.journal.MAX_BYTES: a long game's is under 100 kB
NAME_MAX = 80


class WireError(ValueError):
    """A message that is not what its path takes (one line)."""


def _obj(data: Any, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise WireError(f"not {what}: expected a JSON object")
    return data


def _text(data: Mapping[str, Any], key: str, what: str, limit: int = NAME_MAX, empty: bool = False) -> str:
    value = data.get(key)
    if not isinstance(value, str) or len(value) > limit or (not empty and not value.strip()):
        raise WireError(f"not {what}: {key} must be a text of 1 to {limit} characters")
    return value


def _whole(data: Mapping[str, Any], key: str, what: str, lo: int = 1, hi: int = 9999) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise WireError(f"not {what}: {key} must be a whole number from {lo} to {hi}")
    return value


def _maybe_whole(data: Mapping[str, Any], key: str, what: str) -> int | None:
    return None if data.get(key) is None else _whole(data, key, what)


class Message(typing.Protocol):
    PATH: ClassVar[str]

    def to_json(self) -> dict[str, Any]: ...


def to_bytes(message: Message) -> bytes:
    return json.dumps(message.to_json(), ensure_ascii=False).encode()


def _loads(raw: bytes, what: str) -> dict[str, Any]:
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise WireError(f"not {what}: {exc.__class__.__name__}") from None
    return _obj(data, what)


@dataclass(frozen=True)
class RoundOrder:
    """One table's game of one round, as the collector sends it to the table's box."""

    PATH: ClassVar[str] = ROUND_PATH

    tournament: str
    collector: str  # http://host:port of the collector, as this box can reach it
    table: int
    round: int
    game: int
    rules: str
    seats: int
    names: tuple[str, ...]  # by seat, seat 1 first
    lang: str = "en"
    settings: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def place(self) -> tuple[str, int, int, int]:
        """What a game played for this order carries in its event: tournament, round,
        table, game."""
        return (self.tournament, self.round, self.table, self.game)

    def to_json(self) -> dict[str, Any]:
        return {
            "tournament": self.tournament,
            "collector": self.collector,
            "table": self.table,
            "round": self.round,
            "game": self.game,
            "rules": self.rules,
            "settings": dict(self.settings),
            "lang": self.lang,
            "seats": self.seats,
            "names": list(self.names),
        }

    @classmethod
    def from_json(cls, data: Any) -> RoundOrder:
        what = "a round"
        d = _obj(data, what)
        collector = _text(d, "collector", what, 300)
        if not collector.startswith(("http://", "https://")):
            raise WireError("not a round: collector must be an http:// address")
        names = d.get("names")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise WireError("not a round: names must be a list of texts")
        settings = d.get("settings") or {}
        if not isinstance(settings, dict):
            raise WireError("not a round: settings must be an object")
        seats = _whole(d, "seats", what, 1, 99)
        if len(names) != seats:
            raise WireError(f"not a round: {len(names)} names for {seats} seats")
        return cls(
            tournament=_text(d, "tournament", what),
            collector=collector,
            table=_whole(d, "table", what),
            round=_whole(d, "round", what),
            game=_whole(d, "game", what),
            rules=_text(d, "rules", what),
            seats=seats,
            names=tuple(names),
            lang=_text(d, "lang", what, 10),
            settings=MappingProxyType(dict(settings)),
        )

    @classmethod
    def from_bytes(cls, raw: bytes) -> RoundOrder:
        return cls.from_json(_loads(raw, "a round"))


@dataclass(frozen=True)
class Delivery:
    """A finished game from a box: its protocol and the journal it was played from."""

    PATH: ClassVar[str] = DELIVERY_PATH

    box: str
    port: int
    protocol: Protocol
    journal: str  # the archived journal's text (narrator.records.journal), every line

    def to_json(self) -> dict[str, Any]:
        return {
            "box": self.box,
            "port": self.port,
            "protocol": self.protocol.to_json(),
            "journal": self.journal,
        }

    @classmethod
    def from_json(cls, data: Any) -> Delivery:
        what = "a delivery"
        d = _obj(data, what)
        journal = d.get("journal")
        if not isinstance(journal, str) or not journal or len(journal) > JOURNAL_MAX:
            raise WireError(
                "not a delivery: it has no journal (a box of this version sends its game's journal)"
            )
        try:
            protocol = Protocol.from_json(d.get("protocol"), "the protocol")
        except RecordError as exc:
            raise WireError(f"not a delivery: {exc}") from None
        return cls(_text(d, "box", what), _whole(d, "port", what, 0, 65535), protocol, journal)

    @classmethod
    def from_bytes(cls, raw: bytes) -> Delivery:
        return cls.from_json(_loads(raw, "a delivery"))


@dataclass(frozen=True)
class BoxStatus:
    """What a box is doing, as it tells its collector every few seconds."""

    PATH: ClassVar[str] = STATUS_PATH

    box: str
    port: int
    tournament: str = ""
    round: int | None = None  # of the game in play, else of the round it was last sent
    table: int | None = None
    game: int | None = None
    playing: bool = False
    phase: str = ""  # "night" or "day" with its `number`: public at the table, nothing of the night
    number: int = 0
    since: float | None = None  # when the game in play began (seconds since 1970)
    waiting: int = 0  # finished games of this tournament not yet acknowledged
    refused: int = 0  # finished games the collector refused
    note: str = ""  # the outbox's last problem, in words

    def to_json(self) -> dict[str, Any]:
        return {
            "box": self.box,
            "port": self.port,
            "tournament": self.tournament,
            "round": self.round,
            "table": self.table,
            "game": self.game,
            "playing": self.playing,
            "phase": self.phase,
            "number": self.number,
            "since": self.since,
            "waiting": self.waiting,
            "refused": self.refused,
            "note": self.note,
        }

    @classmethod
    def from_json(cls, data: Any) -> BoxStatus:
        what = "a box's status"
        d = _obj(data, what)
        since = d.get("since")
        if since is not None and (isinstance(since, bool) or not isinstance(since, int | float)):
            raise WireError("not a box's status: since must be a time")
        playing = d.get("playing", False)
        if not isinstance(playing, bool):
            raise WireError("not a box's status: playing must be true or false")
        return cls(
            box=_text(d, "box", what),
            port=_whole(d, "port", what, 0, 65535),
            tournament=_text(d, "tournament", what, empty=True) if d.get("tournament") else "",
            round=_maybe_whole(d, "round", what),
            table=_maybe_whole(d, "table", what),
            game=_maybe_whole(d, "game", what),
            playing=playing,
            phase=_text(d, "phase", what, 10, empty=True) if d.get("phase") else "",
            number=_whole(d, "number", what, 0, 999) if d.get("number") else 0,
            since=float(since) if since is not None else None,
            waiting=_whole(d, "waiting", what, 0, 100000) if d.get("waiting") else 0,
            refused=_whole(d, "refused", what, 0, 100000) if d.get("refused") else 0,
            note=_text(d, "note", what, 300, empty=True) if d.get("note") else "",
        )

    @classmethod
    def from_bytes(cls, raw: bytes) -> BoxStatus:
        return cls.from_json(_loads(raw, "a box's status"))


KEPT = ("new", "same", "pending", "refused")


@dataclass(frozen=True)
class Receipt:
    """The collector's answer to a delivery. `kept`: "new" (counted), "same" (had it:
    nothing added), "pending" (a changed result that waits for the organiser's yes),
    "refused" (never counted: `reason` says why; the box does not send it again)."""

    kept: str
    game_id: str = ""
    reason: str = ""

    @property
    def final(self) -> bool:
        return self.kept in KEPT

    def to_json(self) -> dict[str, Any]:
        return {"kept": self.kept, "game_id": self.game_id, "reason": self.reason}

    @classmethod
    def from_json(cls, data: Any) -> Receipt:
        d = data if isinstance(data, dict) else {}
        kept = d.get("kept")
        return cls(
            kept if isinstance(kept, str) and kept in KEPT else "",
            str(d.get("game_id") or ""),
            str(d.get("reason") or d.get("error") or "")[:300],
        )


@dataclass(frozen=True)
class Reply:
    """A signed POST's outcome: `genuine` when the answer is signed with the key."""

    status: int
    data: Mapping[str, Any]
    genuine: bool
    problem: str = ""  # why there is no answer at all (out of reach)

    @property
    def ok(self) -> bool:
        return self.genuine and self.status == 200


async def post(http: aiohttp.ClientSession, base: str, key: str, message: Message) -> Reply:
    """Send `message` to its path at `base` (http://host:port), signed with `key`."""
    body = to_bytes(message)
    headers = sign_request(key, "POST", message.PATH, body)
    try:
        async with http.post(
            base.rstrip("/") + message.PATH,
            data=body,
            headers={**headers, "Content-Type": "application/json"},
        ) as reply:
            answer = await reply.read()
            genuine = answer_ok(key, reply.status, headers[NONCE], answer, reply.headers.get(SIGNATURE))
            try:
                data = json.loads(answer) if answer else {}
            except ValueError:
                data = {}
            return Reply(reply.status, data if isinstance(data, dict) else {}, genuine)
    except (TimeoutError, aiohttp.ClientError, OSError, ValueError) as exc:
        return Reply(0, {}, False, f"out of reach ({exc.__class__.__name__})")
