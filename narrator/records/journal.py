"""The game journal: every action of a game, on disk before its effects happen.

One JSON object per line in `<state dir>/journal/current.jsonl`: first the header (rule
set, settings, seats, seed, dealt roles, language), then one line per action with the
clock time and wall time it arrived, and when the game ends an `end` line, after which the
file moves to `<state dir>/games/<game id>.jsonl`. Each line is written whole (`os.write`
again for whatever a short write left) and fsynced before `append` returns, so after a
crash the file holds every action whose effects may have been carried out, plus at most
one torn line (a crash in the middle of a write) that never counted.

The journal holds the roles: the file is created mode 0600 in folders of mode 0700.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import json
import logging
import os
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast, get_args

from narrator.engine.actions import Action, action_from_json
from narrator.engine.effects import Effect, Outcome
from narrator.engine.game import Game
from narrator.engine.ruleset import RuleSet
from narrator.engine.words import Reason
from narrator.errors import RecordError, RuleError
from narrator.records.disk import DirectDisk, Disk
from narrator.yamlfile import TooBig, read_limited

if TYPE_CHECKING:
    from narrator.rules.configured import ConfiguredRules

log = logging.getLogger(__name__)

VERSION = 1
CURRENT = "current.jsonl"
# A long game's journal is under 100 kB (a sports game: 240 lines, 18 kB); 1 MB of the
# smallest lines reads in under 30 MB of memory.
MAX_BYTES = 1024 * 1024

# Makes the Disk that takes a journal's action lines, given the file's descriptor.
DiskFactory = Callable[[int], Disk]

# Called with each replayed action (None for the game's opening) and its effects.
OnEffects = Callable[[Action | None, list[Effect], "Entry | None"], None]


def private_dir(path: Path) -> Path:
    """Create `path` (and parents) if needed and make it mode 0700."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path, 0o700)
    return path


def journal_dir(state_dir: str | Path) -> Path:
    return Path(state_dir) / "journal"


def games_dir(state_dir: str | Path) -> Path:
    return Path(state_dir) / "games"


def write_private(path: Path, text: str) -> Path:
    """Write a whole file readable by its owner only (mode 0600, also if it existed).

    Atomically: the text goes to a hidden file beside it, then takes its name. A full or
    failing card, or a power cut mid-write, leaves the old file whole (opening it with
    O_TRUNC lost the remembered names and the PIN on a full card)."""
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        try:
            os.fchmod(fd, 0o600)
            _write_all(fd, text.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)
    return path


