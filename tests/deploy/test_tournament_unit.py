"""The tournament's drop-in for narrator.service (systemd/narrator-tournament.conf): the
daemon gets the club's network (mDNS to announce itself, HTTP to its collector) and no
more; systemd accepts the unit with it, and its exposure stays below 1.5 (0.6 without)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.deploy.test_unit import ANALYZE, SOCKET, UNIT, directives

DROP_IN = UNIT.parent / "narrator-tournament.conf"


def combined(folder: Path) -> Path:
    """The unit as systemd sees it with the drop-in (its lines last in [Service])."""
    unit = re.sub(r"(?m)^ExecStart=.*$", "ExecStart=/bin/true", UNIT.read_text())
    extra = DROP_IN.read_text().replace("[Service]\n", "")
    at = unit.index("[Install]")
    path = folder / "narrator.service"
    path.write_text(unit[:at] + extra + "\n" + unit[at:])
    (folder / "narrator.socket").write_text(SOCKET.read_text())
    return path


def test_the_drop_in_opens_the_club_s_network_only() -> None:
    d = directives(DROP_IN)
    assert d["Service.PrivateNetwork"] == ["no"]
    assert set(d["Service.RestrictAddressFamilies"][0].split()) == {
        "AF_UNIX",
        "AF_INET",
        "AF_INET6",
        "AF_NETLINK",
    }
    assert d["Service.IPAddressDeny"] == ["any"]
    allowed = set(d["Service.IPAddressAllow"][0].split())
    assert allowed == {
        "localhost",
        "link-local",
        "multicast",
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "fc00::/7",
    }


def test_systemd_accepts_the_unit_with_the_drop_in(tmp_path: Path) -> None:
    unit = combined(tmp_path)
    done = subprocess.run(
        [str(ANALYZE), "verify", str(unit), str(tmp_path / "narrator.socket")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr
    done = subprocess.run(
        [str(ANALYZE), "security", "--offline=true", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    found = re.search(r"Overall exposure level for narrator\.service: (\d+\.\d+)", done.stdout)
    assert found, done.stdout + done.stderr
    assert float(found.group(1)) <= 1.5
