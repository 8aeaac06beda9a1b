"""A JSON protocol as a Polemica record (the format of ../shared/data/polemica).

The format knows the 10-seat sports game only: don, mafia, civilian and sheriff, a red or
black winner. `narrator.records.polemica.read_record` reads the export back and
`narrator.records.replay.replay` of it gives the same eliminations and winner.

What the format cannot say is left out, and `to_polemica` raises ExportError for a game it
cannot describe at all (another rule set's roles, an abandoned game). Two things the
platform's own records do not carry are added so that a replay plays the game as it was
played: a draw (tournament practice: three rounds without an elimination) is `result` 2,
and `config.narratorSettings` holds every rule-set setting the game was played with.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from narrator.errors import NarratorError
from narrator.records.journal import write_private

ROLE_CODES = {"don": 0, "mafia": 1, "civilian": 2, "sheriff": 3}
RESULT_CODES = {"red": 0, "black": 1, "draw": 2}
_ZERO_VOTING = {"none": "none", "lift_only": "liftOnly"}


class ExportError(NarratorError, ValueError):
    """A game the Polemica format cannot describe."""


def to_polemica(protocol: Mapping[str, Any]) -> dict[str, Any]:
    seats: list[dict[str, Any]] = protocol["seats"]
    unknown = sorted({s["role"] for s in seats} - set(ROLE_CODES))
    if unknown:
        raise ExportError(f"Polemica records know don, mafia, civilian and sheriff, "
                          f"not {', '.join(repr(r) for r in unknown)}")
    over = bool(protocol.get("over"))
    winner = protocol.get("winner")
    if over and winner not in RESULT_CODES:
        raise ExportError(f"Polemica records have no result for a {winner or 'aborted'} game")

    players: list[dict[str, Any]] = []
    fouls_of: dict[int, list[dict[str, Any]]] = {}
    for f in protocol["fouls"]:
        fouls_of.setdefault(f["seat"], []).append({"time": f["time"], "stage": dict(f["stage"])})
    best = protocol.get("best_move")
    names = protocol.get("names") or []
    for s in seats:
        seat = s["seat"]
        player: dict[str, Any] = {"position": seat, "role": ROLE_CODES[s["role"]], "techs": [],
                                  "fouls": fouls_of.get(seat, [])}
        if seat <= len(names) and names[seat - 1]:
            player["name"] = names[seat - 1]
        if best and best["seat"] == seat:
            player["guess"] = {"mafs": list(best["seats"])}
        out = s.get("out")
        if out and out["how"] in ("fouls", "removed"):
            player["disqual"] = _disqual_stage(protocol, seat, out)
        players.append(player)

    shots: list[dict[str, Any]] = []
    checks: list[dict[str, Any]] = []
    for night in sorted(protocol["nights"], key=lambda n: n["number"]):
        n = night["number"]
        for step in night["choices"]:
            if step["ability"] != "kill" or not {"mafia", "don"} & set(step["roles"]):
                continue
            for c in step["choices"]:
                if c["target"]:
                    # No actor: a keypad entry, made for the role as a whole. Polemica
                    # records each shooter: every living holder of the step's roles.
                    for shooter in [c["actor"]] if c["actor"] else _living(protocol, step["roles"], n):
                        shots.append({"night": n, "shooter": shooter, "victim": c["target"]})
        for check in night["checks"]:
            role = 3 if "sheriff" in check["roles"] else 0 if "don" in check["roles"] else None
            if role is not None:
                checks.append({"night": n, "role": role, "player": check["target"]})

    votes: list[dict[str, Any]] = []
    for day in sorted(protocol["days"], key=lambda d: d["number"]):
        n = day["number"]
        for nom in day["nominations"]:
            if not nom["withdrawn"]:
                votes.append({"day": n, "num": 0, "voter": nom["by"], "candidate": nom["target"]})
        for ballot in day["votes"]:
            for voter in ballot["voters"]:
                votes.append({"day": n, "num": ballot["round"], "voter": voter,
                              "candidate": ballot["candidate"]})
        for lift in day["lift_votes"]:
            for voter in sorted([*lift["yes"], *lift["no"]]):
                votes.append({"day": n, "voter": voter, "candidate": 1 if voter in lift["yes"] else 0})

    stands = protocol.get("stands", {})
    if over:
        stage: dict[str, Any] = {"type": "gameOver", "day": stands.get("number", 0)}
    else:
        stage = dict(stands.get("moment") or {"type": stands.get("phase", "night"),
                                               "day": stands.get("number", 0)})
    config: dict[str, Any] = {}
    settings = protocol["game"].get("settings", {})
    first_day = settings.get("day.first_day_vote")
    if first_day in _ZERO_VOTING:
        config["zeroVoting"] = _ZERO_VOTING[first_day]
    if isinstance(settings.get("day.lift_three_of_nine"), bool):
        config["lift3From9"] = settings["day.lift_three_of_nine"]
    if settings:
        config["narratorSettings"] = dict(settings)
    record: dict[str, Any] = {
        "id": None, "stage": stage, "checks": checks, "shots": shots, "votes": votes,
        "result": RESULT_CODES.get(winner) if over and isinstance(winner, str) else None,
        "players": players,
    }
    if config:
        record["config"] = config
    return record


def _living(protocol: Mapping[str, Any], roles: list[str], night: int) -> list[int]:
    """The seats holding one of `roles` that were still at the table on `night` (those who
    leave that very night were there when it began)."""
    from narrator.records.protocol import _after

    def there(out: Mapping[str, Any] | None) -> bool:
        return out is None or not _after(("night", night), (out["phase"], out["number"]))

    return [s["seat"] for s in protocol["seats"] if s["role"] in roles and there(s.get("out"))]


def write_polemica(protocol: Mapping[str, Any], path: Path) -> Path:
    return write_private(path, json.dumps(to_polemica(protocol), ensure_ascii=False, indent=1) + "\n")


def _disqual_stage(protocol: Mapping[str, Any], seat: int, out: Mapping[str, Any]) -> dict[str, Any]:
    # The moment of the last foul, as the platform stamps it; a host's removal has none.
    for f in reversed(protocol["fouls"]):
        if f["seat"] == seat:
            return dict(f["stage"])
    return {"type": "removed", "day": out["number"]}