@dataclass(frozen=True)
class GameHeader:
    """What is needed to start the same game again: the journal's first line."""

    rules: str  # a bundled rule set's name or a rule-set file's path
    seats: int
    seed: int = 0
    lang: str = "en"
    settings: Mapping[str, Any] = field(default_factory=dict)  # rule-set settings
    roles: tuple[str, ...] | None = None  # the deal, when the box dealt or was told
    game_id: str = ""  # set by Journal.create from the wall clock when empty
    started: str = ""  # wall-clock time the game started (ISO 8601, local)
    history: int = 200  # undo depth
    # The evening's set-up (narrator.evening.setup): players' names by seat, tournament
    # fields (tournament, table, round, game) and how the roles were dealt.
    names: tuple[str, ...] = ()
    event: Mapping[str, Any] = field(default_factory=dict)
    deal: str = "cards"
    # How the players gave their inputs, as the cues told them: pads, keypad or both (""
    # in journals written before it was recorded).
    input: str = ""
    # A judge entered the night on the judge's page (narrator.web.judge).
    judge: bool = False
    # Where `started` came from (narrator.wallclock.SOURCES: phone, network, box, unset;
    # "" in journals written before it was recorded).
    clock: str = ""
    # The set-up's rule set, resolved when it was accepted (narrator.rules.configured): a
    # header written for a new game has it, so the rule set's file is not read again; one
    # read back from a journal has not. Never written.
    configured: ConfiguredRules | None = field(default=None, compare=False, repr=False)

    def rule_set(self) -> RuleSet:
        c = self.configured
        if c is not None and c.name == self.rules:
            rules = c.base
        else:
            from narrator.rules.loader import load

            rules = load(self.rules)
        return rules.with_settings(self.settings) if self.settings else rules

    def new_game(self) -> Game:
        # No pads at the table: the hands are counted, and every ballot waits for the count.
        return Game(self.rule_set(), self.seats, self.seed, self.roles, self.history,
                    hand_count=self.input == "keypad")

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules, "seats": self.seats, "seed": self.seed, "lang": self.lang,
            "settings": dict(self.settings),
            "roles": list(self.roles) if self.roles is not None else None,
            "game_id": self.game_id, "started": self.started, "history": self.history,
            "names": list(self.names), "event": dict(self.event), "deal": self.deal,
            "input": self.input,
        } | ({"clock": self.clock} if self.clock else {}) | ({"judge": True} if self.judge else {})

    @classmethod
    def from_json(cls, data: Any, path: str, where: str = "line 1") -> GameHeader:
        def bad(problem: str) -> RecordError:
            return RecordError(path, where, problem)

        if not isinstance(data, dict):
            raise bad("the header is not an object")
        types: dict[str, type | tuple[type, ...]] = {
            "rules": str, "seats": int, "seed": int, "lang": str, "settings": dict,
            "roles": (list, type(None)), "game_id": str, "started": str, "history": int,
        }
        # Journals written before the evening's set-up existed have no names, event, deal.
        optional: dict[str, type] = {"names": list, "event": dict, "deal": str, "input": str,
                                     "clock": str, "judge": bool}
        unknown = set(data) - set(types) - set(optional)
        if unknown:
            raise bad(f"unknown header keys {sorted(unknown)}")
        for key, kind in types.items():
            if key not in data:
                raise bad(f"the header has no {key!r}")
            if not isinstance(data[key], kind) or isinstance(data[key], bool):
                raise bad(f"header {key!r} has the wrong type: {data[key]!r}")
        for key, kind in optional.items():
            if key in data and not isinstance(data[key], kind):
                raise bad(f"header {key!r} has the wrong type: {data[key]!r}")
        roles = data["roles"]
        if roles is not None and not all(isinstance(r, str) for r in roles):
            raise bad("header 'roles' must be a list of role names")
        names = data.get("names", [])
        if not all(isinstance(n, str) for n in names):
            raise bad("header 'names' must be a list of names")
        return cls(
            rules=data["rules"], seats=data["seats"], seed=data["seed"], lang=data["lang"],
            settings=dict(data["settings"]), roles=tuple(roles) if roles is not None else None,
            game_id=data["game_id"], started=data["started"], history=data["history"],
            names=tuple(names), event=dict(data.get("event", {})),
            deal=data.get("deal", "cards"), input=data.get("input", ""),
            clock=data.get("clock", ""), judge=data.get("judge", False),
        )


@dataclass(frozen=True)
class Entry:
    """One journalled action: `at` on the daemon's clock, `wall` in seconds since 1970."""

    action: Action
    at: float
    wall: float
    line: int
    # The seconds the open window's timer had left when the action came (None: none ran,
    # or a journal written before it was recorded): an undo after a restart gives them back.
    left: float | None = None


@dataclass
class Contents:
    header: GameHeader
    entries: list[Entry]
    end: Outcome | None
    ended: bool
    good_bytes: int  # the length of the file without a torn last line
    torn: bool


