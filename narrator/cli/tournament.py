"""`narrator tournament`: the collector of a tournament of many tables (its page, the
boxes found on the network, the seating, the protocols, the standings)."""

from __future__ import annotations

import argparse
import asyncio
import csv
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from narrator.errors import InputFileError

if TYPE_CHECKING:
    from narrator.mdns import Announcer, Browser
    from narrator.tournament.collector import Collector
    from narrator.tournament.event import Tournament
    from narrator.tournament.store import Store


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # The tournament's own flags default to None: given, they must agree with the
    # tournament kept in --state-dir (a new one takes them, defaults for the rest).
    parser.add_argument("--name", help="the tournament's name (a new one: Tournament)")
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        default="tournament",
        help="where the tournament is kept (tournament.sqlite, key, exports); started again with "
        "only this, the collector goes on with the tournament as it was",
    )
    parser.add_argument(
        "--listen",
        metavar="HOST:PORT",
        default="0.0.0.0:8090",
        help="the tournament's page (default 0.0.0.0:8090: the club's network)",
    )
    parser.add_argument(
        "--tables",
        type=int,
        help="at most this many tables a round (a new tournament: as many as the players fill)",
    )
    parser.add_argument(
        "--rounds", type=int, help="every player every round, this many (a new tournament: 8; with --demo: 2)"
    )
    parser.add_argument(
        "--games",
        type=int,
        metavar="N",
        help="each player's games, any field: players x games must fill whole tables, the rest sit out "
        "a round in turn (instead of --rounds)",
    )
    parser.add_argument(
        "--seating",
        metavar="FILE.yaml",
        help="the seating's weights over narrator/tournament/seating.yaml, and pairs kept apart, judges",
    )
    parser.add_argument("--rules", help="a bundled rule set (a new tournament: sport)")
    parser.add_argument(
        "--scoring",
        metavar="NAME",
        help="the standings' scoring, a file of narrator/rules/scorings: sport, fiim, mafiaratings, "
        "polemica (a new tournament: the rule set's own)",
    )
    parser.add_argument(
        "--semi",
        metavar="[PLAYERS:]GAMES[xMULT][,no-night]",
        help="a semi-final after the main rounds: the top 20 (or PLAYERS) play GAMES each, their points "
        "times MULT; no-night: the first killed's guess and Ci do not count",
    )
    parser.add_argument(
        "--final",
        metavar="GAMES[xMULT][,no-night]",
        help="a final of the top 10 at one table, e.g. 4x1.5 (the standings rank the finalists first)",
    )
    parser.add_argument(
        "--hide-extra",
        action="store_true",
        default=None,
        help="while a stage is in play, its extra points are hidden from the public standings",
    )
    parser.add_argument(
        "--preset",
        metavar="NAME",
        help="a preset of the rule set's settings for every game, e.g. tournament (sport)",
    )
    parser.add_argument("--lang", choices=("en", "ru"), help="the boxes' and the page's language (en)")
    parser.add_argument(
        "--players",
        metavar="FILE.csv",
        help="players to add: name,club,rating_id a line (a header line is skipped)",
    )
    parser.add_argument(
        "--mdns",
        metavar="all|off|ADDRESS",
        default="all",
        help="find the boxes (and announce the collector) by mDNS on every interface, not at all, or on one",
    )
    parser.add_argument("--seed", type=int, help="the seating's random seed (a new tournament: 1)")
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
    from narrator.tournament.collector import Collector
    from narrator.tournament.seating import SeatingError
    from narrator.tournament.store import Store, StoreError

    if args.demo is not None:
        from narrator.tournament.demo import run_demo

        if not 1 <= args.demo <= 30:
            raise InputFileError("command line", "--demo", "1 to 30 tables")
        folder = Path(
            args.state_dir if args.state_dir != "tournament" else tempfile.mkdtemp(prefix="tourney-")
        )
        key = _key(folder)
        host, port = _listen(args.listen if args.listen != "0.0.0.0:8090" else "127.0.0.1:0")
        from narrator.tournament.scoring import names
        from narrator.tournament.stages import StageError, parse

        try:
            if args.final:
                parse("final", args.final)
        except StageError as exc:
            raise InputFileError("command line", "--final", str(exc)) from None
        if args.scoring and args.scoring not in names():
            raise InputFileError("command line", "--scoring", f"one of {', '.join(names())}")
        final, scoring = args.final or "", args.scoring or ""
        asyncio.run(run_demo(args.demo, args.rounds or 2, folder, key, port, final=final, scoring=scoring))
        return 0
    folder = Path(args.state_dir)
    host, port = _listen(args.listen)
    try:
        store = Store(folder / "tournament.sqlite")
    except StoreError as exc:
        raise InputFileError(str(folder / "tournament.sqlite"), "", str(exc)) from None
    tournament = _tournament(args, store, folder)
    key = _key(folder)
    players = _read_players(Path(args.players)) if args.players else []
    try:
        _add_players(store, players, args.players)
    except StoreError as exc:
        raise InputFileError(str(args.players), "", str(exc)) from None
    collector = Collector(store, key, tournament)
    if args.export:
        return _export(collector, Path(args.export))

    async def main() -> None:
        from narrator.tournament.discovery import announcer, box_browser

        await collector.start(host, port)
        # The key is the organiser's: shown on this terminal only, never on the page.
        print(f"the tournament's page: {collector.address}\ntournament key: {key}", flush=True)
        interfaces = None if args.mdns == "all" else [args.mdns]
        on_network: list[Announcer | Browser] = []
        if args.mdns != "off":

            def found(table: str, address: str, box_port: int) -> None:
                store.saw_box(
                    table, address, box_port, tables=collector.t.table_count(len(store.players()))
                )

            on_network = [
                box_browser(key, found, interfaces),
                announcer(
                    key, tournament.name, args.mdns if interfaces else host, collector.port, interfaces
                ),
            ]
            for part in on_network:
                await part.start()
        try:
            await asyncio.Event().wait()
        finally:
            for part in on_network:
                await part.stop()
            await collector.stop()

    try:
        asyncio.run(main())
    except (SeatingError, StoreError) as exc:
        raise InputFileError(str(args.state_dir), "", str(exc)) from None
    return 0


