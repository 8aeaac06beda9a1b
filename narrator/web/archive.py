"""The archive: every game this box has played, newest first, with its protocol links.

A game is in the archive once its journal has moved to `<state>/games/` (ended, or set
aside as abandoned). What a line shows comes from the game's protocol JSON when it was
written (the winner, the names), else from the journal's first and last lines.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from narrator.records.journal import games_dir
from narrator.records.session import protocols_dir
from narrator.web import pages
from narrator.web.pages import esc
from narrator.web.server import WebServer, finished
from narrator.web.text import Text

log = logging.getLogger("narrator.web")


@dataclass(frozen=True)
class Played:
    game_id: str
    started: str
    rules: str
    seats: int
    winner: str | None
    abandoned: bool
    names: tuple[str, ...]
    formats: tuple[str, ...]  # protocol files present: html, json, polemica
    event: dict[str, Any] = field(default_factory=dict)  # tournament, table, round, game


def played_games(state_dir: Path) -> list[Played]:
    out: list[Played] = []
    protocols = protocols_dir(state_dir)
    folder = games_dir(state_dir)
    journals = sorted(folder.glob("*.jsonl")) if folder.is_dir() else []
    for path in journals:
        try:
            if _unplayed(path):  # abandoned before its first day: not a game played
                continue
            out.append(_played(path, protocols))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("archive: %s is unreadable (%s)", path.name, exc)
    out.sort(key=lambda p: (p.started, p.game_id), reverse=True)
    return out


def _played(journal: Path, protocols: Path) -> Played:
    first, last = _first_and_last_line(journal)
    header: dict[str, Any] = json.loads(first)["header"]
    game_id = str(header.get("game_id") or journal.stem)
    end = json.loads(last) if last else {}
    ended = end.get("end") if isinstance(end, dict) else None
    formats = tuple(fmt for fmt, ext in pages.PROTOCOL_FORMATS.items()
                    if (protocols / f"{game_id}.{ext}").is_file())
    names: tuple[str, ...] = tuple(str(n) for n in header.get("names") or ())
    winner = ended.get("winner") if isinstance(ended, dict) else None
    proto = protocols / f"{game_id}.json"
    if proto.is_file():
        data = json.loads(proto.read_text(encoding="utf-8"))
        winner = data.get("winner", winner)
        names = tuple(str(p.get("name", "")) for p in data.get("players", [])) or names
    event = header.get("event") if isinstance(header.get("event"), dict) else {}
    return Played(game_id, str(header.get("started", "")), str(header.get("rules", "")),
                  int(header.get("seats", 0)), winner if isinstance(winner, str) else None,
                  not isinstance(ended, dict), names, formats, dict(event or {}))


def _unplayed(journal: Path) -> bool:
    _first, last = _first_and_last_line(journal)
    end = json.loads(last) if last else {}
    return isinstance(end, dict) and end.get("unplayed") is True


def _first_and_last_line(path: Path) -> tuple[bytes, bytes]:
    """A journal's header and its end line, without reading a long game whole."""
    with open(path, "rb") as f:
        first = f.readline()
        f.seek(0, 2)
        size = f.tell()
        f.seek(max(0, size - 4096))
        tail = f.read().rstrip(b"\n").rsplit(b"\n", 1)[-1]
    last = tail if tail != first.rstrip(b"\n") and tail.startswith(b'{"end"') else b""
    return first, last


def archive_page(t: Text, games: list[Played], shown: Callable[[Played], bool] = lambda _g: True
                 ) -> str:
    """`shown`: whether the game's protocol links are for this visitor (an abandoned
    game's roles are the signed-in organiser's only)."""
    # A club that plays weekly wants its rating table from its games (narrator.web.season).
    season = f'<p><a href="/season">{esc(t("archive_season"))}</a></p>'
    if not games:
        return (f'<section class="box"><h1>{esc(t("nav_archive"))}</h1>'
                f'<p>{esc(t("archive_empty"))}</p>{season}</section>')
    items = []
    for g in games:
        when = g.started.replace("T", " ")[:16]
        result = t("winner_none") if g.abandoned else t.winner(g.winner)
        who = ", ".join(n for n in g.names if n)
        names = f'<br><small>{esc(who)}</small>' if who else ""
        where = _event_line(t, g.event)
        if where:
            names = f'<br><small>{esc(where)}</small>{names}'
        items.append(f'<li><div><b>{esc(when)}</b> · {esc(t.rule_set(g.rules))} · {g.seats}<br>'
                     f'<span class="result">{esc(result)}</span>{names}</div>'
                     f'{pages.protocol_links(t, g.game_id, g.formats if shown(g) else ())}</li>')
    return (f'<section class="box"><h1>{esc(t("nav_archive"))}</h1>'
            f'<ul class="archive">{"".join(items)}</ul>{season}</section>')


def _event_line(t: Text, event: dict[str, Any]) -> str:
    parts = [str(event["tournament"])] if event.get("tournament") else []
    parts += [f'{t("field_" + k).lower()} {event[k]}' for k in ("table", "round", "game") if event.get(k)]
    return " · ".join(parts)


def routes(server: WebServer, app: web.Application) -> None:
    async def archive(request: web.Request) -> web.StreamResponse:
        t = server.text()
        state_dir = server.host.settings.state_dir
        games = played_games(state_dir)
        folder = protocols_dir(state_dir)
        signed_in = server.reads_roles(request)
        return server.html(t("nav_archive"), archive_page(
            t, games, lambda g: signed_in or finished(folder, g.game_id)), "archive", request)

    app.router.add_get("/archive", archive)