class Journal:
    """An open journal of a game in play. Use `create` or `resume`, not the constructor."""

    def __init__(self, state_dir: Path, path: Path, header: GameHeader, fd: int, lines: int,
                 wall: Callable[[], float] = time.time,
                 disk: DiskFactory = DirectDisk) -> None:
        self.state_dir = state_dir
        self.path = path
        self.header = header
        self._fd: int | None = fd
        self.lines = lines
        self._wall = wall
        self.disk = disk(fd)  # takes the action lines; the header and end go inline
        self.repaired: Path | None = None  # where a damaged tail was set aside on resume

    # starting
    @classmethod
    def create(cls, state_dir: str | Path, header: GameHeader,
               wall: Callable[[], float] = time.time,
               disk: DiskFactory = DirectDisk) -> Journal:
        """Start the journal of a new game. A leftover unfinished journal is archived as
        abandoned first (it is never overwritten)."""
        root = Path(state_dir)
        if not root.exists():
            root.mkdir(parents=True, mode=0o700)
        folder = private_dir(journal_dir(root))
        path = folder / CURRENT
        if path.exists():
            log.warning("%s: an unfinished game is set aside as abandoned", path)
            _archive(root, path, wall(), suffix="-abandoned")
        now = wall()
        if not header.game_id or not header.started:
            stamp = time.localtime(now)
            header = dataclasses.replace(
                header,
                game_id=header.game_id or _unused_id(root, time.strftime("%Y%m%d-%H%M%S", stamp)),
                started=header.started or time.strftime("%Y-%m-%dT%H:%M:%S", stamp),
            )
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
        try:
            _write_all(fd, _line({"journal": VERSION, "header": header.to_json(), "wall": now}))
            os.fsync(fd)
            _fsync_dir(folder)
        except OSError:
            # No game without its header: the empty file goes, the caller tries again.
            os.close(fd)
            with contextlib.suppress(OSError):
                path.unlink()
            raise
        journal = cls(root, path, header, fd, 1, wall, disk)
        log.info("new game %s: %s, %d seats", header.game_id, header.rules, header.seats)
        return journal

    @classmethod
    def resume(cls, state_dir: str | Path, on_effects: OnEffects | None = None,
               wall: Callable[[], float] = time.time,
               disk: DiskFactory = DirectDisk) -> tuple[Journal, Game] | None:
        """The unfinished game in `state_dir`, rebuilt by applying its actions again.

        None when there is none (a finished journal left behind by a crash is archived).
        The Game may be over if the power went between its last action and `finish`;
        the caller then finishes it. `on_effects` hears every replayed action's effects.
        """
        root = Path(state_dir)
        path = journal_dir(root) / CURRENT
        if not path.exists():
            return None
        private_dir(journal_dir(root))
        os.chmod(path, 0o600)
        repaired: Path | None = None
        try:
            try:
                contents = read(path)
            except RecordError as exc:
                # A bad line after the header (a damaged card, a bug): the game resumes
                # from the good lines before it; the rest is kept aside, never dropped.
                bad = _line_number(exc.where)
                if bad is None or bad <= 1:
                    raise
                repaired = _set_aside(path, bad, wall(), exc.problem)
                contents = read(path)
        except _NoHeader as exc:
            log.warning("%s: %s; the file is set aside", path, exc)
            _move_aside(path, wall())
            return None
        if contents.ended:
            _archive(root, path, wall(), game_id=contents.header.game_id)
            return None
        if contents.torn:
            log.warning("%s: the last line was cut off mid-write; it is dropped", path)
            with open(path, "r+b") as f:
                f.truncate(contents.good_bytes)
                f.flush()
                os.fsync(f.fileno())
        game, replayed, refused = replay(contents, str(path), on_effects)
        if refused is not None:
            repaired = _set_aside(path, refused[0], wall(), refused[1])
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        log.info("resumed game %s after %d actions", contents.header.game_id, replayed)
        journal = cls(root, path, contents.header, fd, 1 + replayed, wall, disk)
        journal.repaired = repaired
        return journal, game

    # writing
    def append(self, action: Action, at: float, wall: float | None = None,
               left: float | None = None) -> None:
        """Hand one action's line to the disk. `at` is the daemon's clock time, `wall` the
        wall-clock time (read now if not given), `left` the seconds the open window had
        left. On disk once `sync()` is done (at once with the DirectDisk)."""
        wall = self._wall() if wall is None else wall
        if self._fd is None:
            raise RecordError(str(self.path), "", "the journal is closed")
        line: dict[str, Any] = {"at": round(at, 4), "wall": round(wall, 4),
                                "action": action.to_json()}
        if left is not None:
            line["left"] = round(left, 2)
        self.disk.write(_line(line))
        self.lines += 1

    def sync(self) -> Future[None]:
        """Done once every action appended so far is on disk."""
        return self.disk.sync()

    def finish(self, outcome: Outcome | None, unplayed: bool = False) -> Path:
        """Close the journal of an ended (or abandoned, outcome None) game and move it to
        games/; the next start begins a new game. Returns the archived file. `unplayed`:
        abandoned before its first day, so the archive's list of games leaves it out."""
        now = self._wall()
        if self._fd is not None:  # else an earlier try wrote the end, and the move failed
            if self.disk.failing:
                # Closing would wait for the writer thread, which retries until the card
                # takes its lines: the loop would freeze. The caller tries again later.
                raise OSError(errno.EIO, "the journal cannot be written now")
            self.disk.close()  # every action line first, in order
            end: dict[str, Any] = {"end": _outcome_json(outcome), "wall": now}
            if outcome is None:
                end["abandoned"] = True  # said in so many words: the archive lists it so
            if unplayed:
                end["unplayed"] = True
            self._write(end)
            self.close()
        return _archive(self.state_dir, self.path, now, game_id=self.header.game_id)

    def close(self) -> None:
        if self._fd is not None:
            self.disk.close()
            os.close(self._fd)
            self._fd = None

    def _write(self, obj: Mapping[str, Any]) -> None:
        if self._fd is None:
            raise RecordError(str(self.path), "", "the journal is closed")
        start = os.fstat(self._fd).st_size
        try:
            _write_all(self._fd, _line(obj))
            os.fsync(self._fd)
        except OSError:
            # A full card may take half the line: cut it back, so that a later try
            # writes it whole and no torn line stays in the middle of the file.
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, start)
            raise
        self.lines += 1


