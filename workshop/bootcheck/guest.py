"""The booted copy of the card and the ways in: its partitions (mtools, debugfs), qemu with
the check's agent on a virtio serial port, and the page on a forwarded loopback port."""

from __future__ import annotations

import base64
import http.cookiejar
import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORK = Path("/var/tmp/narrator-image/boot-check")
IMAGE = Path("/var/tmp/narrator-image/narrator-bookworm-arm64.img")
PORT_NAME = "org.narrator.check"
PIN = "80590"  # boot 2's PIN (narrator.toml): no seat number or time says these digits
NAME = "table-7"
GROW_MB = 1024

AGENT = f"""#!/bin/sh
# The boot check's hands in the booted copy (workshop/bootcheck): one line in, a check's
# shell lines in base64; one line out: its id, exit status and output in base64.
set -u
port=/dev/virtio-ports/{PORT_NAME}
# udev makes the port's name a moment after the boot reaches here.
n=0
while [ ! -e "$port" ] && [ $n -lt 300 ]; do sleep 1; n=$((n + 1)); done
exec 3<>"$port"
printf 'READY\\n' >&3
while IFS=' ' read -r id script <&3; do
  printf '%s' "$script" | base64 -d > /run/boot-check.sh
  out="$(sh /run/boot-check.sh 2>&1)"
  rc=$?
  printf '%s %s %s\\n' "$id" "$rc" "$(printf '%s' "$out" | base64 -w0)" >&3
done
"""

AGENT_UNIT = """[Unit]
Description=The boot check's agent (workshop/bootcheck; never part of the image)

[Service]
ExecStart=/usr/local/sbin/narrator-boot-check-agent

[Install]
WantedBy=multi-user.target
"""

# virt has no GPIO chip, and a box with neither answer LEDs nor a keypad's screen refuses
# sport's private checks at start (narrator.box.fit): the check's copy plays on mock
# pins with the terminal keypad on tty2 (its screen shows the answers), as a laptop does.
# Everything else (the unit's hardening, the socket, the first boot) is the image's, but
# the start's time limit: under TCG on a shared host the box took 203 s to READY=1 in the
# run of record, near the unit's 300 s that a Pi never comes close to.
DROP_IN = """[Service]
TimeoutStartSec=900
Environment=GPIOZERO_PIN_FACTORY=mock
ExecStart=
ExecStart=/opt/narrator/bin/narrator run --keypad terminal
StandardInput=tty
StandardOutput=journal
TTYPath=/dev/tty2
DeviceAllow=/dev/tty2 rw
"""

# The box's lines a check reads: "say: ..." is everything it speaks (performer, announcer).
PIN_CHECK = r"""
import re, subprocess, sys
sys.path.insert(0, "/opt/narrator/lib/python3.11/site-packages")
from narrator.phrases.numbers import cardinal
pin = open("/var/lib/narrator/web-pin" if len(sys.argv) < 2 else sys.argv[1]).read().strip()
if len(sys.argv) >= 2: pin = sys.argv[1]
forms = [re.compile(r"(?<!\d)" + r"\D{0,3}".join(pin) + r"(?!\d)")]
for lang in ("en", "ru"):
    for g in ("m", "f", "n"):
        forms.append(re.compile(r"\W{0,4}".join(re.escape(cardinal(int(d), lang, g)) for d in pin), re.I))
lines = subprocess.run(["journalctl", "-u", "narrator", "-o", "cat", "--no-pager"],
                       capture_output=True, text=True).stdout.splitlines()
said = [l for l in lines if "say: " in l]
bad = [l for l in said for f in forms if f.search(l.split("say: ", 1)[1])]
print(f"{len(said)} spoken lines, {len(bad)} with the PIN")
for l in bad: print("LEAK", l)
sys.exit(1 if bad or not said else 0)
"""


class CheckFailed(Exception):
    pass


def git(*args: str) -> str:
    done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False)
    return done.stdout.strip() or "?"


def cpu_name() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "?"


def qemu_version() -> str:
    try:
        out = subprocess.run(["qemu-system-aarch64", "--version"], capture_output=True, text=True,
                             check=False).stdout
    except OSError:
        return "qemu-system-aarch64 missing"
    return out.splitlines()[0] if out else "?"


def partitions(image: Path) -> list[tuple[int, int]]:
    """(start, size) in bytes of each partition, from the image's MBR."""
    out = subprocess.run(["sfdisk", "--json", str(image)], capture_output=True, text=True, check=True)
    table = json.loads(out.stdout)["partitiontable"]
    sector = int(table.get("sectorsize", 512))
    return [(int(p["start"]) * sector, int(p["size"]) * sector) for p in table["partitions"]]


