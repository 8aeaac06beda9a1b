"""The card's own settings: `narrator.toml` on the boot partition, set on any laptop.

A club flashes the image (scripts/make-image), opens the card's small FAT partition on a
laptop and fills in `narrator.toml` (the way Pi images take their Wi-Fi and name):

    [box]
    name = "table-3"    # the box's host name: table-3.local on the club's network
    lang = "ru"         # en | ru
    rules = "sport"     # a bundled rule set
    pin = "0417"        # the organiser's PIN for the page; none: sign in with Next

    [wifi]
    ssid = "Club"
    password = "the club's passphrase"
    country = "GB"

At every boot `narrator-firstboot.service` (before the box, the network and mDNS) runs
`python -m narrator.firstboot`: when the file changed since it was last applied, each
value goes where the system reads it (the host name, /etc/narrator/narrator.yaml, the Wi-Fi
of wpa_supplicant). A wrong value is one line that names the file, its line, the key and
the problem, in the journal and in `narrator-problems.txt` beside the file (read where the
club edits it); that value is left out, the rest applies, and the box comes up all the same.
No line this writes holds the PIN or the Wi-Fi passphrase (the journal is read by more than
root: the adm group); the passphrase is kept only as its WPA key, in a file mode 0600.
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import os
import re
import socket
import sys
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

log = logging.getLogger("narrator.firstboot")

BOOT_FILE = Path("/boot/firmware/narrator.toml")
PROBLEMS_FILE = "narrator-problems.txt"
CONFIG = Path("etc/narrator/narrator.yaml")
WPA_CONF = Path("etc/wpa_supplicant/wpa_supplicant-wlan0.conf")
STAMP = Path("var/lib/narrator-firstboot/applied.sha256")
LANGS = ("en", "ru")
KEYS: Mapping[str, tuple[str, ...]] = {"box": ("name", "lang", "rules", "pin"),
                                       "wifi": ("ssid", "password", "country")}
_HOST = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")
_COUNTRY = re.compile(r"[A-Z]{2}")
_HEX_KEY = re.compile(r"[0-9a-fA-F]{64}")


@dataclass(frozen=True)
class Wifi:
    ssid: str
    password: str | None  # None: an open network
    country: str | None

    def psk(self) -> str | None:
        """The WPA key: 64 hex digits as given, or the passphrase's PBKDF2 (as
        wpa_passphrase makes it), so the passphrase itself is kept nowhere."""
        if self.password is None:
            return None
        if _HEX_KEY.fullmatch(self.password):
            return self.password.lower()
        key = hashlib.pbkdf2_hmac("sha1", self.password.encode(), self.ssid.encode(), 4096, 32)
        return key.hex()


@dataclass(frozen=True)
class BootSettings:
    name: str | None = None
    lang: str | None = None
    rules: str | None = None
    pin: str | None = None
    wifi: Wifi | None = None
    problems: tuple[str, ...] = field(default=())


class _Reader:
    """Reads one file's values; each wrong one becomes a problem naming its line and key."""

    def __init__(self, text: str, source: str) -> None:
        self.lines = text.splitlines()
        self.source = source
        self.problems: list[str] = []

    def line_of(self, section: str, key: str | None = None) -> int | None:
        inside = False
        for number, line in enumerate(self.lines, 1):
            stripped = line.strip()
            if stripped.startswith("["):
                if key is None and stripped.strip("[] ") == section:
                    return number
                inside = stripped.strip("[] ") == section
            elif inside and key is not None and re.match(rf"{re.escape(key)}\s*=", stripped):
                return number
        return None

    def problem(self, section: str, key: str | None, text: str) -> None:
        number = self.line_of(section, key)
        where = f"line {number}, " if number else ""
        name = f"{section}.{key}" if key else f"[{section}]"
        self.problems.append(f"{self.source}: {where}{name}: {text}")

    def text(self, values: Mapping[str, Any], section: str, key: str) -> str | None:
        value = values.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            self.problem(section, key, f"expected text in quotes, got {_shown(value)}")
            return None
        return value

    def known(self, values: Mapping[str, Any], section: str) -> None:
        for key in values:
            if key not in KEYS[section]:
                self.problem(section, key, f"unknown setting (known: {', '.join(KEYS[section])})")

    def box(self, values: Mapping[str, Any]) -> dict[str, str | None]:
        self.known(values, "box")
        found: dict[str, str | None] = {}
        name = self.text(values, "box", "name")
        if name is not None:
            if _HOST.fullmatch(name.lower()):
                found["name"] = name.lower()
            else:
                self.problem("box", "name", f"expected a host name: letters a-z, digits and '-', at "
                             f"most 63, not starting or ending with '-', got {name!r}")
        lang = self.text(values, "box", "lang")
        if lang is not None:
            if lang in LANGS:
                found["lang"] = lang
            else:
                self.problem("box", "lang", f"expected one of {', '.join(LANGS)}, got {lang!r}")
        rules = self.text(values, "box", "rules")
        if rules is not None:
            from narrator.rules.loader import bundled_names

            if rules in bundled_names():
                found["rules"] = rules
            else:
                self.problem("box", "rules", f"expected a bundled rule set "
                             f"({', '.join(bundled_names())}), got {rules!r}")
        if "pin" in values:
            pin = values["pin"]
            # The PIN itself is never repeated in a message: the journal is read by adm.
            if not isinstance(pin, str):
                self.problem("box", "pin", f"expected 4-12 digits in quotes (\"0417\"), got a "
                             f"{_kind(pin)}; the box keeps its own PIN")
            elif not (pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 12):
                self.problem("box", "pin", f"expected 4-12 digits in quotes (\"0417\"), got "
                             f"{len(pin)} characters that are not all digits or too few or many; "
                             f"the box keeps its own PIN")
            else:
                found["pin"] = pin
        return found

    def wifi(self, values: Mapping[str, Any]) -> Wifi | None:
        self.known(values, "wifi")
        ssid = self.text(values, "wifi", "ssid")
        if ssid is None:
            if values and "ssid" not in values:
                self.problem("wifi", None, "no ssid: the network's name is needed (Wi-Fi is left off)")
            return None
        if not 1 <= len(ssid.encode()) <= 32:
            self.problem("wifi", "ssid", f"expected 1-32 bytes, got {len(ssid.encode())} "
                         f"(Wi-Fi is left off)")
            return None
        password = None
        if "password" in values:
            raw = values["password"]
            if not isinstance(raw, str):
                self.problem("wifi", "password", f"expected text in quotes, got a {_kind(raw)} "
                             f"(Wi-Fi is left off)")
                return None
            if not (_HEX_KEY.fullmatch(raw) or (8 <= len(raw) <= 63 and raw.isascii()
                                                 and raw.isprintable())):
                self.problem("wifi", "password", f"a WPA passphrase is 8-63 plain characters "
                             f"(or a 64-digit hex key); this one has {len(raw)} (Wi-Fi is left off)")
                return None
            password = raw
        country = self.text(values, "wifi", "country")
        if country is not None and not _COUNTRY.fullmatch(country.upper()):
            self.problem("wifi", "country", f"expected a two-letter country code such as GB, "
                         f"got {country!r} (Wi-Fi uses the world's common channels)")
            country = None
        return Wifi(ssid, password, country.upper() if country else None)


