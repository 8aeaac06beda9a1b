"""The page on a socket systemd opened (narrator.socket): the daemon has no network of its
own on the box, so this is the only way a phone reaches the page there."""

from __future__ import annotations

import asyncio
import os
import socket
import urllib.request
from pathlib import Path

from narrator.boxconfig import load_settings
from narrator.clock import FakeClock
from narrator.web.activation import inherited_socket
from narrator.web.auth import PinGate
from narrator.web.site import make_server
from tests.web.harness import TableHost


def listening() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock


def test_the_page_answers_on_the_socket_systemd_passed(tmp_path: Path) -> None:
    given = listening()
    env = {"LISTEN_PID": str(os.getpid()), "LISTEN_FDS": "1", "LISTEN_FDNAMES": "narrator.socket"}
    sock = inherited_socket(env, first=given.fileno())
    assert sock is not None and sock.fileno() == given.fileno()
    # Read and removed, as sd_listen_fds(1) does: a child must not claim the socket.
    assert env == {}
    port = given.getsockname()[1]
    given.detach()

    async def main() -> tuple[int, str]:
        clock = FakeClock()
        host = TableHost(load_settings(None, {"state_dir": str(tmp_path)}))
        server = make_server(host, PinGate("0417", clock.now), clock)
        # The address given is not where it listens: the socket decides.
        await server.start("192.0.2.1", 1, sock)
        try:
            assert server.port == port
            loop = asyncio.get_running_loop()
            with await loop.run_in_executor(None, urllib.request.urlopen,
                                            f"http://127.0.0.1:{port}/login") as answer:
                return answer.status, answer.read().decode()
        finally:
            await server.stop()

    status, page = asyncio.run(main())
    assert status == 200 and "PIN" in page


def test_no_socket_when_systemd_passed_none_or_another_process_s() -> None:
    assert inherited_socket({}) is None
    given = listening()
    try:
        other = {"LISTEN_PID": str(os.getpid() + 1), "LISTEN_FDS": "1"}
        assert inherited_socket(other, first=given.fileno()) is None
        assert other == {}
        none = {"LISTEN_PID": str(os.getpid()), "LISTEN_FDS": "0"}
        assert inherited_socket(none, first=given.fileno()) is None
    finally:
        given.close()


def test_a_datagram_socket_is_not_taken_for_the_page() -> None:
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        env = {"LISTEN_PID": str(os.getpid()), "LISTEN_FDS": "1"}
        assert inherited_socket(env, first=udp.fileno()) is None
        assert udp.fileno() >= 0  # left open for whoever owns it
    finally:
        udp.close()
