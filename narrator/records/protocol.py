"""The game protocol, built from the engine's effects as the game runs.

Fed every list of effects in order (the opening's first), it keeps what a tournament
protocol holds: seats and roles, every night choice and check, nominations and votes per
day and round, fouls with the moment they were given, eliminations, the best move and the
winner. `to_json()` is the JSON protocol; narrator.records.export_polemica and
narrator.records.protocol_html turn that into the Polemica record and the paper sheet.

Roles and checks are secret: they go into these files (mode 0600) and nowhere else. The
builder logs nothing.
"""

from __future__ import annotations

import copy
import datetime as dt
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from narrator.engine.effects import Effect, Eliminated, GameOver, OpenWindow, Phase, Record
from narrator.engine.ruleset import RuleSet
from narrator.rules.scoring import points, scoring_of

FORMAT = 1


class ProtocolBuilder:
    def __init__(self, rules: RuleSet, seats: int, *, game_id: str = "", lang: str = "en",
                 seed: int = 0, settings: Mapping[str, Any] | None = None, started: str = "",
                 undo_depth: int = 200, names: Sequence[str] = (),
                 event: Mapping[str, Any] | None = None, input_method: str = "",
                 clock: str = "", judge: bool = False) -> None:
        self.rules = rules
        self.undo_depth = undo_depth
        self._history: list[dict[str, Any]] = []
        self._clock = 0.0  # stands in for the wall clock when a feed gives none
        self.d: dict[str, Any] = {
            "game": {"id": game_id, "rules": rules.name, "title": rules.title, "seats": seats,
                     "lang": lang, "seed": seed, "settings": dict(settings or {}),
                     "started": started, "finished": "",
                     # Where the date and time came from (narrator.wallclock): a rating
                     # dates games by them, and a box's unset clock must not pass for true.
                     "clock": clock,
                     "event": dict(event or {}),
                     # How the players gave their inputs (pads, keypad, both).
                     "input": input_method,
                     # A judge entered the night on the judge's page.
                     "judge": judge,
                     # What the sheet needs of the rules: foul boxes (none where the
                     # rules have no fouls: boxed, classic), a best-move line.
                     "fouls_out": rules.fouls.remove_at if rules.fouls.enabled else 0,
                     "best_move": rules.best_move},
            "names": [names[s - 1] if s <= len(names) else "" for s in range(1, seats + 1)],
            "extra": {},  # the organiser's extra points by seat (set after the game)
            "seats": [{"seat": s, "role": "", "fouls": 0, "out": None} for s in range(1, seats + 1)],
            "nights": [], "days": [], "fouls": [], "eliminations": [], "best_move": None,
            "winner": None, "reason": None, "over": False, "abandoned": False,
            # Where the game stands, for stamping fouls with the moment they were given.
            "_now": {"phase": "night", "number": 0, "moment": None, "rounds": 0, "last_time": 0.0},
        }

    # the game's undo
    def checkpoint(self) -> None:
        """Call before applying an action, so that an Undo of it can be followed."""
        self._history.append(copy.deepcopy(self.d))
        del self._history[: -self.undo_depth]

    def undo(self) -> None:
        if self._history:
            self.d = self._history.pop()

    def abandon(self, wall: float | None = None) -> None:
        """The game was abandoned (at `wall`, seconds since 1970): the protocol is kept as
        it stands, marked so, with the time it ended."""
        self.d["abandoned"] = True
        if wall is not None:
            self.d["game"]["finished"] = _local(wall)

    # feeding
    def feed(self, effects: Iterable[Effect], wall: float | None = None) -> None:
        """Take a list of effects; `wall` is when they happened (seconds since 1970)."""
        now = self.d["_now"]
        real = wall is not None
        if wall is None:
            self._clock += 1.0
            wall = self._clock
        for effect in effects:
            if isinstance(effect, Phase):
                now.update(phase=effect.phase, number=effect.number, moment=None, rounds=0)
                self._period(effect.phase, effect.number)
            elif isinstance(effect, OpenWindow):
                now["moment"] = self._moment(effect)
            elif isinstance(effect, Record):
                self._record(effect, wall)
            elif isinstance(effect, Eliminated):
                out = {"seat": effect.seat, "how": effect.how, "phase": effect.phase,
                       "number": effect.number}
                self.d["eliminations"].append(out)
                self.d["seats"][effect.seat - 1]["out"] = {k: v for k, v in out.items() if k != "seat"}
            elif isinstance(effect, GameOver):
                self.d["over"] = True
                self.d["winner"] = effect.outcome.winner
                self.d["reason"] = effect.outcome.reason
                self.d["game"]["finished"] = _local(wall) if real else ""
                self._drop_periods_after_the_end()

    @property
    def over(self) -> bool:
        return bool(self.d["over"])

    def to_json(self) -> dict[str, Any]:
        out = {k: copy.deepcopy(v) for k, v in self.d.items() if not k.startswith("_")}
        out["protocol"] = FORMAT
        score_players(out, self.rules)
        now = self.d["_now"]
        out["stands"] = {"phase": now["phase"], "number": now["number"], "moment": now["moment"]}
        return out

    # internals
    def _drop_periods_after_the_end(self) -> None:
        """The morning (or night) that began as the game ended holds nothing: a sheet shows
        no period after the one where the game was decided."""
        elims = self.d["eliminations"]
        last = (elims[-1]["phase"], elims[-1]["number"]) if elims else None
        for key in ("days", "nights"):
            phase = "day" if key == "days" else "night"
            self.d[key] = [p for p in self.d[key] if not (
                _empty(p) and last is not None and _after((phase, p["number"]), last))]

    def _period(self, phase: str, number: int) -> dict[str, Any]:
        key = "days" if phase == "day" else "nights"
        periods: list[dict[str, Any]] = self.d[key]
        for p in periods:
            if p["number"] == number:
                return p
        if phase == "day":
            p = {"number": number, "nominations": [], "votes": [], "lift_votes": [],
                 "accusations": []}
        else:
            p = {"number": number, "choices": [], "checks": []}
        periods.append(p)
        return p

    def _moment(self, w: OpenWindow) -> dict[str, Any]:
        """The Polemica `stage` of this window: where a foul given now belongs."""
        now = self.d["_now"]
        day = now["number"]
        if now["phase"] != "day":
            return {"type": "night", "day": day}
        if w.purpose == "speech" and w.seat:
            if now["rounds"]:
                # Speeches after a ballot today are the tied players' (or the lone
                # first-day leader's) second word.
                return {"type": "reSpeech", "day": day, "player": w.seat, "voting": now["rounds"]}
            return {"type": "speech", "day": day, "player": w.seat}
        if w.purpose == "last_word" and w.seat:
            out = self.d["seats"][w.seat - 1]["out"]
            kind = "shooted" if out and out["how"] == "shot" else "voted"
            stage: dict[str, Any] = {"type": kind, "day": day, "player": w.seat}
            if kind == "voted":
                stage["voting"] = max(1, now["rounds"])
            return stage
        if w.purpose == "ballot":
            return {"type": "voting", "day": day, "voting": max(1, now["rounds"])}
        return {"type": w.purpose, "day": day}

    def _record(self, r: Record, wall: float) -> None:
        d = self.d
        now = d["_now"]
        data = r.data
        event = r.event
        if event in ("deal", "roles"):
            for seat, role in enumerate(data["roles"], start=1):
                d["seats"][seat - 1]["role"] = role
        elif event == "night_choice":
            step = self.rules.step_index.get(data["step"])
            d_night = self._period("night", data["night"])
            d_night["choices"].append({
                "step": data["step"], "ability": step.ability if step else "",
                "roles": list(step.roles) if step else [],
                "choices": [{"actor": a or None, "target": t or None} for a, t in data["choices"]],
            })
        elif event == "check":
            step = self.rules.step_index.get(data["step"])
            self._period("night", data["night"])["checks"].append({
                "step": data["step"], "roles": list(step.roles) if step else [],
                "by": list(data["by"]), "target": data["target"], "answer": data["answer"],
            })
        elif event == "nomination":
            self._period("day", data["day"])["nominations"].append(
                {"by": data["by"], "target": data["target"], "withdrawn": False})
        elif event == "withdrawn":
            for nom in reversed(self._period("day", data["day"])["nominations"]):
                if nom["by"] == data["by"] and nom["target"] == data["target"] and not nom["withdrawn"]:
                    nom["withdrawn"] = True
                    break
        elif event == "accusation":
            # Princeton rules: who accused whom, who seconded, and the vote that followed.
            self._period("day", data["day"])["accusations"].append(
                {"by": data["by"] or None, "target": data["target"], "seconded_by": None,
                 "voters": None, "convicted": None})
        elif event == "second":
            for acc in reversed(self._period("day", data["day"])["accusations"]):
                if acc["target"] == data["target"] and acc["seconded_by"] is None:
                    acc["seconded_by"] = data["by"]
                    break
        elif event == "conviction":
            for acc in reversed(self._period("day", data["day"])["accusations"]):
                if acc["target"] == data["target"] and acc["convicted"] is None:
                    acc["convicted"] = bool(data["convicted"])
                    break
        elif event == "vote":
            now["rounds"] = data["round"]
            day = self._period("day", data["day"])
            day["votes"].append(
                {"round": data["round"], "candidate": data["candidate"], "voters": list(data["voters"])})
            for acc in reversed(day["accusations"]):
                if acc["target"] == data["candidate"] and acc["seconded_by"] and acc["voters"] is None:
                    acc["voters"] = list(data["voters"])
                    break
        elif event == "forfeit":
            # 001: a severe breach gave the game to the other team: whose breach it was.
            d["forfeit"] = {"seat": data["seat"], "phase": data.get("phase", "")}
        elif event == "vote_cancelled":
            # A removal skipped or stopped the day's vote (001: "if they are nominated that
            # day, voting is skipped"): the sheet says so, or its votes would read as void.
            self._period("day", data["day"])["vote_cancelled"] = True
        elif event == "lone_nominee":
            # The day's only nominee, not voted on (sport's day 1, club's every day) or
            # gone without a vote (sport from day 2, 001: "eliminated automatically").
            self._period("day", data["day"])["lone_nominee"] = {"seat": data["seat"],
                                                                "left": bool(data["left"])}
        elif event == "lift_vote":
            now["rounds"] = max(1, now["rounds"])
            living = [s["seat"] for s in d["seats"] if s["out"] is None]
            yes = list(data["voters"])
            self._period("day", data["day"])["lift_votes"].append({
                "candidates": list(data["candidates"]), "yes": yes,
                "no": [s for s in living if s not in yes],
            })
        elif event == "all_or_none":
            # boxed: the re-vote after a tie, "jail them all, or none" (a coin may follow).
            self._period("day", data["day"]).setdefault("all_or_none", []).append({
                "candidates": list(data["candidates"]), "yes": list(data["voters"]),
                "no": list(data.get("against", [])), "coin": None})
        elif event == "coin":
            votes = self._period("day", data["day"]).get("all_or_none") or []
            if votes:
                votes[-1]["coin"] = "all" if data["all"] else "none"
        elif event == "verdict":
            # boxed: the judge's verdict replaced the day's vote.
            self._period("day", data["day"])["verdict"] = {"judge": data["seat"],
                                                           "target": data["target"]}
        elif event == "foul":
            seat = data["seat"]
            d["seats"][seat - 1]["fouls"] = data["count"]
            # Strictly increasing times keep the order when a reader sorts by them.
            at = max(wall, now["last_time"] + 1e-6)
            now["last_time"] = at
            d["fouls"].append({"seat": seat, "count": data["count"], "phase": data["phase"],
                               "stage": copy.deepcopy(now["moment"]) or
                               {"type": now["phase"], "day": now["number"]},
                               "time": _iso(at)})
        elif event == "fouls_reset":
            # club (004): a player whose third fault cost a turn starts again from none; the
            # faults given stay in the list, the sheet's boxes show the ones that stand.
            d["seats"][data["seat"] - 1]["fouls"] = 0
        elif event == "foul_taken_back":
            seat = data["seat"]
            d["seats"][seat - 1]["fouls"] = data["count"]
            mine = [i for i, f in enumerate(d["fouls"]) if f["seat"] == seat]
            if mine:
                del d["fouls"][mine[-1]]  # the sheet shows the fouls that stand
        elif event == "best_move":
            d["best_move"] = {"seat": data["seat"], "seats": list(data["seats"])}
        elif event == "game_over":
            d["winner"] = data["winner"]
            d["reason"] = data["reason"]


