"""The systemd units: what the box needs, hardened to an exposure of at most 1.0, and the
organiser's page reachable from the club's network through narrator.socket."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "narrator.service"
SOCKET = ROOT / "systemd" / "narrator.socket"
# scripts/setup installs systemd (its systemd-analyze) and shellcheck: a machine without them
# fails these checks rather than skipping them.
ANALYZE = shutil.which("systemd-analyze") or "systemd-analyze"


def directives(unit: Path = UNIT) -> dict[str, list[str]]:
    """Every `Key=value` of the unit, by "Section.Key", in order (keys may repeat)."""
    out: dict[str, list[str]] = {}
    section = ""
    for raw in unit.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        out.setdefault(f"{section}.{key}", []).append(value)
    return out


def test_the_unit_runs_the_daemon_as_narrator_with_a_watchdog() -> None:
    d = directives()
    assert d["Service.ExecStart"] == ["/opt/narrator/bin/narrator run"]
    assert d["Service.User"] == ["narrator"]
    groups = d["Service.SupplementaryGroups"][0].split()
    assert {"gpio", "audio", "input"} <= set(groups)
    assert d["Service.Restart"] == ["always"]
    # ... but not for ever (a broken config), and never after a bad input file (exit 2).
    assert int(d["Unit.StartLimitIntervalSec"][0]) > 0 and int(d["Unit.StartLimitBurst"][0]) > 0
    assert d["Service.RestartPreventExitStatus"] == ["2"]
    assert d["Service.Type"] == ["notify"]
    assert int(d["Service.WatchdogSec"][0]) > 0
    assert "sound.target" in d["Unit.After"][0]
    assert d["Service.StateDirectory"] == ["narrator"]
    assert d["Service.StateDirectoryMode"] == ["0700"]
    assert d["Service.ConfigurationDirectory"] == ["narrator"]
    assert d["Service.UMask"] == ["0077"]
    assert d["Install.WantedBy"] == ["multi-user.target"]


def test_gpio_sound_and_input_devices_stay_reachable() -> None:
    d = directives()
    assert d["Service.DevicePolicy"] == ["closed"]
    allowed = {v.split()[0] for v in d["Service.DeviceAllow"]}
    assert {"char-gpiochip", "/dev/gpiomem", "char-alsa", "char-input"} <= allowed
    # Hiding /dev would hide them all.
    assert d.get("Service.PrivateDevices", ["no"]) == ["no"]


def test_the_page_is_reachable_from_the_club_s_network_only() -> None:
    """The daemon has no network (PrivateNetwork=yes, its own sockets AF_UNIX only): a
    listen of its own would be in an empty namespace, reachable from nowhere. systemd
    listens on port 8080 for it (narrator.socket) and passes the socket in; only the
    club's network may connect."""
    service = directives()
    assert service["Service.PrivateNetwork"] == ["yes"]
    assert service["Service.RestrictAddressFamilies"] == ["AF_UNIX"]
    assert "narrator.socket" in service["Unit.Wants"][0].split()
    assert "narrator.socket" in service["Unit.After"][0].split()
    sock = directives(SOCKET)
    assert sock["Socket.ListenStream"] == ["8080"]
    assert sock["Socket.IPAddressDeny"] == ["any"]
    allowed = " ".join(sock["Socket.IPAddressAllow"]).split()
    assert set(allowed) == {"localhost", "link-local", "10.0.0.0/8", "172.16.0.0/12",
                            "192.168.0.0/16", "fc00::/7"}
    assert sock["Install.WantedBy"] == ["sockets.target"]


def test_systemd_accepts_every_directive(tmp_path: Path) -> None:
    # verify wants the program to exist; everything else is checked as installed.
    copy = tmp_path / "narrator.service"
    copy.write_text(re.sub(r"(?m)^ExecStart=.*$", "ExecStart=/bin/true", UNIT.read_text()))
    (tmp_path / "narrator.socket").write_text(SOCKET.read_text())
    done = subprocess.run([str(ANALYZE), "verify", str(copy), str(tmp_path / "narrator.socket")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "", done.stderr


def test_exposure_is_at_most_one() -> None:
    done = subprocess.run([str(ANALYZE), "security", "--offline=true", str(UNIT)],
                          capture_output=True, text=True, timeout=60, check=False)
    found = re.search(r"Overall exposure level for narrator\.service: (\d+\.\d+)", done.stdout)
    assert found, done.stdout + done.stderr
    assert float(found.group(1)) <= 1.0


def test_the_working_directory_is_the_box_s_own_and_writable() -> None:
    """lgpio opens its notification pipes (.lgd-nfy*) in the working directory; with the
    root read-only (ProtectSystem=strict) and no folder of its own the pin factory fails and
    the box runs without pads (booting the image on qemu's Pi 3 model showed it)."""
    d = directives()
    assert d["Service.ProtectSystem"] == ["strict"]
    made = {f"/run/{name}" for name in d.get("Service.RuntimeDirectory", [""])[0].split()}
    made |= {f"/var/lib/{name}" for name in d["Service.StateDirectory"][0].split()}
    assert d.get("Service.WorkingDirectory", ["/"])[0] in made
    assert d.get("Service.RuntimeDirectoryMode", ["0700"]) == ["0700"]
