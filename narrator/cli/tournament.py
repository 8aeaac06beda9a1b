"""`narrator tournament`: the collector of a tournament of many tables (its page, the
boxes found on the network, the seating, the protocols, the standings)."""

from __future__ import annotations

import argparse
import asyncio
import csv
import tempfile
from pathlib import Path
from typing import Any

from narrator.errors import InputFileError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--name", default="Tournament", help="the tournament's name")
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        default="tournament",
        help="where the tournament is kept (tournament.sqlite, key, exports)",
    )
    parser.add_argument(
        "--listen",
        metavar="HOST:PORT",
        default="0.0.0.0:8090",
        help="the tournament's page (default 0.0.0.0:8090: the club's network)",
    )
    parser.add_argument(
        "--tables", type=int, help="at most this many tables a round (default: as many as the players fill)"
    )
    parser.add_argument(
        "--rounds", type=int, help="every player every round, this many (default: 8; with --demo: 2)"
    )
    parser.add_argument(
        "--games",
        type=int,
        metavar="N",
        help="each player's games, any field: players x games must fill whole tables, the rest sit out "
        "a round in turn (default: --rounds)",
    )
    parser.add_argument(
        "--seating",
        metavar="FILE.yaml",
        help="the seating's weights over narrator/tournament/seating.yaml, and pairs kept apart, judges",
    )
    parser.add_argument("--rules", default="sport", help="a bundled rule set")
    parser.add_argument(
        "--preset",
        metavar="NAME",
        help="a preset of the rule set's settings for every game, e.g. tournament (sport)",
    )
    parser.add_argument("--lang", choices=("en", "ru"), default="en")
    parser.add_argument(
        "--players",
        metavar="FILE.csv",
        help="players to add: name,club,rating_id a line (a header line is skipped)",
    )
    parser.add_argument(
        "--mdns",
        metavar="all|off|ADDRESS",
        default="all",
        help="find the boxes by mDNS on every interface, not at all, or on one",
    )
    parser.add_argument("--seed", type=int, default=1, help="the seating's random seed")
    parser.add_argument(
        "--export",
        metavar="DIR",
        help="write the exports (Polemica JSON per game, standings CSV, printable sheet) to DIR and exit",
    )
    parser.add_argument(
        "--demo", type=int, metavar="N", help="a whole tournament of N simulated boxes on this computer"
    )


def _listen(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 <= int(port) < 65536:
        raise InputFileError("command line", "--listen", f"expected HOST:PORT, got {text!r}")
    return host, int(port)


def _key(folder: Path) -> str:
    from narrator.records.journal import write_private
    from narrator.tournament.signing import make_key

    path = folder / "key"
    if path.is_file():
        return path.read_text(encoding="utf-8").strip()
    folder.mkdir(parents=True, exist_ok=True)
    key = make_key()
    write_private(path, key + "\n")
    return key


def _read_players(path: Path) -> list[tuple[str, str, str]]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputFileError(str(path), "", f"cannot read it: {exc}") from None
    out = []
    for n, row in enumerate(csv.reader(text.splitlines()), start=1):
        if not row or (n == 1 and row[0].strip().lower() == "name"):
            continue
        if not row[0].strip():
            raise InputFileError(str(path), f"line {n}", "a player without a name")
        out.append((row[0], row[1] if len(row) > 1 else "", row[2] if len(row) > 2 else ""))
    return out


def run(args: argparse.Namespace) -> int:
    from narrator.tournament.collector import Collector, Tournament
    from narrator.tournament.seating import SeatingError
    from narrator.tournament.store import Store, StoreError

    rounds = args.rounds if args.rounds is not None else 2 if args.demo is not None else 8
    if (args.tables is not None and args.tables < 1) or rounds < 1:
        raise InputFileError("command line", "--tables/--rounds", "at least 1")
    if args.games is not None and args.games < 1:
        raise InputFileError("command line", "--games", "at least 1")
    if args.demo is not None:
        from narrator.tournament.demo import run_demo

        if not 1 <= args.demo <= 30:
            raise InputFileError("command line", "--demo", "1 to 30 tables")
        folder = Path(
            args.state_dir if args.state_dir != "tournament" else tempfile.mkdtemp(prefix="tourney-")
        )
        key = _key(folder)
        host, port = _listen(args.listen if args.listen != "0.0.0.0:8090" else "127.0.0.1:0")
        asyncio.run(run_demo(args.demo, rounds, folder, key, port))
        return 0
    from narrator.rules.loader import bundled_names

    if args.rules not in bundled_names():
        raise InputFileError(
            "command line", "--rules", f"one of {', '.join(bundled_names())}, not {args.rules!r}"
        )
    settings: dict[str, Any] = {}
    if args.preset:
        from narrator.rules.loader import load_bundled
        from narrator.rules.settings import configure, with_preset

        base = load_bundled(args.rules)
        settings = with_preset(base, args.preset, {})
        configure(base, settings, 10)  # refused here (exit 2), not at every box
        settings = {k: list(v) if isinstance(v, tuple) else v for k, v in settings.items()}
    folder = Path(args.state_dir)
    host, port = _listen(args.listen)
    key = _key(folder)
    store = Store(folder / "tournament.sqlite")
    players = _read_players(Path(args.players)) if args.players else []
    try:
        if players and not store.players():
            for name, club, rating in players:
                store.add_player(name, club, rating)
    except StoreError as exc:
        raise InputFileError(str(args.players), "", str(exc)) from None
    from narrator.tournament.seating_rules import load_rules

    collector = Collector(
        store,
        key,
        Tournament(
            args.name,
            args.rules,
            settings,
            args.lang,
            args.tables or 0,
            rounds,
            seed=args.seed,
            games=args.games or 0,
            seating=load_rules(args.seating) if args.seating else None,
        ),
    )
    if args.export:
        from narrator.tournament.exports import write_all
        from narrator.tournament.page import Words, sheet

        lines = collector.standings()
        written = write_all(
            Path(args.export), args.name, lines, store.games(), sheet(Words(args.lang), args.name, lines)
        )
        print(f"{len(written)} files written to {args.export}")
        return 0

    async def main() -> None:
        from narrator.tournament.discovery import Discovery, for_key

        await collector.start(host, port)
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        # The key is the organiser's: shown on this terminal only, never on the page.
        print(f"the tournament's page: http://{shown}:{collector.port}/\ntournament key: {key}", flush=True)
        discovery = None
        if args.mdns != "off":

            def found(table: str, address: str, box_port: int) -> None:
                store.saw_box(table, address, box_port)

            discovery = Discovery(for_key(key, found), None if args.mdns == "all" else [args.mdns])
            await discovery.start()
        try:
            await asyncio.Event().wait()
        finally:
            if discovery is not None:
                await discovery.stop()
            await collector.stop()

    try:
        asyncio.run(main())
    except (SeatingError, StoreError) as exc:
        raise InputFileError(str(args.state_dir), "", str(exc)) from None
    return 0
