"""The image booted, not only built: scripts/boot-check (see its --help).

The image from scripts/make-image boots in qemu-system-aarch64's `virt` machine: the same
card (a copy, grown by 1 GiB so the first boot's growing is seen), its own kernel, initramfs
and cmdline.txt from its boot partition (the console moved to virt's ttyAMA0). qemu 7.2's
only Pi model, raspi3b, has no network a port can be forwarded through, no virtio for the
check's own channel, and 1 GiB: the Pi's firmware start (config.txt, start4.elf) is the
one part a real Pi must prove.

The check talks to the booted box through a virtio serial port: a small agent (a root
service added to the copy, never to the image) runs each check's shell lines and answers
with their output. The page is reached from here on a forwarded loopback port. Three boots:
1. the first, with no network at all and no narrator.toml: the box comes up, its page waits
   for a set-up, its socket and hardening hold, check-hardware and the demo run, the PIN is
   never said and only root reads its line in the journal;
2. narrator.toml with a name, language, rule set, PIN and a Wi-Fi passphrase that is too
   short: the rest applies, the problem is said, the box comes up; a game is started on
   the page (signed in with the file's PIN) and qemu is killed mid-game: a power cut;
3. the same game is resumed from its journal.
Each step's result and time go into a markdown report (BENCHMARKS.md has the run of record).
Times are under emulation (TCG on a shared x86 host): they say nothing of a Pi's speed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from workshop.bootcheck.guest import (
    AGENT,
    AGENT_UNIT,
    DROP_IN,
    GROW_MB,
    IMAGE,
    NAME,
    PIN,
    PIN_CHECK,
    ROOT,
    WORK,
    CheckFailed,
    Disk,
    Guest,
    Page,
    cpu_name,
    git,
    qemu_version,
    wait_for,
)


@dataclass
class Step:
    name: str
    result: str = "pass"
    seconds: float = 0.0
    note: str = ""


@dataclass
class Report:
    steps: list[Step] = field(default_factory=list)
    # The check's own commit when it started (HEAD may move on during a long run).
    commit: str = field(default_factory=lambda: git("rev-parse", "--short", "HEAD"))

    def markdown(self, image: Path, started: str, extra: Sequence[str]) -> str:
        failed = sum(s.result == "FAIL" for s in self.steps)
        lines = ["# Boot check", "",
                 f"- date: {started}; commit {self.commit}",
                 f"- machine: {os.uname().machine}, {cpu_name()}, {os.cpu_count()} cores; {qemu_version()}",
                 f"- image: {image} ({image.stat().st_size // 2**20} MB)" if image.exists()
                 else f"- image: {image}",
                 "- qemu-system-aarch64 -M virt (TCG), the image's own kernel, initramfs and "
                 "cmdline; times are emulated: not a Pi's", *extra, "",
                 "| step | result | time | note |", "|---|---|---:|---|"]
        for s in self.steps:
            note = s.note.replace("|", "/").replace("\n", " / ")  # one table row per step
            lines.append(f"| {s.name} | {s.result} | {s.seconds:.0f} s | {note} |")
        lines += ["", f"{len(self.steps) - failed} of {len(self.steps)} steps passed, {failed} failed."]
        return "\n".join(lines) + "\n"


class Check:
    """The three boots and their steps."""

    def __init__(self, image: Path, work: Path, port: int, dry_run: bool) -> None:
        self.image, self.work, self.port, self.dry_run = image, work, port, dry_run
        self.report = Report()
        self.disk_path = work / "card.img"
        self.kernel, self.initrd = work / "vmlinuz", work / "initrd.img"
        self.cmdline = ""
        self.guest: Guest | None = None
        self.page = Page(port)
        self.facts: dict[str, str] = {}
        self.report_path: Path | None = None
        self.started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())

    def extra(self) -> list[str]:
        return [f"- the Pi's cmdline.txt: `{self.facts.get('cmdline', '?')}`"]

    # -- steps ---------------------------------------------------------------------------
    def step(self, name: str, do: Callable[[], str], fatal: bool = False) -> bool:
        print(f"boot-check: {name} ...", flush=True)
        if self.dry_run:
            return True
        started = time.monotonic()
        step = Step(name)
        try:
            step.note = do()
        except (CheckFailed, subprocess.CalledProcessError, OSError, ValueError) as exc:
            step.result, step.note = "FAIL", str(exc).replace("\n", " ")[:400]
        step.seconds = time.monotonic() - started
        self.report.steps.append(step)
        if self.report_path is not None:  # after every step: a run cut short still tells
            self.report_path.write_text(self.report.markdown(self.image, self.started, self.extra()))
        print(f"boot-check: {name} ... {step.result}, {step.seconds:.0f} s: {step.note}", flush=True)
        if fatal and step.result == "FAIL":
            raise CheckFailed(f"{name}: {step.note}")
        return step.result == "pass"

    def sh(self, script: str, limit: float = 600.0, ok: bool = True) -> str:
        assert self.guest is not None
        rc, out = self.guest.sh(script, limit)
        if ok and rc != 0:
            raise CheckFailed(f"exit {rc}: {out.strip()[-300:]}")
        return out.strip()

    # -- the card --------------------------------------------------------------------------
    def prepare(self) -> str:
        self.work.mkdir(parents=True, exist_ok=True)
        subprocess.run(["cp", "--sparse=always", str(self.image), str(self.disk_path)], check=True)
        # A card larger than the image: the first boot grows the root to fill it.
        with open(self.disk_path, "r+b") as card:
            card.truncate(self.image.stat().st_size + GROW_MB * 2**20)
        disk = Disk(self.disk_path)
        files = disk.boot_files()
        config = self.work / "config.txt"
        disk.read_boot("config.txt", config)
        kernel = re.search(r"^kernel=(\S+)", config.read_text(), re.M)
        initrd = re.search(r"^initramfs (\S+)", config.read_text(), re.M)
        if not kernel or not initrd:
            raise CheckFailed(f"config.txt names no kernel= or initramfs: {config.read_text()[:300]}")
        disk.read_boot(kernel[1], self.kernel)
        disk.read_boot(initrd[1], self.initrd)
        disk.read_boot("cmdline.txt", self.work / "cmdline.txt")
        pi_cmdline = (self.work / "cmdline.txt").read_text().split()
        # The Pi's consoles (its UARTs, the screen) become virt's PL011.
        kept = [a for a in pi_cmdline if not a.startswith("console=")]
        self.cmdline = " ".join([*kept, "console=ttyAMA0"])
        self.facts["cmdline"] = " ".join(pi_cmdline)
        agent, unit = self.work / "agent", self.work / "agent.service"
        agent.write_text(AGENT)
        unit.write_text(AGENT_UNIT)
        disk.add_file(agent, "/usr/local/sbin/narrator-boot-check-agent", 0o755)
        disk.add_file(unit, "/etc/systemd/system/narrator-boot-check-agent.service", 0o644)
        disk.debugfs("symlink /etc/systemd/system/multi-user.target.wants/narrator-boot-check-agent.service "
                     "/etc/systemd/system/narrator-boot-check-agent.service",
                     "mkdir /etc/systemd/system/narrator.service.d")
        drop_in = self.work / "boot-check.conf"
        drop_in.write_text(DROP_IN)
        disk.add_file(drop_in, "/etc/systemd/system/narrator.service.d/boot-check.conf", 0o644)
        firmware = [f for f in files if f.lower().startswith(("start", "fixup", "bootcode"))]
        dtbs = [f for f in files if f.lower().endswith(".dtb")]
        return ("mock pins and the terminal keypad (virt has no GPIO); "
                f"boot partition: {len(files)} files ({', '.join(sorted(firmware)[:4])}..., {len(dtbs)} "
                f"device trees, {kernel[1]}, {initrd[1]}); card grown by {GROW_MB} MiB; agent added")

    def boot(self, network: bool) -> str:
        self.guest = Guest(self.work, self.disk_path, self.kernel, self.initrd, self.cmdline, network,
                           self.port)
        self.guest.start()
        seconds = self.guest.wait_ready(1800)
        net = "user, restricted" if network else "none"
        return f"up (multi-user, agent ready) in {seconds:.0f} s; network: {net}"

    def wait_service(self) -> str:
        started = time.monotonic()
        said = wait_for(lambda: self._active("narrator.service"), 900)
        self.facts["ready_s"] = f"{time.monotonic() - started:.0f}"
        status = self.sh("systemctl show -p StatusText --value narrator.service", ok=False)
        return f"active (READY=1) {self.facts['ready_s']} s after the agent; {said}; status: {status}"

    def _active(self, unit: str) -> tuple[bool, str]:
        out = self.sh(f"systemctl is-active {unit}; systemctl show -p NRestarts --value {unit}", ok=False)
        state, _, restarts = out.partition("\n")
        return state == "active", f"{state}, {restarts or 0} restarts"

    # -- boot 1: first boot, no network, no settings ------------------------------------------
    def socket_up(self) -> str:
        out = self.sh("systemctl is-active narrator.socket && systemctl is-enabled narrator.socket && "
                      "ss -Hltn 'sport = :8080'")
        return "narrator.socket active, enabled; " + " ".join(out.split("\n")[-1].split()[2:4])

    def grown(self) -> str:
        out = self.sh("systemctl is-active narrator-grow-root.service >/dev/null || "
                      "systemctl status narrator-grow-root.service --no-pager; "
                      "test -e /var/lib/narrator-grow-root/done && df -m --output=size / | tail -1")
        size = int(out.split()[-1])
        image_mb = self.image.stat().st_size // 2**20
        if size < image_mb:
            raise CheckFailed(f"root is {size} MB, the card {image_mb + GROW_MB} MB")
        return f"root {size} MB on a {image_mb + GROW_MB} MB card (image {image_mb} MB)"

    def no_settings(self) -> str:
        out = self.sh("journalctl -b -u narrator-firstboot -o cat --no-pager; "
                      "systemctl is-failed narrator-firstboot || true; hostname")
        if "Dependency failed" in out or "failed with result" in out:
            raise CheckFailed(f"narrator-firstboot did not run: {out[-300:]}")
        if "applied:" in out:
            raise CheckFailed(f"firstboot applied something from the card's commented file: {out}")
        return " / ".join(line for line in out.splitlines() if line.strip())[-300:]

    def page_waits(self) -> str:
        code = ("python3 - <<'PY'\nimport urllib.request, urllib.error\n"
                "r = urllib.request.urlopen('http://127.0.0.1:8080/', timeout=60)\n"
                "body = r.read().decode()\nprint(r.status, r.geturl(), len(body))\n"
                "try:\n    urllib.request.urlopen('http://127.0.0.1:8080/api/state', timeout=60)\n"
                "except urllib.error.HTTPError as e:\n    print('state', e.code)\nPY")
        out = self.sh(code)
        if not out.startswith("200 http://127.0.0.1:8080/setup") or "state 404" not in out:
            raise CheckFailed(f"the page: {out}")
        said = self.sh("journalctl -b -u narrator -o cat --no-pager | grep -E 'say: ' | head -5", ok=False)
        return (f"GET / -> /setup, 200 in the box (no network: loopback); /api/state 404 (no game yet); "
                f"said: {said[:200]}")

    def pin_never_said(self) -> str:
        (self.work / "pin_check.py").write_text(PIN_CHECK)
        out = self.sh("cat > /run/pin_check.py <<'PY'\n" + PIN_CHECK
                      + "\nPY\n/opt/narrator/bin/python /run/pin_check.py")
        return out

    def journal_view(self) -> str:
        out = self.sh(r"""
