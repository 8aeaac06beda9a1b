"""Games recorded on the Polemica platform (see ../shared/data/polemica/README.md).

`read_record` validates a record and turns it into plain typed data; every problem is one
RecordError naming the file, the place and what is wrong.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from narrator.errors import RecordError
from narrator.rules.loader import load_bundled
from narrator.yamlfile import read_text

ROLE_NAMES = {0: "don", 1: "mafia", 2: "civilian", 3: "sheriff"}
RESULTS = {0: "red", 1: "black", 2: "draw"}  # 2: narrator's own (a draw)


@dataclass(frozen=True)
class Foul:
    seat: int
    time: str
    stage: dict[str, Any]


@dataclass
class PolemicaGame:
    path: str
    game_id: int | None
    roles: list[str]  # by seat, seat 1 first
    shots: dict[int, list[tuple[int, int]]]  # night -> [(shooter, victim)]
    checks: dict[tuple[int, str], int]  # (night, "don"|"sheriff") -> checked seat
    nominations: dict[int, list[tuple[int, int]]]  # day -> [(by, target)] in order
    votes: dict[tuple[int, int], dict[int, int]]  # (day, round) -> {voter: candidate}
    lift_votes: dict[int, dict[int, int]]  # day -> {voter: 1 yes / 0 no}
    fouls: list[Foul]  # in time order
    best_moves: dict[int, list[int]]  # seat -> seats named as mafia
    disqualified: list[int]
    removals: list[tuple[int, dict[str, Any]]]  # (seat, stage) of every disqualification
    stage: dict[str, Any]
    result: str | None  # "red", "black" or None for an unfinished game
    settings: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # why a setting was chosen for this record

    @property
    def finished(self) -> bool:
        return self.stage.get("type") == "gameOver"


def read_record(path: str | Path) -> PolemicaGame:
    name = str(path)
    return parse_record(read_text(path, RecordError, MAX_RECORD_BYTES), name)


def parse_record(text: str, name: str) -> PolemicaGame:
    """A record's text checked as `read_record` does; `name` is the file's, for the errors."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(name, f"line {exc.lineno}", f"not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise RecordError(name, "", "not valid JSON: nested too deeply") from None
    except ValueError as exc:  # a number of more than 4,300 digits
        raise RecordError(name, "", f"not valid JSON: {exc}") from None
    return _Reader(name).game(data)


MAX_RECORD_BYTES = 1024 * 1024  # a record is 2-10 kB; 1 MB of `[{},{},...]` is ~26 MB read