def _kind(value: object) -> str:
    return {bool: "true/false", int: "number", float: "number"}.get(type(value), type(value).__name__)


def _shown(value: object) -> str:
    return repr(value) if isinstance(value, (bool, int, float)) else _kind(value)


def parse(text: str, source: str) -> BootSettings:
    """The file's settings; whatever is wrong is in `problems`, and left out."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return BootSettings(problems=(f"{source}: not a settings file ({exc}); nothing in it was "
                                      f"applied",))
    reader = _Reader(text, source)
    for section, values in data.items():
        if section not in KEYS:
            reader.problem(section, None, f"unknown section (known: {', '.join(KEYS)})")
        elif not isinstance(values, dict):
            reader.problem(section, None, "expected a section: [" + section + "] on its own line")
    box = reader.box(data["box"]) if isinstance(data.get("box"), dict) else {}
    wifi = reader.wifi(data["wifi"]) if isinstance(data.get("wifi"), dict) else None
    return BootSettings(box.get("name"), box.get("lang"), box.get("rules"), box.get("pin"), wifi,
                        tuple(reader.problems))


# --- applying --------------------------------------------------------------------------------

def set_config(text: str, values: Mapping[str, Mapping[str, str]]) -> str:
    """The narrator.yaml text with `values` ({section: {key: value}}) set and its comments
    kept: a key's line is changed in place, a key the file lacks is added to its section
    (or a new section at the end)."""
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    for section, keys in values.items():
        for key, value in keys.items():
            quoted = yaml.safe_dump(value, default_style='"').strip()
            at = _key_line(lines, section, key)
            if at is not None:
                found = re.match(rf"(\s+{re.escape(key)}:\s*)(\S.*?)?(\s+#.*)?(\r?\n)?$", lines[at])
                assert found is not None
                lines[at] = f"{found[1]}{quoted}{found[3] or ''}{found[4] or ''}"
                continue
            head = next((i for i, line in enumerate(lines)
                         if re.match(rf"{re.escape(section)}:\s*(#.*)?$", line)), None)
            if head is None:
                lines += [f"{section}:\n", f"  {key}: {quoted}\n"]
            else:
                lines.insert(head + 1, f"  {key}: {quoted}\n")
    return "".join(lines)


def _key_line(lines: Sequence[str], section: str, key: str) -> int | None:
    inside = False
    for i, line in enumerate(lines):
        if re.match(rf"{re.escape(section)}:\s*(#.*)?$", line):
            inside = True
        elif line[:1].strip() and not line.startswith("#"):
            inside = False
        elif inside and re.match(rf"\s+{re.escape(key)}:", line):
            return i
    return None


def wpa_conf(wifi: Wifi) -> str:
    """wpa_supplicant's file: the SSID in hex (no quote in a name can break out of it), the
    passphrase only as its key."""
    lines = ["# Written by narrator-firstboot from the boot partition's narrator.toml.",
             "ctrl_interface=DIR=/run/wpa_supplicant GROUP=netdev", "update_config=0"]
    if wifi.country:
        lines.append(f"country={wifi.country}")
    lines += ["network={", f"    ssid={wifi.ssid.encode().hex()}", "    scan_ssid=1"]
    psk = wifi.psk()
    lines.append(f"    psk={psk}" if psk else "    key_mgmt=NONE")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _write(path: Path, text: str, mode: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        os.fchmod(out.fileno(), mode)
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)


def _config_group(path: Path, live: bool) -> None:
    """A config that holds the PIN: root's, readable by the box's user only (0640)."""
    if not live:
        return
    import grp

    try:
        os.chown(path, 0, grp.getgrnam("narrator").gr_gid)
    except (KeyError, OSError) as exc:
        log.warning("cannot give %s to the group narrator: %s", path, exc)


def apply(settings: BootSettings, root: Path, live: bool = False) -> tuple[list[str], list[str]]:
    """Put each setting where the system reads it, under `root` ("/" on the box; `live`
    also sets the running host name). Returns what was done and what went wrong."""
    done: list[str] = []
    problems: list[str] = []
    if settings.name:
        _write(root / "etc/hostname", settings.name + "\n", 0o644)
        hosts = root / "etc/hosts"
        old = hosts.read_text(encoding="utf-8") if hosts.is_file() else "127.0.0.1\tlocalhost\n"
        kept = [line for line in old.splitlines() if not line.startswith("127.0.1.1")]
        _write(hosts, "\n".join([*kept, f"127.0.1.1\t{settings.name}"]) + "\n", 0o644)
        if live:
            socket.sethostname(settings.name)
        done.append(f"box name {settings.name} ({settings.name}.local)")
    game = {k: v for k, v in (("lang", settings.lang), ("rules", settings.rules)) if v}
    values: dict[str, dict[str, str]] = {"game": game} if game else {}
    if settings.pin:
        values["web"] = {"pin": settings.pin}
    if values:
        path = root / CONFIG
        problem = _apply_config(path, values, live)
        if problem:
            problems.append(problem)
        else:
            done += [f"{k} {v}" for k, v in game.items()]
            if settings.pin:
                done.append(f"the page's PIN from the file ({path} is readable by root and the box only)")
    wpa = root / WPA_CONF
    if settings.wifi:
        _write(wpa, wpa_conf(settings.wifi), 0o600)
        security = "WPA" if settings.wifi.password else "open"
        done.append(f"Wi-Fi {settings.wifi.ssid!r} ({security}, country "
                    f"{settings.wifi.country or 'not set'})")
    elif wpa.exists():
        wpa.unlink()
        done.append("Wi-Fi off (no [wifi] in the file)")
    return done, problems


def _apply_config(path: Path, values: Mapping[str, Mapping[str, str]], live: bool) -> str | None:
    from narrator.boxconfig import packaged_config_path, parse_settings
    from narrator.errors import NarratorError

    try:
        old = path.read_text(encoding="utf-8") if path.is_file() else \
            packaged_config_path().read_text(encoding="utf-8")
        new = set_config(old, values)
        parse_settings(new, str(path))  # what the box would refuse is not written
    except (NarratorError, OSError, yaml.YAMLError) as exc:
        return f"{path}: not changed: {exc}"
    holds_pin = "pin" in values.get("web", {}) or _has_pin(new)
    _write(path, new, 0o640 if holds_pin else 0o644)
    if holds_pin:
        _config_group(path, live)
    return None


def _has_pin(text: str) -> bool:
    data = yaml.safe_load(text) or {}
    web = data.get("web") if isinstance(data, dict) else None
    return isinstance(web, dict) and web.get("pin") is not None


def run(boot_file: Path, root: Path, live: bool = False) -> int:
    """Apply the file if it changed since the last time; 0 when all of it applied, 2 when
    any of it was wrong (said, and left out), 0 without a file (the box's defaults)."""
    problems_file = boot_file.with_name(PROBLEMS_FILE)
    try:
        raw = boot_file.read_bytes()
    except FileNotFoundError:
        log.info("no %s: the box starts with its own settings (set up on the page)", boot_file)
        return 0
    except OSError as exc:
        log.error("%s: cannot be read (%s); the box starts with what it had", boot_file, exc)
        return 2
    digest = hashlib.sha256(raw).hexdigest()
    stamp = root / STAMP
    if stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == digest:
        log.info("%s is unchanged since it was applied", boot_file)
        return 0
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        settings = BootSettings(problems=(f"{boot_file}: byte {exc.start}: not UTF-8 text (save it "
                                          f"as UTF-8); nothing in it was applied",))
    else:
        settings = parse(text, str(boot_file))
    try:
        done, late = apply(settings, root, live)
    except OSError as exc:  # a root that can't be written: said, and the box still starts
        done, late = [], [f"{exc.filename or root}: cannot be written ({exc.strerror or exc}); "
                          f"the box starts with what it had"]
    for line in done:
        log.info("applied: %s", line)
    problems = [*settings.problems, *late]
    for line in problems:
        log.error("%s", line)
    _tell_the_card(problems_file, problems)
    _write(stamp, digest + "\n", 0o600)
    return 2 if problems else 0


def _tell_the_card(path: Path, problems: Sequence[str]) -> None:
    """The problems beside the file, where the club reads the card on a laptop; none: no file."""
    try:
        if problems:
            text = "The box started, but left out what is wrong in narrator.toml:\n"
            _write(path, text + "".join(f"- {p}\n" for p in problems), 0o644)
        elif path.exists():
            path.unlink()
    except OSError as exc:
        log.warning("cannot write %s: %s", path, exc)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m narrator.firstboot", description=__doc__.split("\n")[0])
    parser.add_argument("--boot-file", type=Path, default=BOOT_FILE)
    parser.add_argument("--root", type=Path, default=Path("/"),
                        help="the system to set up (a mounted image; default: this one, live)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="narrator-firstboot: %(message)s", stream=sys.stdout)
    live = args.root.resolve() == Path("/")
    return run(args.boot_file, args.root, live)


if __name__ == "__main__":
    sys.exit(main())