def _tournament(args: argparse.Namespace, store: Store, folder: Path) -> Tournament:
    """The tournament the store keeps, or a new one from the flags; flags that contradict
    the kept one are refused in one line (exit 2)."""
    from narrator.rules.loader import bundled_names
    from narrator.tournament.event import TournamentError, resume

    given = {
        "name": args.name.strip() if isinstance(args.name, str) else None,
        "rules": args.rules,
        "preset": args.preset,
        "lang": args.lang,
        "tables": args.tables,
        "rounds": args.rounds,
        "seed": args.seed,
        "games": args.games,
        "scoring": args.scoring,
        "semi": args.semi,
        "final": args.final,
        "hide_extra": args.hide_extra,
        "seating": _seating_file(args.seating) if args.seating else None,
    }
    if given["games"] is not None and given["rounds"] is not None:
        raise InputFileError("command line", "--games", "--games or --rounds, not both")
    for flag in ("tables", "rounds", "games"):
        if given[flag] is not None and not 1 <= given[flag] <= 999:
            raise InputFileError("command line", f"--{flag}", "from 1 to 999")
    if given["name"] is not None and not 0 < len(given["name"]) <= 80:
        raise InputFileError("command line", "--name", "1 to 80 characters")
    rules = given["rules"] or "sport"
    if rules not in bundled_names():
        raise InputFileError("command line", "--rules", f"one of {', '.join(bundled_names())}, not {rules!r}")
    if given["scoring"] is not None:
        from narrator.tournament.scoring import names

        if given["scoring"] not in names():
            raise InputFileError(
                "command line", "--scoring", f"one of {', '.join(names())}, not {given['scoring']!r}"
            )
    from narrator.tournament.stages import StageError, parse

    for stage in ("semi", "final"):
        if given[stage] is not None:
            try:
                parse(stage, given[stage])
            except StageError as exc:
                raise InputFileError("command line", f"--{stage}", str(exc)) from None
    settings: dict[str, Any] = {}
    stored = store.tournament()
    if stored is None and given["preset"]:
        from narrator.rules.loader import load_bundled
        from narrator.rules.settings import configure, with_preset

        base = load_bundled(rules)
        settings = with_preset(base, given["preset"], {})
        configure(base, settings, 10)  # refused here (exit 2), not at every box
        settings = {k: list(v) if isinstance(v, tuple) else v for k, v in settings.items()}
    try:
        return resume(stored, given, settings)
    except TournamentError as exc:
        raise InputFileError(str(folder / "tournament.sqlite"), "", str(exc)) from None


def _seating_file(name: str) -> str:
    """The organiser's seating file's text, checked here (exit 2 naming the file, the key
    and the problem) and kept in the store as it was read."""
    from narrator.tournament.seating_rules import default_rules, parse_rules

    try:
        text = Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputFileError(name, "", f"cannot read it: {exc}") from None
    parse_rules(text, name, default_rules())
    return text


def _add_players(store: Store, players: list[tuple[str, str, str]], source: str | None) -> None:
    """The players file once; given again, it must name the players the store has."""
    have = [(p.name, p.club, p.rating_id) for p in store.players()]
    if not players:
        return
    if not have:
        for name, club, rating in players:
            store.add_player(name, club, rating)
        return
    wanted = [(n.strip(), c.strip(), r.strip()) for n, c, r in players]
    if wanted != have:
        raise InputFileError(
            str(source),
            "",
            f"the tournament has {len(have)} other players already: leave --players out to go on",
        )


def _export(collector: Collector, folder: Path) -> int:
    from narrator.tournament.exports import polemica_records, write_all
    from narrator.tournament.language import Words

    t = collector.t
    records = polemica_records(collector.store.games(), t, collector.store.players(), t.rule_set)
    written = write_all(folder, t, collector.standings(), records, collector.sheet(Words(t.lang)))
    print(
        f"{len(written)} files written to {folder}"
        + (
            f"; {len(records.skipped)} games not in the Polemica format (polemica/skipped.txt)"
            if records.skipped
            else ""
        )
    )
    return 0