def _line(obj: Mapping[str, Any]) -> bytes:
    return (json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


class _NoHeader(Exception):
    pass


def read(path: str | Path) -> Contents:
    """Read and check a journal. The last line may be torn (dropped, `torn` set); any other
    bad line is a RecordError naming the file and the line."""
    name = str(path)
    try:
        raw = read_limited(Path(path), MAX_BYTES)
    except OSError as exc:
        raise RecordError(name, "", f"cannot read: {exc.strerror}") from None
    except TooBig as exc:
        raise RecordError(name, "", str(exc)) from None
    return parse(raw, name)


def parse(raw: bytes, name: str) -> Contents:
    """A journal's bytes checked as `read` does; `name` is the file's, for the errors."""
    parts = raw.split(b"\n")
    # A line is complete only with its newline: the last piece never is.
    complete, tail = parts[:-1], parts[-1]
    torn = bool(tail)
    good = len(raw) - len(tail)
    parsed: list[tuple[int, Any]] = []
    for i, line in enumerate(complete, start=1):
        try:
            parsed.append((i, json.loads(line.decode("utf-8"))))
        except (ValueError, RecursionError) as exc:
            # ValueError: bad UTF-8, bad JSON, or a number of more than 4,300 digits.
            if isinstance(exc, RecursionError):
                exc = ValueError("nested too deeply")
            if i == len(complete) and not torn:
                # The last line, garbled by a write the power cut: it never counted.
                torn = True
                good -= len(line) + 1
                break
            raise RecordError(name, f"line {i}", f"not a JSON line: {exc}") from None
    if not parsed:
        raise _NoHeader("no complete header line")
    first = parsed[0][1]
    if not isinstance(first, dict) or "header" not in first:
        raise RecordError(name, "line 1", "the first line is not a journal header")
    if first.get("journal") != VERSION:
        raise RecordError(name, "line 1", f"unknown journal version {first.get('journal')!r}")
    header = GameHeader.from_json(first["header"], name)
    entries: list[Entry] = []
    end: Outcome | None = None
    ended = False
    for i, obj in parsed[1:]:
        where = f"line {i}"
        if ended:
            raise RecordError(name, where, "a line after the game's end")
        if not isinstance(obj, dict):
            raise RecordError(name, where, "expected an object")
        if "end" in obj:
            ended = True
            end = _outcome_from_json(obj["end"], name, where)
            continue
        at, wall = obj.get("at"), obj.get("wall")
        if not isinstance(at, int | float) or not isinstance(wall, int | float):
            raise RecordError(name, where, "an action line needs numbers 'at' and 'wall'")
        left = obj.get("left")
        if left is not None and (not isinstance(left, int | float) or isinstance(left, bool)
                                 or not 0 <= left < 1e6):
            raise RecordError(name, where, "'left' must be the seconds a window had left")
        try:
            action = action_from_json(obj.get("action"))
        except RuleError as exc:
            raise RecordError(name, where, str(exc)) from None
        entries.append(Entry(action, float(at), float(wall), i,
                             None if left is None else float(left)))
    return Contents(header, entries, end, ended, good, torn)


def replay(contents: Contents, name: str, on_effects: OnEffects | None = None
           ) -> tuple[Game, int, tuple[int, str] | None]:
    """The journal's game rebuilt: the game, how many actions it took, and the line and
    reason of the first action the engine refused (None if it took them all)."""
    try:
        game = contents.header.new_game()
    except (RuleError, ValueError) as exc:
        raise RecordError(name, "line 1", f"cannot start this game: {exc}") from None
    if on_effects:
        on_effects(None, list(game.opening), None)
    replayed = 0
    for entry in contents.entries:
        try:
            effects = game.apply(entry.action, entry.left)
        except RuleError as exc:
            return game, replayed, (entry.line, f"the engine refuses {entry.action.kind}: {exc}")
        replayed += 1
        if on_effects:
            on_effects(entry.action, effects, entry)
    return game, replayed, None


def _line_number(where: str) -> int | None:
    parts = where.split()
    if len(parts) == 2 and parts[0] == "line" and parts[1].isdigit():
        return int(parts[1])
    return None


def _set_aside(path: Path, line: int, now: float, problem: str) -> Path:
    """Cut the journal back to its lines before `line`; keep the rest in a side file."""
    raw = path.read_bytes()
    lines = raw.splitlines(keepends=True)
    keep = sum(len(x) for x in lines[:line - 1])
    side = path.with_name(f"{path.stem}.bad-{_stamp(now)}.jsonl")
    n = 2
    while side.exists():
        side = path.with_name(f"{path.stem}.bad-{_stamp(now)}-{n}.jsonl")
        n += 1
    fd = os.open(side, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        _write_all(fd, raw[keep:])
        os.fsync(fd)
    finally:
        os.close(fd)
    with open(path, "r+b") as f:
        f.truncate(keep)
        f.flush()
        os.fsync(f.fileno())
    _fsync_dir(path.parent)
    log.warning("%s: line %d is bad (%s); the game resumes from the %d lines before it, "
                "and the rest is kept in %s", path, line, problem, line - 1, side)
    return side


def set_aside(state_dir: str | Path, now: float) -> Path | None:
    """Move the unfinished game's journal out of the way, kept whole beside it
    (`current.broken-<time>.jsonl`): for one that can't be resumed at all (its header
    unreadable, its rule set gone), so that the box can begin a new game. Returns where
    it is kept (None if there was none)."""
    path = journal_dir(state_dir) / CURRENT
    if not path.exists():
        return None
    return _move_aside(path, now)


def _stamp(now: float) -> str:
    # A file the organiser is pointed to (the page's notice names it) reads as a time, in
    # the form the protocols' names use, not as seconds since 1970.
    return time.strftime("%Y%m%d-%H%M%S", time.localtime(now))


def _move_aside(path: Path, now: float) -> Path:
    target = path.with_name(f"{path.stem}.broken-{_stamp(now)}.jsonl")
    n = 2
    while target.exists():
        target = path.with_name(f"{path.stem}.broken-{_stamp(now)}-{n}.jsonl")
        n += 1
    path.rename(target)
    _fsync_dir(path.parent)
    return target


def _outcome_json(outcome: Outcome | None) -> dict[str, Any] | None:
    return None if outcome is None else {"reason": outcome.reason, "winner": outcome.winner}


REASONS: tuple[Reason, ...] = get_args(Reason)


def _outcome_from_json(data: Any, path: str, where: str) -> Outcome | None:
    if data is None:
        return None
    if not isinstance(data, dict) or data.get("reason") not in REASONS:
        raise RecordError(path, where, "a bad end line")
    winner = data.get("winner")
    return Outcome(cast(Reason, data["reason"]), winner if isinstance(winner, str) else None)


def _unused_id(root: Path, base: str) -> str:
    """A game id no earlier game of this folder has: two games can start in one second
    (a host who starts the next game at once, a test), and ids name the protocol files."""
    game_id, n = base, 2
    while (games_dir(root) / f"{game_id}.jsonl").exists() or (
            root / "protocols" / f"{game_id}.json").exists():
        game_id, n = f"{base}-{n}", n + 1
    return game_id


def _archive(root: Path, path: Path, now: float, game_id: str = "", suffix: str = "") -> Path:
    """Move a journal into games/ under its game id, never over another file."""
    if not game_id:
        try:
            game_id = read(path).header.game_id
        except (RecordError, _NoHeader):
            game_id = ""
    folder = private_dir(games_dir(root))
    base = (game_id or time.strftime("%Y%m%d-%H%M%S", time.localtime(now))) + suffix
    target = folder / f"{base}.jsonl"
    n = 2
    while target.exists():
        target = folder / f"{base}-{n}.jsonl"
        n += 1
    path.rename(target)
    _fsync_dir(folder)
    _fsync_dir(path.parent)
    return target


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _fsync_dir(folder: Path) -> None:
    # A new or renamed file survives a power cut only once its folder is synced too.
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