class Disk:
    """The check's copy of the card: its boot partition through mtools, its root through
    debugfs (no loop device, no mount, no root needed)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        (self.boot, _), (self.root, _) = partitions(path)[:2]

    def mtools(self, tool: str, *args: str) -> str:
        done = subprocess.run([tool, "-i", f"{self.path}@@{self.boot}", *args], capture_output=True,
                              text=True, check=True, env={**os.environ, "MTOOLS_SKIP_CHECK": "1"})
        return done.stdout

    def boot_files(self) -> list[str]:
        return [name.removeprefix("::/") for name in self.mtools("mdir", "-b", "::/").split()]

    def read_boot(self, name: str, to: Path) -> None:
        self.mtools("mcopy", "-o", f"::/{name}", str(to))

    def write_boot(self, name: str, source: Path) -> None:
        self.mtools("mcopy", "-o", str(source), f"::/{name}")

    def debugfs(self, *commands: str) -> str:
        script = "\n".join(commands) + "\n"
        done = subprocess.run(["debugfs", "-w", "-f", "-", f"{self.path}?offset={self.root}"], input=script,
                              capture_output=True, text=True, check=True)
        return done.stdout + done.stderr

    def add_file(self, local: Path, path: str, mode: int) -> None:
        self.debugfs(f"rm {path}", f"write {local} {path}", f"sif {path} mode 0{0o100000 | mode:o}",
                     f"sif {path} uid 0", f"sif {path} gid 0")


class Guest:
    """One boot of the copy in qemu: its console in a file, the agent on a unix socket."""

    def __init__(self, work: Path, disk: Path, kernel: Path, initrd: Path, cmdline: str,
                 network: bool, port: int) -> None:
        self.work, self.port = work, port
        self.sock_path = work / "agent.sock"
        self.console = work / "console.log"
        self.cmd = ["nice", "-n", "10", "qemu-system-aarch64", "-machine", "virt", "-cpu", "cortex-a72",
                    "-smp", "2", "-m", "2048", "-kernel", str(kernel), "-initrd", str(initrd),
                    "-append", cmdline, "-drive", f"file={disk},format=raw,if=none,id=card,cache=unsafe",
                    "-device", "virtio-blk-pci,drive=card", "-device", "virtio-rng-pci",
                    "-chardev", f"socket,id=agent,path={self.sock_path},server=on,wait=off",
                    "-device", "virtio-serial-pci",
                    "-device", f"virtserialport,chardev=agent,name={PORT_NAME}",
                    "-serial", f"file:{self.console}", "-display", "none", "-monitor", "none",
                    "-no-reboot"]
        if network:
            # restrict=on: nothing leaves this machine; the page's port comes in on loopback.
            self.cmd += ["-netdev", f"user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:{port}-:8080",
                         "-device", "virtio-net-pci,netdev=net0"]
        else:
            self.cmd += ["-nic", "none"]
        self.proc: subprocess.Popen[bytes] | None = None
        self.sock: socket.socket | None = None
        self.buffer = b""
        self.next_id = 0

    def start(self) -> None:
        self.sock_path.unlink(missing_ok=True)
        self.console.unlink(missing_ok=True)
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=open(self.work / "qemu.err", "wb"))  # noqa: SIM115

    def wait_ready(self, limit: float) -> float:
        started = time.monotonic()
        while not self.sock_path.exists():
            self._alive()
            if time.monotonic() - started > limit:
                raise CheckFailed("qemu made no agent socket")
            time.sleep(0.5)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(str(self.sock_path))
        self._line(lambda line: line == b"READY", limit - (time.monotonic() - started))
        return time.monotonic() - started

    def _alive(self) -> None:
        if self.proc is not None and self.proc.poll() is not None:
            raise CheckFailed(f"qemu ended (exit {self.proc.returncode}); console: {self.console}")

    def _line(self, wanted: Callable[[bytes], bool], limit: float) -> bytes:
        assert self.sock is not None
        deadline = time.monotonic() + limit
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                if wanted(line.strip()):
                    return line.strip()
            left = deadline - time.monotonic()
            if left <= 0:
                raise CheckFailed(f"no answer from the agent in {limit:.0f} s")
            self._alive()
            self.sock.settimeout(min(left, 5.0))
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                raise CheckFailed("the agent's channel closed")
            self.buffer += chunk

    def sh(self, script: str, limit: float = 600.0) -> tuple[int, str]:
        """Run shell lines as root in the guest: their exit status and output."""
        assert self.sock is not None
        self.next_id += 1
        ident = str(self.next_id).encode()
        self.sock.sendall(ident + b" " + base64.b64encode(script.encode()) + b"\n")
        line = self._line(lambda line: line.split(b" ", 1)[0] == ident, limit)
        parts = line.split(b" ", 2)
        out = base64.b64decode(parts[2]).decode("utf-8", "replace") if len(parts) > 2 else ""
        return int(parts[1]), out

    def power_cut(self) -> None:
        """kill -9: no shutdown, no sync, as a plug pulled."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
        self._close()

    def poweroff(self, limit: float = 300.0) -> None:
        assert self.sock is not None and self.proc is not None
        self.sock.sendall(b"0 " + base64.b64encode(b"systemctl poweroff --no-block") + b"\n")
        try:
            self.proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            self.power_cut()
            raise CheckFailed(f"no power-off in {limit:.0f} s") from None
        self._close()

    def _close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        self.buffer = b""


class Page:
    """The organiser's page on the forwarded loopback port, as a phone uses it."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.jar = http.cookiejar.CookieJar()

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args: object, **kwargs: object) -> None:
                return None

        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect)

    def get(self, path: str, limit: float = 60.0) -> tuple[int, str]:
        return self._open(urllib.request.Request(self.base + path), limit)

    def post(self, path: str, form: dict[str, str] | None = None, limit: float = 60.0) -> tuple[int, str]:
        data = urllib.parse.urlencode(form or {}).encode()
        request = urllib.request.Request(self.base + path, data=data, method="POST",
                                         headers={"Origin": self.base})
        return self._open(request, limit)

    def _open(self, request: urllib.request.Request, limit: float) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=limit) as answer:
                return int(answer.status), answer.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8", "replace")


def wait_for(probe: Callable[[], tuple[bool, str]], limit: float, every: float = 5.0) -> str:
    started = time.monotonic()
    while True:
        ok, said = probe()
        if ok:
            return said
        if time.monotonic() - started > limit:
            raise CheckFailed(f"not in {limit:.0f} s: {said}")
        time.sleep(every)