def score_players(protocol: dict[str, Any], rules: RuleSet) -> None:
    """Add `players` (seat, name, role, team, points, score) and `scoring` to a protocol:
    points per the rule set's scoring once the game is over, None where it gives none
    (no scoring, or the game unfinished or abandoned)."""
    scoring = scoring_of(rules)
    seats = protocol["seats"]
    roles = [s["role"] for s in seats]
    done = bool(protocol.get("over")) and not protocol.get("abandoned")
    extra = {int(k): float(v) for k, v in (protocol.get("extra") or {}).items()}
    scores = (points(scoring, rules, roles, protocol.get("winner"), protocol.get("best_move"), extra)
              if scoring is not None and done else None)
    names = protocol.get("names") or []
    protocol["scoring"] = scoring.to_json() if scoring is not None else None
    protocol["players"] = [{
        "seat": s["seat"], "name": names[i] if i < len(names) else "", "role": s["role"],
        "team": rules.roles[s["role"]].team if s["role"] in rules.roles else "",
        "points": scores[i]["total"] if scores else None, "score": scores[i] if scores else None,
    } for i, s in enumerate(seats)]


def _empty(period: Mapping[str, Any]) -> bool:
    return not any(v for k, v in period.items() if k != "number")


def _after(a: tuple[str, int], b: tuple[str, int]) -> bool:
    """Is period a later than period b? Night N follows day N (night 0, day 1, night 1...)."""
    return (a[1], a[0] == "night") > (b[1], b[0] == "night")


def _local(seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(seconds))


def _iso(seconds: float) -> str:
    return dt.datetime.fromtimestamp(seconds, dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")


def protocol_paths(folder: Path, game_id: str) -> dict[str, Path]:
    """Where a game's protocol files go: JSON, Polemica JSON and the HTML sheet."""
    return {"json": folder / f"{game_id}.json",
            "polemica": folder / f"{game_id}.polemica.json",
            "html": folder / f"{game_id}.html"}
