"""scripts/make-image and scripts/boot-check without building or booting anything: they are
shellcheck-clean, their dry runs list every step in order and change nothing, the image's
units are ones systemd takes, and the image can never land in the repository. The real
build and boot (an hour under emulation) are `sudo scripts/make-image` and
`scripts/boot-check`; their figures are in BENCHMARKS.md."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"



def make_image(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NARRATOR_IMAGE_CACHE": str(tmp_path / "cache"),
           "NARRATOR_IMAGE_WORK": str(tmp_path / "work")}
    return subprocess.run(["bash", str(SCRIPTS / "make-image"), *args], capture_output=True, text=True,
                          env=env, timeout=120, check=False)


@pytest.mark.parametrize("script", ["make-image", "boot-check", "../image/grow-root"])
def test_shellcheck_is_clean(script: str) -> None:
    done = subprocess.run(["shellcheck", str(SCRIPTS / script)], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stdout


STEPS = ["tools and qemu-aarch64", "base root (debootstrap, kernel, firmware)", "the box (install-pi)",
         "system files and units", "clean the root", "partitions (FAT boot, ext4 root)", "the image"]


def test_a_dry_run_names_every_step_and_changes_nothing(tmp_path: Path) -> None:
    out_file = tmp_path / "out" / "card.img"
    done = make_image(tmp_path, "--dry-run", "--out", str(out_file))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert re.findall(r"^make-image: \[\d/7\] (.+) \.\.\.$", out, re.M) == STEPS
    work = f"{tmp_path}/work/root"
    # No cached base yet: debootstrap bookworm arm64 with the firmware's component, then the
    # kernel and the Pi's firmware from Debian, cached under a name of what is in it.
    assert re.search(rf"debootstrap --arch=arm64 --variant=minbase --components=main,non-free-firmware "
                     rf"--include=\S*firmware-brcm80211\S* bookworm {work} ", out)
    assert ("apt-get install -y -q --no-install-recommends -o Dpkg::Options::=--force-confold "
            "linux-image-arm64 raspi-firmware") in out
    assert f"{ROOT}/image/initramfs-modules {work}/etc/initramfs-tools/modules" in out
    cached = rf"tar -C {work} -cf {tmp_path}/cache/bookworm-arm64-base-[0-9a-f]{{12}}\.tar\.part \."
    assert re.search(cached, out)
    assert "ROOTPART=LABEL=RASPIROOT" in out
    # The box as install-pi puts it on a Pi, units enabled, not started; downloads cached.
    assert re.search(rf"chroot {work} /root/narrator/scripts/install-pi --no-start$", out, re.M)
    assert f"mount --bind {tmp_path}/cache/pip {work}/root/.cache/pip" in out
    assert re.search(r"systemctl enable .*narrator-firstboot\.service .*narrator\.socket narrator\.service",
                     out)
    assert f"install -m 0644 {ROOT}/image/narrator.toml {work}/boot/firmware/narrator.toml" in out
    # A first boot that asked for a locale on the console would wait there for ever.
    assert "systemctl mask systemd-firstboot.service" in out
    assert "passwd --lock root" in out and f"truncate -s 0 {work}/etc/machine-id" in out
    # The build machine's CA certificates go in for pip and come out again.
    if any(Path("/usr/local/share/ca-certificates").glob("*.crt")):
        assert f"mv {tmp_path}/work/certs-before {work}/etc/ssl/certs" in out
    # The partitions as files: FAT labelled RASPIFIRM, ext4 RASPIROOT, laid into an MBR image.
    assert re.search(r"mkfs\.vfat -C -F 32 -n RASPIFIRM \S+/boot\.img 262144", out)
    assert re.search(rf"mkfs\.ext4 -q -F -L RASPIROOT -E root_owner=0:0 -d {work} ", out)
    assert "type=c, bootable" in out and f"truncate -s 260M {out_file}" in out
    assert not (tmp_path / "work").exists() and not (tmp_path / "cache").exists()
    assert not out_file.parent.exists()


def test_a_cached_base_is_unpacked_and_xz_is_asked_for(tmp_path: Path) -> None:
    first = make_image(tmp_path, "--dry-run").stdout
    tarball = re.search(r"-cf (\S+)\.part \.", first)
    assert tarball is not None
    Path(tarball[1]).parent.mkdir(parents=True)
    Path(tarball[1]).write_bytes(b"")
    again = make_image(tmp_path, "--dry-run", "--xz").stdout
    assert f"tar -C {tmp_path}/work/root -xf {tarball[1]}" in again and "debootstrap --arch" not in again
    assert re.search(r"xz -T2 -6 -k -f \S+\.img$", again, re.M)
    fresh = make_image(tmp_path, "--dry-run", "--fresh").stdout
    assert "debootstrap --arch=arm64" in fresh


def test_an_image_is_never_written_into_the_repository(tmp_path: Path) -> None:
    done = make_image(tmp_path, "--dry-run", "--out", str(ROOT / "card.img"))
    assert done.returncode == 2
    assert "inside the repository: an image is never committed" in done.stderr
    assert make_image(tmp_path, "--bogus").returncode == 2


def test_the_images_units_are_ones_systemd_takes(tmp_path: Path) -> None:
    units = [ROOT / "image" / name for name in ("narrator-firstboot.service", "narrator-grow-root.service")]
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", "--recursive-errors=no",
                           *map(str, units)], capture_output=True, text=True, timeout=120, check=False)
    # Only what a build machine lacks (the box's python, the Pi's script) may be missing.
    problems = [line for line in done.stderr.splitlines()
                if line.strip() and "/opt/narrator/bin/python" not in line
                and "/usr/lib/narrator/grow-root" not in line]
    assert problems == [], done.stderr


def test_the_card_is_mounted_by_label_and_the_boot_partition_is_waited_for() -> None:
    """The first boot check found narrator-firstboot skipped: udev's coldplug took over
    2 min emulated and the boot partition's label hit systemd's 90 s. A slow card or a busy
    first boot must not skip the card's settings (nor stop the boot: nofail)."""
    rows = {f[1]: f for f in (line.split() for line in (ROOT / "image/fstab").read_text().splitlines())
            if f and not f[0].startswith("#")}
    assert rows["/"][0] == "LABEL=RASPIROOT"
    boot = rows["/boot/firmware"]
    assert boot[0] == "LABEL=RASPIFIRM" and boot[2] == "vfat"
    options = dict(o.partition("=")[::2] for o in boot[3].split(","))
    assert "nofail" in options and {"fmask", "dmask"} <= options.keys()
    wait = re.fullmatch(r"(\d+)min", options.get("x-systemd.device-timeout", ""))
    assert wait is not None and int(wait[1]) >= 5, boot[3]
    firstboot = (ROOT / "image/narrator-firstboot.service").read_text()
    assert re.search(r"^RequiresMountsFor=.*/boot/firmware", firstboot, re.M)


def test_boot_check_dry_run_lists_its_boots_and_steps(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "workshop.bootcheck", "--dry-run", "--work",
                           str(tmp_path / "w"), str(tmp_path / "card.img")], capture_output=True,
                          text=True, timeout=120, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    qemu = [line for line in out.splitlines() if line.startswith("would run: nice -n 10 qemu-system-aarch64")]
    assert len(qemu) == 2
    assert "-machine virt" in qemu[0] and "-nic none" in qemu[0]  # the first boot: no network
    assert "restrict=on,hostfwd=tcp:127.0.0.1:18080-:8080" in qemu[1]
    steps = re.findall(r"^boot-check: (.+) \.\.\.$", out, re.M)
    for wanted in ("boot 1: first boot, no network, no settings", "narrator.socket listening",
                   "the page waits for its set-up", "the PIN never said",
                   "the PIN line in the journal: root only", "systemd-analyze security",
                   "narrator check-hardware", "the demo", "power cut mid-game", "the same game resumed"):
        assert wanted in steps
    assert steps.index("power cut mid-game") < steps.index("the same game resumed")
    assert not (tmp_path / "w").exists()