pin=$(cat /var/lib/narrator/web-pin)
root=$(journalctl -u narrator -o cat --no-pager | grep -c "PIN $pin" || true)
as_box=$(runuser -u narrator -- journalctl -u narrator -o cat --no-pager 2>&1 | grep -c "PIN $pin" || true)
as_nobody=$(runuser -u nobody -- journalctl -u narrator -o cat --no-pager 2>&1 | grep -c "PIN $pin" || true)
nobody_says=$(runuser -u nobody -- journalctl -u narrator --no-pager 2>&1 | head -1)
files=$(stat -c '%U:%G %a' /var/log/journal/*/system.journal)
acl=$(getfacl -cp /var/log/journal/*/system.journal 2>/dev/null | grep '^group:' | tr '\n' ' ')
members=$(getent group adm systemd-journal | tr '\n' ' ')
echo "root=$root narrator=$as_box nobody=$as_nobody; files $files $acl; groups $members; nobody: $nobody_says"
test "$root" -ge 1 && test "$as_box" = 0 && test "$as_nobody" = 0
""")
        return out

    def hardware(self) -> str:
        out = self.sh("cd /tmp && timeout 300 /opt/narrator/bin/narrator check-hardware --wait 2; "
                      "echo exit=$?", 900, ok=False)
        tail = [line for line in out.splitlines() if line.strip()][-4:]
        if "exit=" not in out or "Traceback" in out:
            raise CheckFailed(f"check-hardware: {out[-300:]}")
        return " / ".join(tail)[-400:]

    def demo(self) -> str:
        out = self.sh("cd /tmp && GPIOZERO_PIN_FACTORY=mock /opt/narrator/bin/narrator demo --fast --json",
                      1800)
        game = next((line for line in out.splitlines() if line.startswith("{")), None)
        if game is None:
            raise CheckFailed(f"no JSON game: {out[-300:]}")
        found = json.loads(game)
        note = f"winner {found['winner']} after {len(found['eliminations'])} eliminations"
        here = ROOT / ".venv/bin/narrator"
        if here.exists():
            local = subprocess.run([str(here), "demo", "--fast", "--json"], capture_output=True, text=True,
                                   cwd=self.work, check=False,
                                   env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"})
            mine = next((line for line in local.stdout.splitlines() if line.startswith("{")), "")
            if mine != game:
                raise CheckFailed(f"{note}, but not the game of {os.uname().machine}")
            note += f"; the same game as on {os.uname().machine}"
        return note

    def security(self) -> str:
        out = self.sh("systemd-analyze security narrator.service --no-pager | tail -1")
        found = re.search(r"exposure level for narrator\.service: ([\d.]+)", out)
        laptop = subprocess.run(["systemd-analyze", "security", "--offline=true",
                                 str(ROOT / "systemd/narrator.service")], capture_output=True, text=True,
                                check=False).stdout if shutil.which("systemd-analyze") else ""
        mine = re.search(r"exposure level for narrator\.service: ([\d.]+)", laptop)
        if not found:
            raise CheckFailed(out)
        note = f"booted box {found[1]}; laptop (--offline) {mine[1] if mine else '?'}"
        if mine and found[1] != mine[1]:
            raise CheckFailed(note)
        return note

    def hardening(self) -> str:
        out = self.sh(r"""