class _Reader:
    def __init__(self, path: str) -> None:
        self.path = path

    def fail(self, where: str, problem: str) -> RecordError:
        return RecordError(self.path, where, problem)

    def obj(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"expected an object, got {type(value).__name__}")
        return value

    def seq(self, value: Any, where: str) -> list[Any]:
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.fail(where, f"expected a list, got {type(value).__name__}")
        return value

    def int_in(self, value: Any, lo: int, hi: int, where: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise self.fail(where, f"expected a whole number {lo}-{hi}, got {value!r}")
        return value

    def stage(self, value: Any, where: str) -> dict[str, Any]:
        """A moment of the game (`{"type": "speech", "day": 2, "player": 5}`): the replay
        compares its numbers with the game's, so they must be numbers."""
        stage = self.obj(value, where)
        if "type" in stage and not isinstance(stage["type"], str):
            raise self.fail(f"{where}.type", f"expected a stage name, got {stage['type']!r}")
        for key in ("day", "player", "voting"):
            if key in stage:
                self.int_in(stage[key], 0, 99, f"{where}.{key}")
        return stage

    def narrator_settings(self, value: Any) -> dict[str, Any]:
        if value is None:
            return {}
        where = "config.narratorSettings"
        settings = self.obj(value, where)
        try:
            load_bundled("sport").with_settings(settings)
        except ValueError as exc:
            raise self.fail(where, str(exc)) from None
        return dict(settings)

    def game(self, data: Any) -> PolemicaGame:
        data = self.obj(data, "(top)")
        players = self.seq(data.get("players"), "players")
        n = len(players)
        if n != 10:
            raise self.fail("players", f"a sports game has 10 players, the record has {n}")
        roles = [""] * n
        fouls: list[Foul] = []
        best: dict[int, list[int]] = {}
        disq: list[int] = []
        removals: list[tuple[int, dict[str, Any]]] = []
        for i, p in enumerate(players):
            where = f"players[{i}]"
            p = self.obj(p, where)
            seat = self.int_in(p.get("position"), 1, n, f"{where}.position")
            if roles[seat - 1]:
                raise self.fail(f"{where}.position", f"seat {seat} appears twice")
            role = self.int_in(p.get("role"), 0, 3, f"{where}.role")
            roles[seat - 1] = ROLE_NAMES[role]
            for j, f in enumerate(self.seq(p.get("fouls"), f"{where}.fouls")):
                f = self.obj(f, f"{where}.fouls[{j}]")
                stage = self.stage(f.get("stage", {}), f"{where}.fouls[{j}].stage")
                fouls.append(Foul(seat, str(f.get("time", "")), stage))
            guess = p.get("guess")
            if isinstance(guess, dict) and guess.get("mafs"):
                mafs = self.seq(guess["mafs"], f"{where}.guess.mafs")
                best[seat] = [self.int_in(s, 1, n, f"{where}.guess.mafs") for s in mafs][:3]
            if p.get("disqual"):
                disq.append(seat)
                stage = (self.stage(p["disqual"], f"{where}.disqual")
                         if isinstance(p["disqual"], dict) else {})
                removals.append((seat, stage))
        counts = {r: roles.count(r) for r in set(roles)}
        if counts != {"civilian": 6, "sheriff": 1, "mafia": 2, "don": 1}:
            raise self.fail("players", f"the roles are not a sports deck: {counts}")
        shots: dict[int, list[tuple[int, int]]] = {}
        for i, s in enumerate(self.seq(data.get("shots"), "shots")):
            s = self.obj(s, f"shots[{i}]")
            night = self.int_in(s.get("night"), 1, 30, f"shots[{i}].night")
            shots.setdefault(night, []).append((
                self.int_in(s.get("shooter"), 1, n, f"shots[{i}].shooter"),
                self.int_in(s.get("victim"), 1, n, f"shots[{i}].victim"),
            ))
        checks: dict[tuple[int, str], int] = {}
        for i, c in enumerate(self.seq(data.get("checks"), "checks")):
            c = self.obj(c, f"checks[{i}]")
            night = self.int_in(c.get("night"), 1, 30, f"checks[{i}].night")
            checker = c.get("role")
            if checker not in (0, 3):
                raise self.fail(f"checks[{i}].role",
                                f"expected 0 (don) or 3 (sheriff), got {checker!r}")
            checks[(night, ROLE_NAMES[checker])] = self.int_in(
                c.get("player"), 1, n, f"checks[{i}].player")
        nominations: dict[int, list[tuple[int, int]]] = {}
        votes: dict[tuple[int, int], dict[int, int]] = {}
        lift: dict[int, dict[int, int]] = {}
        for i, v in enumerate(self.seq(data.get("votes"), "votes")):
            where = f"votes[{i}]"
            v = self.obj(v, where)
            day = self.int_in(v.get("day"), 1, 30, f"{where}.day")
            voter = self.int_in(v.get("voter"), 1, n, f"{where}.voter")
            num = v.get("num")
            if num is None:
                lift.setdefault(day, {})[voter] = self.int_in(v.get("candidate"), 0, 1, f"{where}.candidate")
                continue
            num = self.int_in(num, 0, 9, f"{where}.num")
            candidate = self.int_in(v.get("candidate"), 1, n, f"{where}.candidate")
            if num == 0:
                nominations.setdefault(day, []).append((voter, candidate))
            else:
                ballot = votes.setdefault((day, num), {})
                if voter in ballot:
                    raise self.fail(where, f"seat {voter} votes twice in day {day} round {num}")
                ballot[voter] = candidate
        stage = self.stage(data.get("stage", {}), "stage")
        result = data.get("result")
        if stage.get("type") == "gameOver" and (
                not isinstance(result, int) or isinstance(result, bool) or result not in RESULTS):
            raise self.fail("result", f"a finished game needs result 0, 1 or 2 (a draw), got {result!r}")
        config = data.get("config") if isinstance(data.get("config"), dict) else {}
        zero = data.get("zeroVoting", config.get("zeroVoting"))
        settings: dict[str, Any] = {}
        if zero is not None:
            mapping = {"none": "none", "liftOnly": "lift_only"}
            if not isinstance(zero, str) or zero not in mapping:
                raise self.fail("zeroVoting", f"unknown first-day rule {zero!r}")
            settings["day.first_day_vote"] = mapping[zero]
        if isinstance(config.get("lift3From9"), bool):
            settings["day.lift_three_of_nine"] = config["lift3From9"]
        fouls.sort(key=lambda f: f.time)
        notes: list[str] = []
        practice = _cancelled_vote_practice(fouls, removals, nominations, votes, lift, stage)
        if practice:
            settings["fouls.cancel_vote"] = "nearest"
            notes.append(f"fouls.cancel_vote: nearest (tournament practice): {practice}")
        # Neither 000 nor 001 has a best move (sport's default is off); Polemica's games are
        # tournament games, scored with it, whether or not this one's first victim made one.
        settings["best_move"] = True
        # A record narrator exported names every setting its game was played with.
        settings.update(self.narrator_settings(config.get("narratorSettings")))
        return PolemicaGame(
            path=self.path, game_id=data.get("id") if isinstance(data.get("id"), int) else None,
            roles=roles, shots=shots, checks=checks, nominations=nominations, votes=votes,
            lift_votes=lift, fouls=fouls, best_moves=best, disqualified=disq, removals=removals,
            stage=stage,
            result=RESULTS.get(result) if isinstance(result, int) else None, settings=settings,
            notes=notes,
        )


# Stages before the day's vote: a removal there concerns that day's vote; any later
# stage (the vote itself, the last words after it, the night) concerns the next day's.
_BEFORE_THE_VOTE = ("speech", "reSpeech", "shooted")


def _cancelled_vote_practice(fouls: list[Foul], removals: list[tuple[int, dict[str, Any]]],
                             nominations: dict[int, list[tuple[int, int]]],
                             votes: dict[tuple[int, int], dict[int, int]],
                             lift: dict[int, dict[int, int]], end: dict[str, Any]) -> str:
    """Why the record needs "any removal cancels the nearest vote", or "".

    001 cancels a day's vote only for a nominee's removal. A record in which a day after
    the removal of someone not nominated that day has nominations but no vote shows the
    tournament practice instead (game 272910: seat 5's fourth foul after day 2's vote, no
    vote on day 3)."""
    removed: list[tuple[int, dict[str, Any]]] = list(removals)
    by_seat: dict[int, list[Foul]] = {}
    for foul in fouls:
        by_seat.setdefault(foul.seat, []).append(foul)
    for seat, given in by_seat.items():
        if len(given) >= 4 and seat not in {r[0] for r in removals}:
            removed.append((seat, given[3].stage))
    last_day: int = end["day"] if isinstance(end.get("day"), int) else 0
    for seat, stage in removed:
        day = stage.get("day")
        if not isinstance(day, int):
            continue
        if stage.get("type") not in _BEFORE_THE_VOTE:
            day += 1
        nominees = [t for _by, t in nominations.get(day, [])]
        voted = any(d == day for d, _round in votes) or day in lift
        needs_vote = len(nominees) >= (2 if day == 1 else 1)
        if needs_vote and not voted and seat not in nominees and day < last_day:
            return (f"seat {seat} was removed ({stage.get('type')}, day {stage.get('day')}) and "
                    f"day {day} has nominations but no vote")
    return ""
