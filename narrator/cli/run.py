"""`narrator run`: the daemon, as systemd starts it (see systemd/narrator.service)."""

from __future__ import annotations

import argparse
import asyncio
import logging
from typing import Any

from narrator import boxconfig as settings_module


def add_arguments(parser: argparse.ArgumentParser) -> None:
    settings_module.add_arguments(parser)
    parser.add_argument("--names", metavar="'ANN,BOB,...'",
                        help="the players' names, seat 1 first (default: the last game's on this "
                        "box, when they fit the table); the table has as many seats unless "
                        "--seats says otherwise")
    parser.add_argument("--table", metavar="NAME",
                        help="the table's name a tournament's collector sees (default: the host name)")
    parser.add_argument("--mdns", metavar="all|off|ADDRESS", default="all",
                        help="announce the box on the network (mDNS, _narrator._tcp): on every "
                        "interface, not at all, or on the interface with this address")
    parser.add_argument("--simulate", action="store_true",
                        help="simulated players at mock pads on a fast virtual clock (a demo table "
                        "for `narrator tournament --demo` and tests); waits for a tournament round")
    parser.add_argument("--seed", type=int, default=1, help="with --simulate: the players' seed")


def run(args: argparse.Namespace) -> int:
    from narrator.box.service import Service
    from narrator.box.setups import initial_setup
    from narrator.box.wiring import build_ports
    from narrator.clock import MonotonicClock
    from narrator.evening import parse_names

    settings = settings_module.from_args(args)
    logging.getLogger().setLevel(settings.log_level.upper())
    # Names that can't be the table's: one line naming the seat and the reason, exit 2.
    setup = initial_setup(settings, parse_names(args.names) if args.names else ()).check("--names")
    clock = MonotonicClock()

    async def with_page(service: Any) -> None:
        from narrator.uplink.link import Uplink

        page = None
        if settings.web.host is not None:  # aiohttp takes a while to import: only for a page
            from narrator.web.site import serve

            page = await serve(service, settings, service.clock, service.announce, service.evening)
        uplink = Uplink(settings, service.clock, args.table, args.mdns, service.evening)
        await uplink.start(settings.web.host, page.port if page is not None else None)
        stops.append(uplink.stop)
        if page is not None:
            stops.append(page.stop)

    stops: list[Any] = []

    async def main() -> None:
        from narrator.records.disk import thread_disk

        service = Service(settings, build_ports(settings, clock), clock, setup=setup,
                          journal_disk=thread_disk)
        await with_page(service)
        try:
            await service.run()
        finally:
            for stop in reversed(stops):
                await stop()

    async def simulated() -> None:
        from narrator.uplink.simulated import run_simulated, simulated_settings

        try:
            await run_simulated(simulated_settings(settings), setup, args.seed, with_page)
        finally:
            for stop in reversed(stops):
                await stop()

    asyncio.run(simulated() if args.simulate else main())
    return 0
