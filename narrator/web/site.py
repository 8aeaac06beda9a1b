"""The box's page as a whole: the web server with every page, and its start in `narrator run`.

narrator.web.server serves the game (view, API, live updates, corrections); the set-up,
archive and deal pages add their routes from their own modules, listed here, so none of
them and the server import each other in a circle.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from narrator.boxconfig import Settings
from narrator.clock import Clock
from narrator.evening import Evening
from narrator.organiser_only import table_text
from narrator.uplink import rounds
from narrator.web import archive, deal, judge, notices, phone_time, setup, sign_in
from narrator.web.activation import inherited_socket
from narrator.web.auth import SESSIONS_FILE, PinGate
from narrator.web.server import Host, WebServer

log = logging.getLogger("narrator.web")

PAGES = (sign_in.routes, setup.routes, archive.routes, deal.routes, notices.routes, phone_time.routes,
         rounds.routes, judge.routes)


def make_server(host: Host, gate: PinGate, clock: Clock, evening: Evening | None = None) -> WebServer:
    return WebServer(host, gate, clock, evening, PAGES)


@runtime_checkable
class HostButtons(Protocol):
    """A seat panel with the host's buttons (narrator.devices.panel.BoardPanel)."""

    @property
    def host_pads(self) -> tuple[str, ...]: ...

    @property
    def host_holds(self) -> list[Callable[[str], bool]]: ...


class _Devices(Protocol):
    @property
    def panel(self) -> object: ...


@runtime_checkable
class PanelHost(Protocol):
    """The running box's service (narrator.service.Service): its devices."""

    @property
    def ports(self) -> _Devices: ...


def let_in_by_button(server: WebServer, panel: object) -> None:
    """A box whose pin map has a Next button: holding it lets the phone in that waits for
    it (narrator.web.passes.HostButton); the page offers that way in only then."""
    if not isinstance(panel, HostButtons) or "next" not in panel.host_pads:
        return
    server.button.available = True
    panel.host_holds.append(lambda name: name == "next" and server.button.held())


async def serve(host: Host, settings: Settings, clock: Clock, announce: list[Any] | None = None,
                evening: Evening | None = None) -> WebServer | None:
    """Start the page where the settings say; log its address and PIN, and put the words
    that say its address in `announce` (the service says them once after "ready"). The PIN
    is never said: the whole table hears the box, and the PIN grants control of the game.
    A port that can't be had is logged and the box runs without the page."""
    from narrator.engine.effects import Say
    from narrator.web.address import reachable_host, spoken_host, url
    from narrator.web.auth import load_or_make_pin

    web_settings = settings.web
    sock = inherited_socket()
    if web_settings.host is None:
        log.info("the organiser's page is off")
        if sock is not None:
            sock.close()
        return None
    pin = load_or_make_pin(web_settings.pin, settings.state_dir)
    # Sessions kept in the state folder: a restart does not sign the organiser out.
    gate = PinGate(pin, clock.now, store=settings.state_dir / SESSIONS_FILE)
    server = make_server(host, gate, clock, evening)
    # On mock pins (a laptop) the Next button is nobody's to hold: the page never offers it.
    if isinstance(host, PanelHost) and not getattr(host.ports.panel, "mock", False):
        let_in_by_button(server, host.ports.panel)
    if sock is not None:
        # Where it listens is narrator.socket's to say; `listen:` still names the address
        # said aloud when it is not 0.0.0.0 (the box has no network to find its own).
        log.info("the organiser's page listens on the socket systemd opened (narrator.socket)")
    try:
        await server.start(web_settings.host, web_settings.port, sock)
    except OSError as exc:
        log.error("the organiser's page cannot listen on %s:%d: %s; the game goes on without "
                  "it", web_settings.host, web_settings.port, exc.strerror or exc)
        if announce is not None:  # said where its address would have been
            announce.append(Say("web_page_off", {}))
        return None
    where = reachable_host(web_settings.host)
    # The PIN is logged on purpose: the organiser reads it from `journalctl -u narrator`.
    # Never on the terminal the players type on (a laptop's): there it says where it is.
    address = url(where, server.port)
    place = _pin_place(web_settings.pin, settings)
    log.warning("the organiser's page: %s  PIN %s", address, pin,
                extra=table_text(f"the organiser's page: {address}  PIN: not shown on this "
                                 f"terminal, where the players type; {place}"))
    if announce is not None:
        lang = settings.game.lang
        announce.append(Say("web_page", {"address": spoken_host(where, lang),
                                         "port": server.port}))
    return server


def _pin_place(configured: str | None, settings: Settings) -> str:
    """Where the organiser reads the PIN that is not shown on the table's terminal."""
    from narrator.web.auth import PIN_FILE

    if configured:
        return f"it is the config's (web: pin: in {settings.source or 'the config'})"
    path = settings.state_dir / PIN_FILE
    if path.is_file():
        return f"read it in {path}"
    return "the card kept none: start again with 2>FILE to read it in the log"
