"""`narrator run`: the daemon, as systemd starts it (see systemd/narrator.service)."""

from __future__ import annotations

import argparse
import asyncio
import logging

from narrator import settings as settings_module


def add_arguments(parser: argparse.ArgumentParser) -> None:
    settings_module.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from narrator.clock import MonotonicClock
    from narrator.service import Service, build_ports

    settings = settings_module.from_args(args)
    logging.getLogger().setLevel(settings.log_level.upper())
    clock = MonotonicClock()

    async def main() -> None:
        from narrator.web.server import serve

        service = Service(settings, build_ports(settings, clock), clock)
        page = await serve(service, settings, clock, service.announce)
        try:
            await service.run()
        finally:
            if page is not None:
                await page.stop()

    asyncio.run(main())
    return 0
