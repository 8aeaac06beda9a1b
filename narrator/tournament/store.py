"""The tournament in SQLite (the standard library's): nothing the collector was told is
lost when it stops, and nothing is kept twice.

- `meta`: the tournament itself (narrator.tournament.event.Tournament: name, rule set,
  preset, language, tables, rounds), the organisers' sessions (hashed);
- `players`: name, club, rating id (the seating refers to them by id);
- `boxes`: each box as discovered (its name, address, port), its table (none: a spare),
  when it was last heard from and what it last said it was doing;
- `seating`: player by round, table and seat; `orders`: which box took which table's
  round (a spare box that took a table over is a second order for the same table);
- `protocols`: each counted game, one per planned seat (round, table): the protocol as the
  engine replayed it from the journal delivered with it (kept too), and its players' ids;
- `corrections`: every later change, a record of its own (who, when, why), never an edit;
  a box's changed result is one that waits for a decision record;
- `refused`: every delivery that was not counted, with the reason (once per distinct
  delivery: a box that sends it again adds nothing);
- `nonces`: the signed requests' nonces while they could be replayed, so a collector
  restarted within the window still refuses a replay.

Every write is one transaction (sqlite3's context manager), so a collector killed at any
moment keeps either all of a protocol or none of it.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from narrator.records.protocol_value import Protocol, digest
from narrator.tournament.corrections import Change, Correction
from narrator.tournament.event import Tournament
from narrator.tournament.language import Why

SCHEMA = 2
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (id INTEGER PRIMARY KEY, name TEXT NOT NULL,
    club TEXT NOT NULL DEFAULT '', rating_id TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS boxes (name TEXT PRIMARY KEY, host TEXT NOT NULL, port INTEGER NOT NULL,
    table_no INTEGER UNIQUE, seen REAL NOT NULL, heard REAL, status TEXT);
CREATE TABLE IF NOT EXISTS seating (round INTEGER NOT NULL, table_no INTEGER NOT NULL,
    seat INTEGER NOT NULL, player INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (round, table_no, seat));
CREATE TABLE IF NOT EXISTS orders (round INTEGER NOT NULL, table_no INTEGER NOT NULL, box TEXT NOT NULL,
    at REAL NOT NULL, PRIMARY KEY (round, table_no, box));
CREATE TABLE IF NOT EXISTS protocols (game_id TEXT PRIMARY KEY, round INTEGER NOT NULL,
    table_no INTEGER NOT NULL, box TEXT NOT NULL, digest TEXT NOT NULL, received REAL NOT NULL,
    body TEXT NOT NULL, journal TEXT NOT NULL, players TEXT NOT NULL, UNIQUE (round, table_no));
CREATE TABLE IF NOT EXISTS corrections (id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL REFERENCES protocols(game_id), at REAL NOT NULL, source TEXT NOT NULL,
    who TEXT NOT NULL, why TEXT NOT NULL, body TEXT NOT NULL, parent INTEGER REFERENCES corrections(id),
    digest TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS refused (id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL,
    box TEXT NOT NULL, remote TEXT NOT NULL, round INTEGER, table_no INTEGER, game_id TEXT NOT NULL,
    code TEXT NOT NULL, params TEXT NOT NULL, reason TEXT NOT NULL, digest TEXT NOT NULL,
    UNIQUE (digest, code));
CREATE TABLE IF NOT EXISTS nonces (nonce TEXT PRIMARY KEY, at REAL NOT NULL);
"""
BOXES_MAX = 200  # boxes found or heard from: a spare for every table and more


class StoreError(Why):
    """A request the tournament can't take (`code`, `params`: why, in words)."""


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
    table: int | None  # None: a spare
    seen: float  # found (or found again) on the network
    heard: float | None = None  # its last status or delivery
    status: Mapping[str, Any] | None = None  # its last BoxStatus, as JSON


@dataclass(frozen=True)
class Order:
    round: int
    table: int
    box: str
    at: float


