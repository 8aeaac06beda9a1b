"""The tournament in SQLite (the standard library's): nothing the collector was told is
lost when it stops, and nothing is kept twice.

- `meta`: the tournament's name, rule set, its settings, language, tables and rounds;
- `players`: name, club, rating id (the seating refers to them by id);
- `boxes`: each table's box as discovered (its name, address, port) and its table number;
- `seating`: player by round, table and seat; `sent`: which table has taken its round;
- `protocols`: each finished game's protocol as its box first delivered it, once (by game
  id: a box delivering again is acknowledged, nothing is added);
- `corrections`: every later change, never an edit in place: the same game delivered with
  a different protocol (extra points given on the box), or a judge's change of result or
  extra points at the collector. The game's protocol in force is the first with every
  correction applied in order.
- `nonces`: the signed requests' nonces while they could be replayed, so a collector
  restarted within the window still refuses a replay.

Every write is one transaction (sqlite3's context manager), so a collector killed at any
moment keeps either all of a protocol or none of it.
"""

from __future__ import annotations

import builtins
import hashlib
import json
import re
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from narrator.errors import NarratorError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (id INTEGER PRIMARY KEY, name TEXT NOT NULL,
    club TEXT NOT NULL DEFAULT '', rating_id TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS boxes (name TEXT PRIMARY KEY, host TEXT NOT NULL, port INTEGER NOT NULL,
    table_no INTEGER UNIQUE, seen REAL NOT NULL);
CREATE TABLE IF NOT EXISTS seating (round INTEGER NOT NULL, table_no INTEGER NOT NULL,
    seat INTEGER NOT NULL, player INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (round, table_no, seat));
CREATE TABLE IF NOT EXISTS sent (round INTEGER NOT NULL, table_no INTEGER NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (round, table_no));
CREATE TABLE IF NOT EXISTS protocols (game_id TEXT PRIMARY KEY, round INTEGER, table_no INTEGER,
    box TEXT NOT NULL, digest TEXT NOT NULL, received REAL NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS corrections (id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL REFERENCES protocols(game_id), at REAL NOT NULL, kind TEXT NOT NULL,
    digest TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS nonces (nonce TEXT PRIMARY KEY, at REAL NOT NULL);
"""


class StoreError(NarratorError, ValueError):
    """A request the tournament can't take (one line saying why)."""


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    club: str = ""
    rating_id: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "club": self.club, "rating_id": self.rating_id}


@dataclass(frozen=True)
class BoxRow:
    name: str
    host: str
    port: int
    table: int | None
    seen: float


def game_uid(box: str, game_id: str) -> str:
    """A game's id in the tournament: a box's game ids are its start times, which two
    boxes may share, so the box's name goes in front."""
    slug = re.sub(r"[^A-Za-z0-9]+", "-", box).strip("-") or "box"
    return f"{slug}.{game_id}"


def digest(protocol: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(protocol, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


class Store:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # One connection shared by the server's loop and its executor threads, one at a time.
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        self._lock = threading.RLock()
        self._games: tuple[tuple[Any, ...], list[dict[str, Any]]] | None = None
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        self.path.chmod(0o600)

    def close(self) -> None:
        self._db.close()

    def _tx(self) -> _Tx:
        return _Tx(self._db, self._lock)

    def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return list(self._db.execute(sql, tuple(args)).fetchall())

    # the tournament itself
    def get(self, key: str, default: Any = None) -> Any:
        rows = self._rows("SELECT value FROM meta WHERE key=?", (key,))
        return json.loads(rows[0][0]) if rows else default

    def put(self, **values: Any) -> None:
        with self._tx() as db:
            for k, v in values.items():
                db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (k, json.dumps(v)))

    # players
    def add_player(self, name: str, club: str = "", rating_id: str = "") -> Player:
        name, club, rating_id = name.strip(), club.strip(), rating_id.strip()
        if not name:
            raise StoreError("a player needs a name")
        if len(name) > 80 or len(club) > 80 or len(rating_id) > 40:
            raise StoreError("a name or club longer than 80 characters, or a rating id longer than 40")
        if any(not c.isprintable() for c in name + club + rating_id):
            raise StoreError("a control character in a name, club or rating id")
        if self.seated():
            raise StoreError("the rounds are seated: players can't be added now")
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO players (name, club, rating_id) VALUES (?, ?, ?)", (name, club, rating_id)
            )
            return Player(int(cur.lastrowid or 0), name, club, rating_id)

    def players(self) -> list[Player]:
        return [Player(*r) for r in self._rows("SELECT id, name, club, rating_id FROM players ORDER BY id")]

    # boxes
    def saw_box(self, name: str, host: str, port: int, now: float | None = None) -> BoxRow:
        """A box found (or found again): it keeps its table number; a new one gets the
        lowest free one."""
        when = time.time() if now is None else now
        with self._tx() as db:
            row = db.execute("SELECT table_no FROM boxes WHERE name=?", (name,)).fetchone()
            if row is None:
                taken = {r[0] for r in db.execute("SELECT table_no FROM boxes")}
                table = next(n for n in range(1, len(taken) + 2) if n not in taken)
                db.execute("INSERT INTO boxes VALUES (?, ?, ?, ?, ?)", (name, host, port, table, when))
            else:
                table = row[0]
                db.execute("UPDATE boxes SET host=?, port=?, seen=? WHERE name=?", (host, port, when, name))
        return BoxRow(name, host, port, table, when)

    def boxes(self) -> list[BoxRow]:
        return [
            BoxRow(*r)
            for r in self._rows("SELECT name, host, port, table_no, seen FROM boxes ORDER BY table_no")
        ]

    def assign(self, name: str, table: int) -> None:
        """Give a box a table number (the organiser names the tables as they stand in the
        hall); a box that had that number takes this one's old number."""
        if not 1 <= table <= 999:
            raise StoreError("a table number goes from 1 to 999")
        with self._tx() as db:
            row = db.execute("SELECT table_no FROM boxes WHERE name=?", (name,)).fetchone()
            if row is None:
                raise StoreError(f"no box {name!r} has been found")
            db.execute("UPDATE boxes SET table_no=NULL WHERE name=?", (name,))
            db.execute("UPDATE boxes SET table_no=? WHERE table_no=?", (row[0], table))
            db.execute("UPDATE boxes SET table_no=? WHERE name=?", (table, name))

    def box_at(self, table: int) -> BoxRow | None:
        rows = self._rows("SELECT name, host, port, table_no, seen FROM boxes WHERE table_no=?", (table,))
        return BoxRow(*rows[0]) if rows else None

    # seating
    def seated(self) -> bool:
        return bool(self._rows("SELECT 1 FROM seating LIMIT 1"))

    def set_seating(self, rounds: Sequence[Sequence[Sequence[int]]]) -> None:
        """All rounds' seating: [round][table][seat - 1] -> player id. Once only."""
        with self._tx() as db:
            if db.execute("SELECT 1 FROM seating LIMIT 1").fetchone():
                raise StoreError("the rounds are seated already")
            db.executemany(
                "INSERT INTO seating VALUES (?, ?, ?, ?)",
                [
                    (r, t, s, p)
                    for r, tables in enumerate(rounds, 1)
                    for t, seats in enumerate(tables, 1)
                    for s, p in enumerate(seats, 1)
                ],
            )

    def seating(self) -> dict[int, dict[int, list[int]]]:
        """round -> table -> player ids by seat."""
        out: dict[int, dict[int, list[int]]] = {}
        for r, t, _s, p in self._rows(
            "SELECT round, table_no, seat, player FROM seating ORDER BY round, table_no, seat"
        ):
            out.setdefault(r, {}).setdefault(t, []).append(p)
        return out

    def mark_sent(self, rnd: int, table: int) -> None:
        with self._tx() as db:
            db.execute("INSERT OR REPLACE INTO sent VALUES (?, ?, ?)", (rnd, table, time.time()))

    def sent(self) -> builtins.set[tuple[int, int]]:
        return {(r, t) for r, t in self._rows("SELECT round, table_no FROM sent")}

    # protocols
    def take_protocol(self, box: str, protocol: Mapping[str, Any], now: float | None = None) -> str:
        """Keep a delivered protocol: "new", "same" (delivered before: nothing added) or
        "correction" (the box's protocol changed since: kept as a correction)."""
        game = protocol.get("game") if isinstance(protocol, Mapping) else None
        game_id = game.get("id") if isinstance(game, Mapping) else None
        if not isinstance(game_id, str) or not game_id or len(game_id) > 80:
            raise StoreError("the protocol has no game id")
        game_id = game_uid(box, game_id)
        event = game.get("event") or {} if isinstance(game, Mapping) else {}
        rnd, table = event.get("round"), event.get("table")
        body = json.dumps(protocol, ensure_ascii=False, sort_keys=True)
        sha = digest(protocol)
        when = time.time() if now is None else now
        with self._tx() as db:
            row = db.execute("SELECT digest FROM protocols WHERE game_id=?", (game_id,)).fetchone()
            if row is None:
                db.execute(
                    "INSERT INTO protocols VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        game_id,
                        rnd if isinstance(rnd, int) else None,
                        table if isinstance(table, int) else None,
                        box,
                        sha,
                        when,
                        body,
                    ),
                )
                return "new"
            last = db.execute(
                "SELECT digest FROM corrections WHERE game_id=? AND kind='box' ORDER BY id DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            if (last[0] if last else row[0]) == sha:
                return "same"
            db.execute(
                "INSERT INTO corrections (game_id, at, kind, digest, body) VALUES (?, ?, 'box', ?, ?)",
                (game_id, when, sha, body),
            )
            return "correction"

    def correct(self, game_id: str, change: Mapping[str, Any], who: str = "judge") -> None:
        """A judge's change of a game (winner, extra points): a new record."""
        if not self._rows("SELECT 1 FROM protocols WHERE game_id=?", (game_id,)):
            raise StoreError(f"no game {game_id!r} in this tournament")
        body = json.dumps(dict(change), ensure_ascii=False, sort_keys=True)
        with self._tx() as db:
            db.execute(
                "INSERT INTO corrections (game_id, at, kind, digest, body) VALUES (?, ?, ?, ?, ?)",
                (game_id, time.time(), who, digest(change), body),
            )

    def games(self) -> list[dict[str, Any]]:
        """Every game's protocol in force (corrections applied in order), by round and table.
        Both tables only grow, so their sizes say whether the last answer still holds (the
        page asks every few seconds); the answer is shared: read it, never change it."""
        version = tuple(
            self._rows("SELECT (SELECT count(*) FROM protocols), (SELECT max(id) FROM corrections)")[0]
        )
        if self._games is not None and self._games[0] == version:
            return self._games[1]
        out: dict[str, dict[str, Any]] = {}
        for game_id, box, body in self._rows(
            "SELECT game_id, box, body FROM protocols ORDER BY round, table_no, received"
        ):
            protocol = json.loads(body)
            protocol["_box"] = box
            protocol["_uid"] = game_id
            protocol["_corrections"] = 0
            out[game_id] = protocol
        for game_id, kind, body in self._rows("SELECT game_id, kind, body FROM corrections ORDER BY id"):
            old = out[game_id]
            change = json.loads(body)
            if kind == "box":
                change["_box"], change["_uid"] = old["_box"], old["_uid"]
                change["_corrections"] = old["_corrections"]
                out[game_id] = change
            else:
                old.update({k: v for k, v in change.items() if k in ("winner", "extra")})
            out[game_id]["_corrections"] += 1
        games = list(out.values())
        self._games = (version, games)
        return games

    def corrections(self) -> list[dict[str, Any]]:
        return [
            {"id": i, "game_id": g, "at": at, "kind": k}
            for i, g, at, k in self._rows("SELECT id, game_id, at, kind FROM corrections ORDER BY id")
        ]

    def nonce_book(self) -> NonceBook:
        return NonceBook(self)


class NonceBook(MutableMapping[str, float]):
    """The signing.Verifier's `seen`, kept in the store (a restart still refuses replays)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def __getitem__(self, nonce: str) -> float:
        rows = self._store._rows("SELECT at FROM nonces WHERE nonce=?", (nonce,))
        if not rows:
            raise KeyError(nonce)
        return float(rows[0][0])

    def __setitem__(self, nonce: str, at: float) -> None:
        with self._store._tx() as db:
            db.execute("INSERT OR REPLACE INTO nonces VALUES (?, ?)", (nonce, at))

    def __delitem__(self, nonce: str) -> None:
        with self._store._tx() as db:
            db.execute("DELETE FROM nonces WHERE nonce=?", (nonce,))

    def __iter__(self) -> Iterator[str]:
        return iter([r[0] for r in self._store._rows("SELECT nonce FROM nonces")])

    def purge(self, before: float) -> None:
        with self._store._tx() as db:
            db.execute("DELETE FROM nonces WHERE at < ?", (before,))

    def __len__(self) -> int:
        return int(self._store._rows("SELECT count(*) FROM nonces")[0][0])


class _Tx:
    def __init__(self, db: sqlite3.Connection, lock: threading.RLock) -> None:
        self._db = db
        self._lock = lock

    def __enter__(self) -> sqlite3.Connection:
        self._lock.acquire()
        self._db.execute("BEGIN IMMEDIATE")
        return self._db

    def __exit__(self, kind: object, *rest: object) -> None:
        try:
            self._db.execute("ROLLBACK" if kind is not None else "COMMIT")
        finally:
            self._lock.release()
