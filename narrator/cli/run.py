"""`narrator run`: the daemon, as systemd starts it (see systemd/narrator.service)."""

from __future__ import annotations

import argparse
import asyncio
import logging

from narrator import settings as settings_module


def add_arguments(parser: argparse.ArgumentParser) -> None:
    settings_module.add_arguments(parser)
    parser.add_argument("--names", metavar="'ANN,BOB,...'",
                        help="the players' names, seat 1 first (default: the last game's on this "
                        "box, when they fit the table); the table has as many seats unless "
                        "--seats says otherwise")


def run(args: argparse.Namespace) -> int:
    from narrator.clock import MonotonicClock
    from narrator.evening import parse_names
    from narrator.service import Service, build_ports, initial_setup

    settings = settings_module.from_args(args)
    logging.getLogger().setLevel(settings.log_level.upper())
    # Names that can't be the table's: one line naming the seat and the reason, exit 2.
    setup = initial_setup(settings, parse_names(args.names) if args.names else ()).check("--names")
    clock = MonotonicClock()

    async def main() -> None:
        service = Service(settings, build_ports(settings, clock), clock, setup=setup)
        page = None
        if settings.web.host is not None:  # aiohttp takes a while to import: only for a page
            from narrator.web.site import serve

            page = await serve(service, settings, clock, service.announce, service.evening)
        try:
            await service.run()
        finally:
            if page is not None:
                await page.stop()

    asyncio.run(main())
    return 0