pid=$(systemctl show -p MainPID --value narrator.service)
grep -E '^(NoNewPrivs|Seccomp|CapEff|CapBnd|Groups):' /proc/$pid/status | tr -s '\t ' ' ' | tr '\n' ';'
echo
echo "net: $(tail -n +3 /proc/$pid/net/dev | cut -d: -f1 | tr -d ' ' | tr '\n' ' ')"
echo "user: $(ps -o user= -p $pid); groups: $(id -nG narrator)"
echo "state: $(stat -c '%U %a' /var/lib/narrator)"
echo "cwd: $(readlink /proc/$pid/cwd) $(stat -c '%U %a' /proc/$pid/cwd/)"
""")
        problems = []
        if "NoNewPrivs: 1" not in out and "NoNewPrivs:1" not in out.replace(" ", ""):
            problems.append("NoNewPrivs")
        if "CapEff: 0000000000000000" not in out:
            problems.append("capabilities")
        if "net: lo" not in out or "eth" in out.split("net:")[1].split("\n")[0]:
            problems.append("network namespace")
        for group in ("gpio", "audio", "input"):
            if group not in out.split("groups:")[1]:
                problems.append(f"group {group}")
        # lgpio's pipes go in the working directory: the box's own, not the read-only root.
        if "cwd: /run/narrator narrator 700" not in out:
            problems.append("working directory")
        if problems:
            raise CheckFailed(f"{', '.join(problems)}: {out}")
        return out.replace("\n", " ")[:450]

    # -- boot 2: settings on the card, a game, a power cut ------------------------------------
    def write_settings(self) -> str:
        toml = self.work / "narrator.toml"
        toml.write_text(f'[box]\nname = "{NAME}"\nlang = "ru"\nrules = "sport"\npin = "{PIN}"\n\n'
                        '[wifi]\nssid = "Club"\npassword = "short"\ncountry = "GB"\n')
        Disk(self.disk_path).write_boot("narrator.toml", toml)
        return f"box {NAME}, ru, sport, a PIN; Wi-Fi with a 5-letter passphrase (wrong on purpose)"

    def settings_applied(self) -> str:
        out = self.sh(f"""
