"""The page's listening socket handed over by systemd (narrator.socket), as sd_listen_fds()
does it: the service itself has no network (PrivateNetwork=yes, AF_UNIX only), so on the
box the page can only listen on a socket that systemd opened for it."""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import MutableMapping

log = logging.getLogger("narrator.web")

SD_LISTEN_FDS_START = 3


def inherited_socket(environ: MutableMapping[str, str] | None = None,
                     first: int = SD_LISTEN_FDS_START) -> socket.socket | None:
    """The first socket systemd passed to this process, or None when it passed none.

    The variables are removed once read (what sd_listen_fds(1) does): a child process
    must not think the socket is its own."""
    env = os.environ if environ is None else environ
    pid, count = env.pop("LISTEN_PID", ""), env.pop("LISTEN_FDS", "")
    env.pop("LISTEN_FDNAMES", None)
    if pid != str(os.getpid()) or not count.isdigit() or int(count) < 1:
        return None
    try:
        sock = socket.socket(fileno=first)
    except OSError as exc:
        log.error("systemd passed a socket that is not one (fd %d): %s", first, exc)
        return None
    if sock.type != socket.SOCK_STREAM:
        log.error("systemd passed fd %d, not a listening stream socket: ignored", first)
        sock.detach()
        return None
    os.set_inheritable(first, False)
    if int(count) > 1:
        log.warning("systemd passed %s sockets; the page listens on the first", count)
    return sock
