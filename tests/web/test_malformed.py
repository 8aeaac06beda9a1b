"""Malformed requests (an over-long URL, bad headers, TLS on the plain port) get aiohttp's
400 and one line in the log each, never a traceback (found trying the page as a new user:
an over-long URL put a whole traceback on the laptop's terminal, the keypad's own)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from narrator.boxconfig import load_settings
from narrator.clock import FakeClock
from narrator.web.auth import PinGate
from narrator.web.site import make_server
from tests.web.harness import TableHost

BAD = {
    "over-long URL": b"GET /" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: box\r\n\r\n",
    "header without a colon": b"GET /game HTTP/1.1\r\nHost: box\r\nBad Header\r\n\r\n",
    "over-long header": b"GET /game HTTP/1.1\r\nHost: box\r\nX-A: " + b"y" * 20_000 + b"\r\n\r\n",
    "TLS on the plain port": b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n",
    "a bad method": b"G<T / HTTP/1.1\r\nHost: box\r\n\r\n",
}


def test_a_malformed_request_is_one_line_in_the_log(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    server = make_server(TableHost(load_settings(None, {})), PinGate("1234", clock.now), clock)

    async def main() -> dict[str, bytes]:
        await server.start("127.0.0.1", 0)
        answers: dict[str, bytes] = {}
        try:
            for name, request in BAD.items():
                reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
                writer.write(request)
                await writer.drain()
                answers[name] = await asyncio.wait_for(reader.read(100), 30)
                writer.close()
            # The page still answers after them all.
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(b"GET /static/style.css HTTP/1.1\r\nHost: box\r\n\r\n")
            await writer.drain()
            answers["good"] = await asyncio.wait_for(reader.read(100), 30)
            writer.close()
        finally:
            await server.stop()
        return answers

    with caplog.at_level(logging.DEBUG):
        answers = asyncio.run(main())
    for name in BAD:
        assert answers[name].startswith(b"HTTP/1.0 400") or answers[name].startswith(
            b"HTTP/1.1 400"), (name, answers[name])
    assert answers["good"].startswith(b"HTTP/1.1 200")
    refused = [r for r in caplog.records if "malformed request" in r.getMessage()]
    assert len(refused) == len(BAD), caplog.text
    assert all(r.levelno == logging.INFO and "\n" not in r.getMessage() for r in refused)
    assert not [r for r in caplog.records if r.exc_info], caplog.text
    assert "Traceback" not in caplog.text