echo "host: $(hostname)"
grep -E '^  (lang|rules|pin):' /etc/narrator/narrator.yaml | sed 's/{PIN}/(the PIN)/' \
  | tr -s ' ' | tr '\n' ';'
echo; stat -c 'yaml: %U:%G %a' /etc/narrator/narrator.yaml
echo "problems: $(cat /boot/firmware/narrator-problems.txt | tail -n +2)"
echo "firstboot: $(systemctl is-failed narrator-firstboot)"
echo "wpa: $(test -e /etc/wpa_supplicant/wpa_supplicant-wlan0.conf && echo present || echo absent)"
journalctl -b -u narrator-firstboot -o cat --no-pager | grep -c '{PIN}\\|short' || true
""")
        checks = {f"host: {NAME}": "host name", 'lang: "ru"': "lang", 'rules: "sport"': "rules",
                  "(the PIN)": "PIN", "root:narrator 640": "yaml mode", "wifi.password": "problem said",
                  "firstboot: failed": "unit failed", "wpa: absent": "no Wi-Fi from a bad password"}
        missing = [what for text, what in checks.items() if text not in out]
        if not out.rstrip().endswith("0"):
            missing.append("the journal repeats the PIN or the passphrase")
        if missing:
            raise CheckFailed(f"{', '.join(missing)}: {out}")
        return " ".join(out.split("\n")[:-1])[:400]

    def page_forwarded(self) -> str:
        code, body = self.page.get("/setup")
        if code != 200:
            raise CheckFailed(f"GET /setup on 127.0.0.1:{self.port}: {code}")
        if PIN in body:
            raise CheckFailed("the page shows the PIN to a phone not signed in")
        code, _ = self.page.post("/login", {"pin": PIN, "next": "/game"})
        if code != 303 or not any(c.name == "narrator_session" for c in self.page.jar):
            raise CheckFailed(f"sign-in with the card's PIN: {code}")
        return (f"127.0.0.1:{self.port} -> the box's 8080: /setup 200 (no PIN in it), signed in with "
                f"the file's PIN (303)")

    def game_started(self) -> str:
        code, body = self.page.post("/api/next-game")
        if code != 200:
            raise CheckFailed(f"POST /api/next-game: {code} {body[:200]}")

        def playing() -> tuple[bool, str]:
            code, body = self.page.get("/api/state")
            if code != 200:
                return False, f"/api/state {code}"
            try:
                game = game_of(code, body)
            except CheckFailed as exc:
                return False, str(exc)
            return game["phase"] != "setup" and not game.get("over"), body[:120]

        wait_for(playing, 600)
        # Let the game go on a little: the journal has more than its start.
        time.sleep(20)
        game = self.game()
        self.facts["game"] = str(game["id"])
        self.facts["phase"] = f"{game['phase']} {game.get('day')}"
        lines = self.sh("ls -l /var/lib/narrator/journal | tail -n +2 | awk '{print $5, $9}'", ok=False)
        return (f"game {game['id']} ({game['rules']}, {game['lang']}) in {self.facts['phase']}"
                f"{', paused' if game.get('paused') else ''}; journal: {lines}")

    def game(self) -> dict[str, object]:
        return game_of(*self.page.get("/api/state"))

    def power_cut(self) -> str:
        assert self.guest is not None
        self.guest.power_cut()
        return f"qemu killed (SIGKILL) in game {self.facts.get('game')}, {self.facts.get('phase')}"

    # -- boot 3: the same game -----------------------------------------------------------------
    def resumed(self) -> str:
        log = self.sh("journalctl -b -u narrator -o cat --no-pager | grep -iE 'resum|unfinished' | head -3",
                      ok=False)
        try:
            game = self.game()
        except CheckFailed as exc:
            raise CheckFailed(f"{exc}; log: {log}") from None
        if game["id"] != self.facts.get("game"):
            raise CheckFailed(f"game {game['id']}, not {self.facts.get('game')}; log: {log}")
        return (f"game {game['id']} again, in {game['phase']} {game.get('day')} (cut in "
                f"{self.facts.get('phase')}); log: {log[:250]}")

    def clean_off(self) -> str:
        assert self.guest is not None
        started = time.monotonic()
        self.guest.poweroff()
        return f"systemctl poweroff: qemu ended in {time.monotonic() - started:.0f} s"

    # -- all of it ------------------------------------------------------------------------------
    def run(self) -> int:
        try:
            self.step("the card: copy, kernel, agent", self.prepare, fatal=True)
            self.step("boot 1: first boot, no network, no settings", lambda: self.boot(False), fatal=True)
            self.step("narrator.service ready", self.wait_service, fatal=True)
            self.step("narrator.socket listening", self.socket_up)
            self.step("root grown to the card", self.grown)
            self.step("first boot without settings", self.no_settings)
            self.step("the page waits for its set-up", self.page_waits)
            self.step("the PIN never said", self.pin_never_said)
            self.step("the PIN line in the journal: root only", self.journal_view)
            self.step("hardening at run time", self.hardening)
            self.step("systemd-analyze security", self.security)
            self.step("power off", self.clean_off, fatal=True)
            self.step("narrator.toml on the boot partition", self.write_settings, fatal=True)
            self.step("boot 2: the card's settings, a network", lambda: self.boot(True), fatal=True)
            self.step("narrator.service ready (2)", self.wait_service, fatal=True)
            self.step("settings applied, the bad one said", self.settings_applied)
            self.step("the page on a forwarded port, signed in", self.page_forwarded, fatal=True)
            self.step("a game on the page", self.game_started, fatal=True)
            self.step("power cut mid-game", self.power_cut, fatal=True)
            self.step("boot 3: after the power cut", lambda: self.boot(True), fatal=True)
            self.step("narrator.service ready (3)", self.wait_service, fatal=True)
            self.step("the same game resumed", self.resumed)
            # The slow ones last: what a power cut proves does not wait for them.
            self.step("narrator check-hardware", self.hardware)
            self.step("the demo", self.demo)
            self.step("power off (3)", self.clean_off)
        except CheckFailed as exc:
            print(f"boot-check: stopped: {exc}", file=sys.stderr)
            if self.guest is not None:
                self.guest.power_cut()
        failed = any(s.result == "FAIL" for s in self.report.steps)
        return 1 if failed else 0


def game_of(code: int, body: str) -> dict[str, object]:
    """/api/state's game: {"game": {"id", "phase", "day", ...}, "seats": [...]}
    (tests/deploy/test_boot_check.py reads a real box's answer with it)."""
    if code != 200:
        raise CheckFailed(f"/api/state {code}: {body[:200]}")
    game = json.loads(body).get("game")
    if not isinstance(game, dict) or "id" not in game or "phase" not in game:
        raise CheckFailed(f"/api/state has no game: {body[:200]}")
    return game


def dry_run(check: Check) -> None:
    """Every step, and the qemu line of each boot, without doing anything."""
    print(f"would copy {check.image} to {check.disk_path} (sparse), grown by {GROW_MB} MiB; read config.txt, "
          "cmdline.txt, the kernel and the initramfs from its boot partition (mtools); add the agent "
          "(debugfs, the copy only)")
    for network in (False, True):
        guest = Guest(check.work, check.disk_path, check.kernel, check.initrd,
                      "<cmdline.txt, console=ttyAMA0>", network, check.port)
        print("would run: " + " ".join(shlex.quote(a) for a in guest.cmd))
    check.run()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/boot-check", description=__doc__.split("\n\n")[0])
    parser.add_argument("image", nargs="?", type=Path, default=IMAGE)
    parser.add_argument("--work", type=Path, default=WORK, help=f"the copy, logs, report (default {WORK})")
    parser.add_argument("--report", type=Path, help="the report (default WORK/report.md)")
    parser.add_argument("--port", type=int, default=18080, help="the loopback port forwarded to the page")
    parser.add_argument("--dry-run", action="store_true", help="print the steps and qemu's lines; do nothing")
    args = parser.parse_args(argv)
    check = Check(args.image.resolve(), args.work, args.port, args.dry_run)
    if args.dry_run:
        dry_run(check)
        return 0
    missing = [t for t in ("qemu-system-aarch64", "mcopy", "debugfs", "sfdisk") if shutil.which(t) is None]
    if missing:
        print(f"boot-check: error: missing {', '.join(missing)} (apt-get install qemu-system-arm mtools "
              "e2fsprogs fdisk)", file=sys.stderr)
        return 2
    if not args.image.is_file():
        print(f"boot-check: error: no image at {args.image} (sudo scripts/make-image)", file=sys.stderr)
        return 2
    report = args.report or args.work / "report.md"
    args.work.mkdir(parents=True, exist_ok=True)
    check.report_path = report
    status = check.run()
    print(f"boot-check: report: {report}")
    print(report.read_text())
    return status


if __name__ == "__main__":
    sys.exit(main())