@dataclass(frozen=True)
class GameRecord:
    """A counted game: its protocol as the engine replayed it, its players by seat, and
    every correction record about it."""

    uid: str
    round: int
    table: int
    box: str
    received: float
    protocol: Protocol
    players: tuple[int, ...]
    corrections: tuple[Correction, ...]


@dataclass(frozen=True)
class Refusal:
    id: int
    at: float
    box: str
    remote: str
    round: int | None
    table: int | None
    game_id: str
    why: Why


def game_uid(box: str, game_id: str) -> str:
    """A game's id in the tournament: a box's game ids are its start times, which two
    boxes may share, so the box's name goes in front."""
    slug = re.sub(r"[^A-Za-z0-9]+", "-", box).strip("-") or "box"
    return f"{slug}.{game_id}"


class Store:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # One connection shared by the server's loop and its executor threads, one at a time.
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        self._lock = threading.RLock()
        self._games: tuple[tuple[Any, ...], list[GameRecord]] | None = None
        self._parsed: dict[str, Protocol] = {}
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self.path.chmod(0o600)
        old = self._rows("SELECT name FROM sqlite_master WHERE type='table' AND name='sent'")
        if old:
            self._db.close()
            raise StoreError("old_store", path=str(self.path))
        self._db.executescript(_SCHEMA)
        if self.get("schema") is None:
            self.put(schema=SCHEMA)

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

    def tournament(self) -> Tournament | None:
        data = self.get("tournament")
        return Tournament.from_json(data) if isinstance(data, dict) else None

    def set_tournament(self, tournament: Tournament) -> None:
        self.put(tournament=tournament.to_json())

    # players
    def add_player(self, name: str, club: str = "", rating_id: str = "", late: bool = False) -> Player:
        """A player; once the rounds are seated, only a late arrival (`late`: the rounds
        not yet sent are seated again with them, narrator.tournament.changes)."""
        name, club, rating_id = name.strip(), club.strip(), rating_id.strip()
        if not name:
            raise StoreError("player_name")
        if len(name) > 80 or len(club) > 80 or len(rating_id) > 40:
            raise StoreError("player_long")
        if any(not c.isprintable() for c in name + club + rating_id):
            raise StoreError("player_control")
        if self.seated() and not late:
            raise StoreError("seated_already")
        with self._tx() as db:
            if db.execute("SELECT 1 FROM players WHERE lower(name)=lower(?)", (name,)).fetchone():
                raise StoreError("player_twice", name=name)
            cur = db.execute(
                "INSERT INTO players (name, club, rating_id) VALUES (?, ?, ?)", (name, club, rating_id)
            )
            return Player(int(cur.lastrowid or 0), name, club, rating_id)

    def players(self) -> list[Player]:
        return [Player(*r) for r in self._rows("SELECT id, name, club, rating_id FROM players ORDER BY id")]

    # boxes
    def saw_box(self, name: str, host: str, port: int, tables: int = 999, now: float | None = None) -> BoxRow:
        """A box found (or found again) on the network: it keeps its table; a new one gets
        the lowest of the tournament's `tables` that no box has, else none (a spare)."""
        when = time.time() if now is None else now
        with self._tx() as db:
            row = db.execute("SELECT table_no FROM boxes WHERE name=?", (name,)).fetchone()
            if row is None:
                if db.execute("SELECT count(*) FROM boxes").fetchone()[0] >= BOXES_MAX:
                    raise StoreError("too_many_boxes", most=BOXES_MAX)
                taken = {r[0] for r in db.execute("SELECT table_no FROM boxes WHERE table_no IS NOT NULL")}
                table = next((n for n in range(1, tables + 1) if n not in taken), None)
                db.execute(
                    "INSERT INTO boxes (name, host, port, table_no, seen) VALUES (?, ?, ?, ?, ?)",
                    (name, host, port, table, when),
                )
            else:
                table = row[0]
                db.execute("UPDATE boxes SET host=?, port=?, seen=? WHERE name=?", (host, port, when, name))
        return BoxRow(name, host, port, table, when)

    def heard(self, name: str, status: Mapping[str, Any] | None, now: float | None = None) -> bool:
        """A box's word (its status, or a delivery): when, and what it said; False for a
        box never found."""
        when = time.time() if now is None else now
        with self._tx() as db:
            if status is None:
                cur = db.execute("UPDATE boxes SET heard=? WHERE name=?", (when, name))
            else:
                cur = db.execute(
                    "UPDATE boxes SET heard=?, status=? WHERE name=?", (when, json.dumps(dict(status)), name)
                )
            return cur.rowcount > 0

    def boxes(self) -> list[BoxRow]:
        return [
            BoxRow(n, h, p, t, s, heard, json.loads(st) if st else None)
            for n, h, p, t, s, heard, st in self._rows(
                "SELECT name, host, port, table_no, seen, heard, status FROM boxes "
                "ORDER BY table_no IS NULL, table_no, name"
            )
        ]

    def assign(self, name: str, table: int | None) -> None:
        """Give a box a table (the organiser names the tables as they stand in the hall,
        or gives a spare box a dead box's table); the box that had it takes this one's
        old table (none: it becomes the spare). `table` None: the box becomes a spare."""
        if table is not None and not 1 <= table <= 999:
            raise StoreError("table_number")
        with self._tx() as db:
            row = db.execute("SELECT table_no FROM boxes WHERE name=?", (name,)).fetchone()
            if row is None:
                raise StoreError("no_box", name=name)
            db.execute("UPDATE boxes SET table_no=NULL WHERE name=?", (name,))
            if table is not None:
                db.execute("UPDATE boxes SET table_no=? WHERE table_no=?", (row[0], table))
                db.execute("UPDATE boxes SET table_no=? WHERE name=?", (table, name))

    def box_at(self, table: int) -> BoxRow | None:
        return next((b for b in self.boxes() if b.table == table), None)

    # seating
    def seated(self) -> bool:
        return bool(self._rows("SELECT 1 FROM seating LIMIT 1"))

    def set_seating(self, rounds: Sequence[Mapping[int, Sequence[int]]]) -> None:
        """All rounds' seating: [round - 1][table] = player ids by seat. Once only. A
        round may seat fewer tables than another (players sitting out)."""
        with self._tx() as db:
            if db.execute("SELECT 1 FROM seating LIMIT 1").fetchone():
                raise StoreError("seated_already")
            db.executemany(
                "INSERT INTO seating VALUES (?, ?, ?, ?)",
                [
                    (r, t, s, p)
                    for r, tables in enumerate(rounds, 1)
                    for t, seats in tables.items()
                    for s, p in enumerate(seats, 1)
                ],
            )

    def add_rounds(self, rounds: Sequence[Mapping[int, Sequence[int]]]) -> int:
        """A later stage's rounds after those seated (narrator.tournament.stages): the
        number of the first."""
        with self._tx() as db:
            first = int(db.execute("SELECT coalesce(max(round), 0) FROM seating").fetchone()[0]) + 1
            if first == 1:
                raise StoreError("not_seated")
            db.executemany(
                "INSERT INTO seating VALUES (?, ?, ?, ?)",
                [
                    (r, t, s, p)
                    for r, tables in enumerate(rounds, first)
                    for t, seats in tables.items()
                    for s, p in enumerate(seats, 1)
                ],
            )
            return first

    def started(self) -> set[int]:
        """The rounds sent to a box or with a game in."""
        return {int(r) for (r,) in self._rows("SELECT round FROM orders UNION SELECT round FROM protocols")}

    def replace_rounds(self, first: int, rounds: Sequence[Mapping[int, Sequence[int]]]) -> None:
        """The rounds from `first` on seated again (a withdrawal, a late arrival): none of
        them may have been sent or played."""
        with self._tx() as db:
            if any(r >= first for r in self.started()):
                raise StoreError("round_started", round=first)
            db.execute("DELETE FROM seating WHERE round >= ?", (first,))
            db.executemany(
                "INSERT INTO seating VALUES (?, ?, ?, ?)",
                [
                    (r, t, s, p)
                    for r, tables in enumerate(rounds, first)
                    for t, seats in tables.items()
                    for s, p in enumerate(seats, 1)
                ],
            )

    def substitute(self, rnd: int, table: int, seat: int, player: int) -> int:
        """Another player in a seat of a round whose game is not in: the one replaced."""
        with self._tx() as db:
            row = db.execute(
                "SELECT player FROM seating WHERE round=? AND table_no=? AND seat=?", (rnd, table, seat)
            ).fetchone()
            if row is None:
                raise StoreError("no_seat", round=rnd, table=table, seat=seat)
            if db.execute("SELECT 1 FROM protocols WHERE round=? AND table_no=?", (rnd, table)).fetchone():
                raise StoreError("table_played", round=rnd, table=table)
            if db.execute("SELECT 1 FROM seating WHERE round=? AND player=?", (rnd, player)).fetchone():
                raise StoreError("plays_this_round", round=rnd)
            db.execute(
                "UPDATE seating SET player=? WHERE round=? AND table_no=? AND seat=?",
                (player, rnd, table, seat),
            )
            return int(row[0])

    def seating(self) -> dict[int, dict[int, list[int]]]:
        """round -> table -> player ids by seat."""
        out: dict[int, dict[int, list[int]]] = {}
        for r, t, _s, p in self._rows(
            "SELECT round, table_no, seat, player FROM seating ORDER BY round, table_no, seat"
        ):
            out.setdefault(r, {}).setdefault(t, []).append(p)
        return out

    def add_order(self, rnd: int, table: int, box: str, now: float | None = None) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT OR IGNORE INTO orders VALUES (?, ?, ?, ?)",
                (rnd, table, box, time.time() if now is None else now),
            )

    def orders(self) -> list[Order]:
        return [Order(*r) for r in self._rows("SELECT round, table_no, box, at FROM orders ORDER BY at")]

    # protocols
    def keep(
        self,
        box: str,
        protocol: Protocol,
        journal: str,
        players: Sequence[int],
        now: float | None = None,
    ) -> tuple[str, str]:
        """Count a checked game (intake.check) at its seat: ("new", uid); ("same", uid) for
        the game counted before (nothing added); ("pending", uid) for it with other extra
        points (a box's change, kept to wait for the organiser's yes). A seat with another
        game, or a box never sent this table's round, is refused (StoreError)."""
        event = protocol.event
        assert event.round is not None and event.table is not None
        rnd, table = event.round, event.table
        uid = game_uid(box, protocol.game.id)
        when = time.time() if now is None else now
        body = json.dumps(protocol.to_json(), ensure_ascii=False, sort_keys=True)
        sha = digest(protocol.to_json())
        with self._tx() as db:
            sent = db.execute(
                "SELECT 1 FROM orders WHERE round=? AND table_no=? AND box=?", (rnd, table, box)
            ).fetchone()
            there = db.execute(
                "SELECT game_id, box, journal, body FROM protocols WHERE round=? AND table_no=?", (rnd, table)
            ).fetchone()
            if there is None:
                if not sent:
                    raise StoreError("not_sent", box=box, round=rnd, table=table)
                db.execute(
                    "INSERT INTO protocols VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (uid, rnd, table, box, sha, when, body, journal, json.dumps(list(players))),
                )
                return "new", uid
            if there[0] != uid or there[2] != journal:
                raise StoreError("table_has_game", round=rnd, table=table, box=there[1])
            last = json.loads(there[3]).get("extra") or {}
            row = db.execute(
                "SELECT body FROM corrections WHERE game_id=? AND source='box' ORDER BY id DESC LIMIT 1",
                (uid,),
            ).fetchone()
            if row is not None:
                last = json.loads(row[0]).get("value") or {}
            extra = {str(k): v for k, v in protocol.extra.items()}
            if {str(k): float(v) for k, v in last.items()} == extra:
                return "same", uid
            change = Change("box", None, extra)
            db.execute(
                "INSERT INTO corrections (game_id, at, source, who, why, body, parent, digest) "
                "VALUES (?, ?, 'box', ?, ?, ?, NULL, ?)",
                (
                    uid,
                    when,
                    box,
                    "extra points given on the box after the game",
                    json.dumps(change.to_json()),
                    sha,
                ),
            )
            return "pending", uid

    def correct(
        self,
        uid: str,
        change: Change,
        who: str,
        why: str,
        parent: int | None = None,
        now: float | None = None,
    ) -> int:
        """A correction by the organiser (or a decision on a box's change): a new record."""
        if not self._rows("SELECT 1 FROM protocols WHERE game_id=?", (uid,)):
            raise StoreError("no_game", game=uid)
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO corrections (game_id, at, source, who, why, body, parent) "
                "VALUES (?, ?, 'organiser', ?, ?, ?, ?)",
                (uid, time.time() if now is None else now, who, why, json.dumps(change.to_json()), parent),
            )
            return int(cur.lastrowid or 0)

    def games(self) -> list[GameRecord]:
        """Every counted game with its corrections, by round and table. Both tables only
        grow, so their sizes say whether the last answer still holds (the page asks every
        few seconds); the answer is shared: read it, never change it."""
        version = tuple(
            self._rows("SELECT (SELECT count(*) FROM protocols), (SELECT max(id) FROM corrections)")[0]
        )
        if self._games is not None and self._games[0] == version:
            return self._games[1]
        fixes: dict[str, list[Correction]] = {}
        for i, g, at, source, who, why, body, parent in self._rows(
            "SELECT id, game_id, at, source, who, why, body, parent FROM corrections ORDER BY id"
        ):
            change = Change.from_json(json.loads(body))
            fixes.setdefault(g, []).append(Correction(i, g, at, source, who, why, change, parent))
        rows = self._rows(
            "SELECT game_id, round, table_no, box, received, players FROM protocols ORDER BY round, table_no"
        )
        # A kept protocol is never written again: each is read and parsed once.
        new = [r[0] for r in rows if r[0] not in self._parsed]
        for start in range(0, len(new), 500):
            chunk = new[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for uid, body in self._rows(
                f"SELECT game_id, body FROM protocols WHERE game_id IN ({marks})", chunk
            ):
                self._parsed[uid] = Protocol.from_json(json.loads(body), uid)
        games = [
            GameRecord(
                uid,
                rnd,
                table,
                box,
                received,
                self._parsed[uid],
                tuple(json.loads(players)),
                tuple(fixes.get(uid, [])),
            )
            for uid, rnd, table, box, received, players in rows
        ]
        self._games = (version, games)
        return games

    def game(self, uid: str) -> GameRecord | None:
        return next((g for g in self.games() if g.uid == uid), None)

    def journal(self, uid: str) -> str | None:
        rows = self._rows("SELECT journal FROM protocols WHERE game_id=?", (uid,))
        return str(rows[0][0]) if rows else None

    # what was not counted
    def refuse(
        self,
        box: str,
        remote: str,
        why: Why,
        where: tuple[int | None, int | None] = (None, None),
        game_id: str = "",
        sha: str = "",
        now: float | None = None,
    ) -> bool:
        """Keep a refused delivery (once per delivery and reason); True when it is new."""
        with self._tx() as db:
            cur = db.execute(
                "INSERT OR IGNORE INTO refused (at, box, remote, round, table_no, game_id, code, params, "
                "reason, digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    time.time() if now is None else now,
                    box[:80],
                    remote,
                    where[0],
                    where[1],
                    game_id[:80],
                    why.code,
                    json.dumps(why.params, ensure_ascii=False, default=str),
                    str(why),
                    sha or digest({"box": box, "game": game_id, "why": str(why)}),
                ),
            )
            return cur.rowcount > 0

    def refusals(self, last: int = 200) -> list[Refusal]:
        return [
            Refusal(i, at, box, remote, rnd, table, game, Why(code, **json.loads(params)))
            for i, at, box, remote, rnd, table, game, code, params in self._rows(
                "SELECT id, at, box, remote, round, table_no, game_id, code, params FROM refused "
                "ORDER BY id DESC LIMIT ?",
                (last,),
            )
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
