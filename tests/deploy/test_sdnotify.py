"""sd_notify over a real datagram socket, as systemd listens for it."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from narrator.sdnotify import Notifier, watchdog_interval


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[str, socket.socket]]:
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(5)
    yield path, sock
    sock.close()


def test_ready_status_watchdog_stopping(listener: tuple[str, socket.socket],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path, sock = listener
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    n = Notifier()
    assert n.enabled
    assert n.ready("ready: sport, 10 seats")
    assert sock.recv(4096) == b"READY=1\nSTATUS=ready: sport, 10 seats"
    assert n.watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"
    assert n.status("day 3")
    assert sock.recv(4096) == b"STATUS=day 3"
    assert n.stopping()
    assert sock.recv(4096) == b"STOPPING=1"


def test_abstract_socket_address() -> None:
    name = f"narrator-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(5)
    try:
        assert Notifier("@" + name).watchdog()
        assert sock.recv(64) == b"WATCHDOG=1"
    finally:
        sock.close()


def test_outside_systemd_nothing_happens(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert not Notifier().enabled and not Notifier().ready()
    # A socket that went away is logged, not raised: the game goes on.
    assert not Notifier(str(tmp_path / "gone")).watchdog()


def test_watchdog_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert watchdog_interval() == 15.0
    monkeypatch.setenv("WATCHDOG_PID", "1")
    assert watchdog_interval() is None
    monkeypatch.delenv("WATCHDOG_PID")
    monkeypatch.delenv("WATCHDOG_USEC")
    assert watchdog_interval() is None
