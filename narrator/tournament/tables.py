"""Demo tables on one computer: `narrator run --simulate` boxes, each with its own state
folder, config and page port on 127.0.0.1, announced by mDNS on the loopback interface.
`narrator tournament --demo`, the benchmark and the tests start them with `start_box`, and
pair each with the tournament key through its page (`pair_box`), as an organiser would."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import aiohttp

DEMO_PIN = "2580"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class DemoBox:
    table: str
    folder: Path
    port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def state(self) -> Path:
        return self.folder / "state"


def make_box(folder: Path, number: int, port: int | None = None) -> DemoBox:
    box = DemoBox(f"Demo table {number}", folder / f"box{number}", port or free_port())
    box.folder.mkdir(parents=True, exist_ok=True)
    (box.folder / "narrator.yaml").write_text(
        f"state_dir: {box.state}\ncache_dir: {box.folder / 'cache'}\nkeypad: none\nlog_level: warning\n"
        f"web: {{listen: '127.0.0.1:{box.port}', pin: '{DEMO_PIN}'}}\n",
        encoding="utf-8",
    )
    return box


def start_box(box: DemoBox, seed: int = 1, log: Path | None = None) -> DemoBox:
    out = open(log or box.folder / "box.log", "ab")  # noqa: SIM115 (the child keeps it)
    box.process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "narrator",
            "run",
            "--simulate",
            "--config",
            str(box.folder / "narrator.yaml"),
            "--table",
            box.table,
            "--mdns",
            "127.0.0.1",
            "--seed",
            str(seed),
        ],
        stdout=out,
        stderr=out,
        env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"},
    )
    out.close()
    return box


async def wait_up(url: str, seconds: float = 60.0) -> None:
    """Poll until the page answers (a real subprocess starting: bounded, no fixed sleep)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=2)) as http:
        while True:
            try:
                async with http.get(url + "/tournament") as reply:
                    if reply.status == 200:
                        return
            except (TimeoutError, aiohttp.ClientError, OSError):
                pass
            if loop.time() > until:
                raise TimeoutError(f"{url} did not answer in {seconds:.0f} s")
            await asyncio.sleep(0.1)


async def pair_box(url: str, key: str, pin: str = DEMO_PIN) -> int:
    """Sign in on the box's page with its PIN and enter the tournament key; the status."""
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        async with http.post(
            url + "/login", data={"pin": pin, "next": "/tournament"}, allow_redirects=False
        ) as reply:
            if reply.status not in (302, 303):
                return reply.status
        async with http.post(url + "/api/tournament/key", json={"key": key}) as reply:
            return reply.status


def stop_box(box: DemoBox, kill: bool = False) -> None:
    proc = box.process
    if proc is None or proc.poll() is not None:
        return
    if kill:
        proc.kill()
    else:
        proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
